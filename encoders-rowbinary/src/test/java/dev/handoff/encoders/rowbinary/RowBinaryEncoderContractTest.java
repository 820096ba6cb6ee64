package dev.handoff.encoders.rowbinary;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.tck.RowEncoderContract;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The TCK's RowEncoder contract for {@code rowbinary} without a header, Object[] rows (the
 * RowProgram fast path), wide schema.
 */
final class RowBinaryEncoderContractTest extends RowEncoderContract<Object[]> {

  static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("id", "UInt64"),
      new ColumnSpec("name", "String"),
      new ColumnSpec("code", "FixedString(3)"),
      new ColumnSpec("price", "Decimal(18, 4)"),
      new ColumnSpec("big", "Int256"),
      new ColumnSpec("ratio", "Nullable(Float32)"),
      new ColumnSpec("day", "Date32"),
      new ColumnSpec("at", "DateTime64(6, 'Asia/Tokyo')"),
      new ColumnSpec("uid", "UUID"),
      new ColumnSpec("ip", "IPv6"),
      new ColumnSpec("state", "Enum8('on' = 1, 'off' = 0)"),
      new ColumnSpec("city", "LowCardinality(Nullable(String))"),
      new ColumnSpec("tags", "Array(Array(String))"),
      new ColumnSpec("point", "Tuple(x Float64, y Float64)"),
      new ColumnSpec("attrs", "Map(String, Nullable(Int32))"),
      new ColumnSpec("n", "Nested(a UInt8, b String)"));

  @Override
  protected boolean rowFormat() {
    return true;
  }

  @Override
  protected RowEncoder<Object[]> newEncoder() {
    return new RowBinaryEncoderProvider().create(SCHEMA, RowAccessors.objectArray(), Map.of());
  }

  static Object[] row(long id, Object name, Object tags, Object attrs) {
    return new Object[] {id, name, "ab", new BigDecimal("12.3400"),
        BigInteger.TWO.pow(200).negate(), id % 2 == 0 ? null : 0.5f,
        LocalDate.of(1950, 1, 1).plusDays(id), Instant.parse("2024-03-15T14:30:00.123456Z"),
        new UUID(id, -id), "2001:db8::" + id, id % 2 == 0 ? "on" : "off",
        id % 3 == 0 ? null : "city-" + id, tags, new double[] {1.5, -id},
        attrs, List.of(List.of(1, "x"), List.of(2, "y"))};
  }

  @Override
  protected List<Object[]> goodRows() {
    return List.of(
        row(1, "first", List.of(List.of("a"), List.of()), Map.of("k", 1)),
        row(2, "", List.of(), Map.of()),
        row(3, "d\u00e9j\u00e0 vu \uD83D\uDE00", List.of(List.of("b", "c")),
            Map.of("null", "7")),
        row(4, "x".repeat(300), List.of(List.of(), List.of("d")), Map.of("a", -1, "b", 2)));
  }

  @Override
  protected List<BadRow<Object[]>> badRows() {
    Object[] nullKeyMap = row(5, "k", List.of(), null);
    HashMap<String, Integer> m = new HashMap<>();
    m.put(null, 1);
    nullKeyMap[14] = m;
    Object[] badNested = row(6, "n", List.of(), Map.of());
    badNested[15] = List.of(List.of(300, "x")); // UInt8 out of range, in the last column
    Object[] shallow = row(7, "s", List.of("not-an-array"), Map.of());
    Object[] badEnum = row(8, "e", List.of(), Map.of());
    badEnum[10] = "maybe";
    return List.of(
        BadRow.of(row(9, null, List.of(), Map.of()), "name", "null",
            "null into a non-Nullable column"),
        BadRow.of(shallow, "tags", "not-an-array",
            "expected a list or an array"),
        BadRow.of(nullKeyMap, "attrs", "null", "a map key is null"),
        BadRow.of(badNested, "n[].a", "300", "out of range 0..255"),
        BadRow.of(badEnum, "state", "maybe", "not a declared enum name"),
        BadRow.of(Arrays.copyOf(row(10, "short", List.of(), Map.of()), 15), "n",
            "<unreadable", "could not be read"));
  }
}
