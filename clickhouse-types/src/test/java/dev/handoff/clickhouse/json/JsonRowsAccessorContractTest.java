package dev.handoff.clickhouse.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.tck.RowAccessorContract;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The TCK's RowAccessorContract for {@link JsonRows#accessor}: an object row read by name (with
 * an explicit null and a missing field), and an array row read by position, shorter than the
 * schema (its missing elements read as null).
 */
final class JsonRowsAccessorContractTest extends RowAccessorContract<JsonNode> {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static final TableSchema SCHEMA = TableSchema.of(new ColumnSpec("id", "Int32"),
      new ColumnSpec("big", "Int64"), new ColumnSpec("huge", "UInt128"),
      new ColumnSpec("ratio", "Float64"), new ColumnSpec("price", "Decimal(9, 3)"),
      new ColumnSpec("name", "String"), new ColumnSpec("flag", "Bool"),
      new ColumnSpec("none", "Nullable(String)"), new ColumnSpec("missing", "Nullable(String)"),
      new ColumnSpec("tags", "Array(Nullable(String))"), new ColumnSpec("obj", "Map(String, Int8)"),
      new ColumnSpec("data", "String"), new ColumnSpec("pojo", "String"));

  @Override
  protected RowAccessor<JsonNode> accessor() {
    return JsonRows.accessor(SCHEMA);
  }

  @Override
  protected List<Sample<JsonNode>> samples() {
    ObjectNode object = (ObjectNode) parse("{\"id\": 5, \"big\": 9007199254740993,"
        + " \"huge\": 1180591620717411303424, \"ratio\": 2.5, \"name\": \"h\u00e9llo\","
        + " \"flag\": true, \"none\": null, \"tags\": [1, null, \"x\", [2.5]],"
        + " \"obj\": {\"b\": 1, \"a\": null}}");
    object.set("price", DecimalNode.valueOf(new BigDecimal("12.340")));
    object.set("data", BinaryNode.valueOf(new byte[] {1, -1}));
    object.set("pojo", new POJONode(Optional.of(1)));
    List<Expected> objectColumns = List.of(Expected.ofLong(5), Expected.ofLong(9007199254740993L),
        Expected.ofBigInteger(new BigInteger("1180591620717411303424")), Expected.ofDouble(2.5),
        Expected.ofBigDecimal(new BigDecimal("12.340")), Expected.ofText("h\u00e9llo"),
        Expected.ofBoolean(true), Expected.ofNull(), Expected.ofNull(),
        Expected.sequence(Expected.ofLong(1), Expected.ofNull(), Expected.ofText("x"),
            Expected.sequence(Expected.ofDouble(2.5))),
        Expected.map(Expected.ofText("b"), Expected.ofLong(1), Expected.ofText("a"),
            Expected.ofNull()),
        Expected.ofBytes(new byte[] {1, -1}), Expected.ofObject(ValueKind.OTHER, Optional.of(1)));

    ArrayNode array = (ArrayNode) parse("[-1, null, -1180591620717411303424, -0.0, 1.5, \"\","
        + " false, \"text\", null, [], {}]");
    List<Expected> arrayColumns = new ArrayList<>(List.of(Expected.ofLong(-1), Expected.ofNull(),
        Expected.ofBigInteger(new BigInteger("-1180591620717411303424")),
        Expected.ofDouble(-0.0), Expected.ofDouble(1.5), Expected.ofText(""),
        Expected.ofBoolean(false), Expected.ofText("text"), Expected.ofNull(),
        Expected.sequence(), Expected.map()));
    while (arrayColumns.size() < SCHEMA.size()) {
      arrayColumns.add(Expected.ofNull()); // beyond the array's elements
    }
    return List.of(new Sample<>("object row", object, objectColumns),
        new Sample<>("array row", array, arrayColumns));
  }

  private static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
