package dev.handoff.clickhouse.type;

/**
 * A type string that is not a ClickHouse type handoff understands. The message gives the type
 * string, the position (0-based) and what was expected there; for a type that is well formed but
 * refused it starts with {@code unsupported type} (a server type handoff does not write, with the
 * server version that introduced it) or {@code unknown type}, and names the whole type.
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

  private TypeParseException(String typeString, int position, String message, boolean refused) {
    super(message);
    this.typeString = typeString;
    this.position = position;
  }

  /**
   * Returns the exception for a type the model refuses although it reads it (an unsupported
   * server type, or an unknown name): {@code message} says which and names the whole type, and
   * the type string and position follow it.
   */
  static TypeParseException refused(String typeString, int position, String message) {
    return new TypeParseException(typeString, position,
        message + " (in \"" + typeString + "\" at position " + position + ")", true);
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
