package dev.handoff.encoders.clickhouse;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Providers;
import dev.handoff.tck.RowEncoderContract;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The TCK's RowEncoder contract for the {@code native} encoder, found by name through {@code
 * ServiceLoader}, with {@code Object[]} rows (the NativeProgram fast path) over a wide schema:
 * nullable, nested, map and LowCardinality columns, which each hold state a rejected row must not
 * change. {@link NativeListRowsEncoderContractTest} runs the same rows through the accessor path.
 */
class NativeEncoderContractTest extends RowEncoderContract<Object[]> {

  static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("id", "UInt64"),
      new ColumnSpec("name", "String"),
      new ColumnSpec("code", "FixedString(2)"),
      new ColumnSpec("price", "Decimal(18, 4)"),
      new ColumnSpec("ratio", "Nullable(Float64)"),
      new ColumnSpec("day", "Date"),
      new ColumnSpec("at", "DateTime('Asia/Tokyo')"),
      new ColumnSpec("uid", "UUID"),
      new ColumnSpec("state", "Enum8('on' = 1, 'off' = 0)"),
      new ColumnSpec("city", "LowCardinality(Nullable(String))"),
      new ColumnSpec("tags", "Array(Array(Int16))"),
      new ColumnSpec("pair", "Tuple(String, Nullable(UInt8))"),
      new ColumnSpec("attrs", "Map(String, Int64)"),
      new ColumnSpec("labels", "Array(LowCardinality(String))"));

  @Override
  protected boolean rowFormat() {
    return false; // Native holds the rows in columns until finishChunk writes the block
  }

  @Override
  protected RowEncoder<Object[]> newEncoder() {
    return Providers.encoder(NativeOptions.NAME)
        .create(SCHEMA, RowAccessors.objectArray(), Map.of());
  }

  static Object[] row(long id) {
    Map<String, Object> attrs = new LinkedHashMap<>();
    for (long j = 0; j < id % 3; j++) {
      attrs.put("k" + j, j * id);
    }
    return new Object[] {id, "name-" + id, "c" + (id % 10), new BigDecimal("12.3400"),
        id % 2 == 0 ? null : 0.5 * id, LocalDate.of(2024, 2, 28).plusDays(id),
        Instant.parse("2024-03-15T14:30:00Z").plusSeconds(id), new UUID(id, -id),
        id % 2 == 0 ? "on" : "off", id % 3 == 0 ? null : "city-" + (id % 2),
        List.of(List.of((int) id, -1), List.of()), Arrays.asList("p" + id, id % 2 == 0 ? null
            : (int) id), attrs, List.of("l" + id, "l0")};
  }

  /** Returns {@code row(id)} with column {@code column} set to {@code value}. */
  static Object[] with(long id, int column, Object value) {
    Object[] r = row(id);
    r[column] = value;
    return r;
  }

  @Override
  protected List<Object[]> goodRows() {
    Object[] empty = row(4);
    empty[1] = "";
    empty[10] = List.of();
    empty[13] = List.of();
    Object[] unicode = row(5);
    unicode[1] = "d\u00e9j\u00e0 vu \uD83D\uDE00".repeat(20);
    return List.of(row(1), row(2), row(3), empty, unicode);
  }

  @Override
  protected List<BadRow<Object[]>> badRows() {
    Map<String, Object> badValue = new LinkedHashMap<>();
    badValue.put("ok", 1L);
    badValue.put("bad", "x"); // the key is appended before the value fails
    HashMap<String, Object> nullKey = new HashMap<>();
    nullKey.put(null, 1L);
    List<BadRow<Object[]>> bad = new ArrayList<>();
    bad.add(BadRow.of(with(6, 0, -1), "id", "-1", "out of range"));
    bad.add(BadRow.of(with(7, 1, null), "name", "null", "null into a non-Nullable column"));
    bad.add(BadRow.of(with(8, 2, "abc"), "code", "abc", "do not fit FixedString(2)"));
    bad.add(BadRow.of(with(9, 4, "half"), "ratio", "half", "is not a number"));
    bad.add(BadRow.of(with(10, 8, "maybe"), "state", "maybe", "not a declared enum name"));
    bad.add(BadRow.of(with(11, 10, List.of(List.of(1, 2), List.of(3, 70000))), "tags[][]",
        "70000", "out of range -32768..32767"));
    bad.add(BadRow.of(with(12, 11, Arrays.asList("p", 300)), "pair.2", "300",
        "out of range 0..255"));
    bad.add(BadRow.of(with(13, 12, badValue), "attrs.value", "x", "is not a number"));
    bad.add(BadRow.of(with(14, 12, nullKey), "attrs", "null", "a map key is null"));
    // A null after two new dictionary entries: the LowCardinality column must drop both.
    bad.add(BadRow.of(with(15, 13, Arrays.asList("new-1", "new-2", null)), "labels[]", "null",
        "null into a non-Nullable column"));
    // A row one column short fails in its last column, after every other column took a value.
    bad.add(BadRow.of(Arrays.copyOf(row(16), 13), "labels", "<unreadable",
        "could not be read"));
    return bad;
  }
}
