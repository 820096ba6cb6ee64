package dev.handoff.clickhouse.sink;

/**
 * The ClickHouse input format of a sink: it names both the encoder that writes the rows and the
 * {@code FORMAT} of the INSERT that sends them, so the two can never disagree.
 */
public enum InsertFormat {
  /** ClickHouse Native: rows buffered in columns and sent as blocks (the {@code native} encoder). */
  NATIVE("native", "Native"),
  /** ClickHouse RowBinary: rows written one after another (the {@code rowbinary} encoder). */
  ROW_BINARY("rowbinary", "RowBinary");

  private final String encoderName;
  private final String clickHouseName;

  InsertFormat(String encoderName, String clickHouseName) {
    this.encoderName = encoderName;
    this.clickHouseName = clickHouseName;
  }

  /** Returns the name of the encoder provider, as {@code Providers.encoder} finds it. */
  public String encoderName() {
    return encoderName;
  }

  /** Returns the format as ClickHouse spells it in {@code INSERT ... FORMAT}. */
  public String clickHouseName() {
    return clickHouseName;
  }
}
