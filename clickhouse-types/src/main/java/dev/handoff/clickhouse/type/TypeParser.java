package dev.handoff.clickhouse.type;

/** Parses ClickHouse type strings; see {@link ClickHouseType#parse}. */
final class TypeParser {
  private final String text;
  private int pos;

  TypeParser(String text) {
    this.text = text;
  }

  ClickHouseType parseWhole() {
    throw new TypeParseException(text, pos, "not implemented yet");
  }
}
