package dev.handoff.clickhouse.row;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.tck.RowAccessorContract;
import java.lang.invoke.MethodHandles;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The TCK's RowAccessorContract for {@link RowAccessors#records}: primitive and boxed components,
 * columns in another order than the components.
 */
final class RecordAccessorContractTest
    extends RowAccessorContract<RecordAccessorContractTest.Order> {

  /** A row type: primitives (read without boxing), boxes, text, containers. */
  record Order(long id, Integer count, boolean flag, double ratio, String name, BigDecimal price,
      List<String> tags, Map<String, Long> attrs, Instant at, byte[] data) {}

  static final TableSchema SCHEMA = TableSchema.of(new ColumnSpec("name", "String"),
      new ColumnSpec("id", "UInt64"), new ColumnSpec("count", "Nullable(Int32)"),
      new ColumnSpec("flag", "Bool"), new ColumnSpec("ratio", "Float64"),
      new ColumnSpec("price", "Decimal(9, 2)"), new ColumnSpec("tags", "Array(String)"),
      new ColumnSpec("attrs", "Map(String, Int64)"), new ColumnSpec("at", "DateTime"),
      new ColumnSpec("data", "String"));

  @Override
  protected RowAccessor<Order> accessor() {
    return RowAccessors.records(Order.class, SCHEMA, MethodHandles.lookup());
  }

  @Override
  protected List<Sample<Order>> samples() {
    Instant at = Instant.parse("2024-03-15T14:30:00Z");
    Map<String, Long> attrs = new LinkedHashMap<>();
    attrs.put("x", 1L);
    attrs.put("y", null);
    Order full = new Order(42, 7, true, -0.0, "first", new BigDecimal("1.50"), List.of("a", "b"),
        attrs, at, new byte[] {9});
    Order sparse = new Order(-1, null, false, Double.MAX_VALUE, null, null, List.of(), Map.of(),
        null, new byte[0]);
    return List.of(
        new Sample<>("full", full, List.of(Expected.ofText("first"), Expected.ofLong(42),
            Expected.ofLong(7), Expected.ofBoolean(true), Expected.ofDouble(-0.0),
            Expected.ofBigDecimal(new BigDecimal("1.50")),
            Expected.sequence(Expected.ofText("a"), Expected.ofText("b")),
            Expected.map(Expected.ofText("x"), Expected.ofLong(1), Expected.ofText("y"),
                Expected.ofNull()),
            Expected.ofObject(ValueKind.TEMPORAL, at), Expected.ofBytes(new byte[] {9}))),
        new Sample<>("sparse", sparse, List.of(Expected.ofNull(), Expected.ofLong(-1),
            Expected.ofNull(), Expected.ofBoolean(false), Expected.ofDouble(Double.MAX_VALUE),
            Expected.ofNull(), Expected.sequence(), Expected.map(), Expected.ofNull(),
            Expected.ofBytes(new byte[0]))));
  }
}
