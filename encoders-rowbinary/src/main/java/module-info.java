/**
 * The {@code rowbinary} encoder: rows in ClickHouse's RowBinary format, for {@code INSERT ...
 * FORMAT RowBinary} (or {@code RowBinaryWithNamesAndTypes} with the {@code header} option).
 *
 * <p>Found through {@link java.util.ServiceLoader} as a {@link
 * dev.handoff.api.spi.RowEncoderProvider} named {@code rowbinary}. Options ({@link
 * dev.handoff.encoders.rowbinary.RowBinaryOptions}):
 *
 * <ul>
 *   <li>{@code header}: {@code none} (default), {@code names-and-types}, which starts every
 *       frame with the RowBinaryWithNamesAndTypes header (modern servers only; each type as the
 *       server's canonical name of the parsed type), or {@code names-and-binary-types}, the same
 *       header with the types in ClickHouse's binary type encoding.
 * </ul>
 */
module dev.handoff.encoders.rowbinary {
  requires transitive dev.handoff.api;
  requires dev.handoff.clickhouse.types;

  exports dev.handoff.encoders.rowbinary;

  provides dev.handoff.api.spi.RowEncoderProvider with
      dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
}
