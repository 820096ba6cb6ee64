package dev.handoff.clickhouse.type;

/**
 * A type string that is not a ClickHouse type handoff understands. The message gives the type
 * string, the position (0-based) and what was expected there.
 */
public final class TypeParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String typeString;
  private final int position;

  /** Creates an exception for {@code typeString} at {@code position}. */
  public TypeParseException(String typeString, int position, String expected) {
    super("cannot parse ClickHouse type \"" + typeString + "\" at position " + position + ": "
        + expected + (position < typeString.length()
            ? " (found '" + typeString.substring(position, Math.min(typeString.length(),
                position + 12)) + "')"
            : " (found end of text)"));
    this.typeString = typeString;
    this.position = position;
  }

  /** Returns the type string that failed. */
  public String typeString() {
    return typeString;
  }

  /** Returns the 0-based position where parsing failed. */
  public int position() {
    return position;
  }
}
