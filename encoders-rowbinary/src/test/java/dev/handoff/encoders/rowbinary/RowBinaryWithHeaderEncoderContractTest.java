package dev.handoff.encoders.rowbinary;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.tck.RowEncoderContract;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The TCK's RowEncoder contract for {@code rowbinary} with the names-and-types header (written by
 * the first row of every frame), rows as {@code Map<String, ?>} read by column name.
 */
final class RowBinaryWithHeaderEncoderContractTest
    extends RowEncoderContract<Map<String, ?>> {

  static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("id", "UInt32"),
      new ColumnSpec("m", "Map(String, UInt64)"),
      new ColumnSpec("ip", "Nullable(IPv4)"),
      new ColumnSpec("t", "DateTime('Europe/Berlin')"));

  @Override
  protected boolean rowFormat() {
    return true;
  }

  @Override
  protected RowEncoder<Map<String, ?>> newEncoder() {
    return new RowBinaryEncoderProvider().create(SCHEMA, RowAccessors.map(SCHEMA),
        Map.of(RowBinaryOptions.HEADER, RowBinaryOptions.HEADER_NAMES_AND_TYPES));
  }

  @Override
  protected List<Map<String, ?>> goodRows() {
    return List.of(
        Map.of("id", 1, "m", Map.of("a", 1), "ip", "10.0.0.1", "t", "2024-03-15 14:30:00"),
        Map.of("id", 2, "m", Map.of(), "t", 0L), // ip missing: NULL
        Map.of("id", 3, "m", Map.of("b", "18446744073709551615"), "ip", "127.0.0.1",
            "t", "2024-03-31T02:30:00")); // in Berlin's DST gap
  }

  @Override
  protected List<BadRow<Map<String, ?>>> badRows() {
    Map<String, Object> nullKey = new HashMap<>();
    nullKey.put(null, 1);
    return List.of(
        BadRow.of(Map.of("id", -1, "m", Map.of(), "t", 0L), "id", "-1",
            "out of range 0..4294967295"),
        BadRow.of(Map.of("id", 4, "m", Map.of("a", -1), "t", 0L), "m.value", "-1",
            "out of range"),
        BadRow.of(Map.of("id", 5, "m", nullKey, "t", 0L), "m", "null", "a map key is null"),
        BadRow.of(Map.of("id", 6, "m", Map.of(), "ip", "::1", "t", 0L), "ip", "::1",
            "not an IPv4 address"),
        BadRow.of(Map.of("id", 7, "m", Map.of(), "t", "1969-12-31 23:59:59Z"), "t",
            "1969-12-31 23:59:59Z", "out of range"),
        BadRow.of(Map.of("id", 8, "m", Map.of()), "t", "null",
            "null into a non-Nullable column"));
  }
}
