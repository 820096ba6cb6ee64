/**
 * The {@code native} encoder: rows buffered in columns and written as ClickHouse
 * Native blocks, for {@code INSERT ... FORMAT Native}.
 *
 * <p>Found through {@link java.util.ServiceLoader} as a {@link
 * dev.handoff.api.spi.RowEncoderProvider} named {@code native} ({@link
 * dev.handoff.encoders.clickhouse.NativeOptions#NAME}). It has no options yet.
 */
module dev.handoff.encoders.clickhouse {
  requires transitive dev.handoff.api;
  requires dev.handoff.clickhouse.types;

  exports dev.handoff.encoders.clickhouse;

  // The rowbinary encoder writes the values of a JSON column's shared data (SharedValues).
  uses dev.handoff.api.spi.RowEncoderProvider;

  provides dev.handoff.api.spi.RowEncoderProvider with
      dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
}
