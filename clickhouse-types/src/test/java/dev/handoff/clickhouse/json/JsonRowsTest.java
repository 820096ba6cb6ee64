package dev.handoff.clickhouse.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.Walk;
import dev.handoff.clickhouse.row.Walk.Bytes;
import dev.handoff.clickhouse.row.Walk.Pairs;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

final class JsonRowsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static TableSchema schema(String... names) {
    return new TableSchema(Arrays.stream(names).map(n -> new ColumnSpec(n, "String")).toList());
  }

  private static final TableSchema PARSED = schema("nul", "missing", "yes", "int", "long", "big",
      "dbl", "exp", "text", "arr", "obj", "empty");

  private static final String LINE = "{\"nul\":null,\"yes\":true,\"int\":-42,"
      + "\"long\":12345678901,\"big\":123456789012345678901234567890,\"dbl\":2.5,"
      + "\"exp\":1e3,\"text\":\"h\\u00e9llo\",\"arr\":[1,\"a\",[2,[3.5,null]]],"
      + "\"obj\":{\"k\":{\"x\":[1,2]},\"e\":{}},\"empty\":[]}";

  @Test
  void parsedRow_readsEveryKindJacksonProduces() throws IOException {
    JsonNode row = MAPPER.readTree(LINE);
    RowAccessor<JsonNode> acc = JsonRows.accessor(PARSED);

    assertThat(Walk.kinds(acc, row, 12)).containsExactly(ValueKind.NULL, ValueKind.NULL,
        ValueKind.BOOLEAN, ValueKind.LONG, ValueKind.LONG, ValueKind.BIG_INTEGER, ValueKind.DOUBLE,
        ValueKind.DOUBLE, ValueKind.TEXT, ValueKind.SEQUENCE, ValueKind.MAP, ValueKind.SEQUENCE);
    assertThat(Walk.row(acc, row, 12)).containsExactly(null, null, true, -42L, 12345678901L,
        new BigInteger("123456789012345678901234567890"), 2.5, 1000.0, "héllo",
        List.of(1L, "a", List.of(2L, Arrays.asList(3.5, null))),
        Pairs.of("k", Pairs.of("x", List.of(1L, 2L)), "e", Pairs.of()), List.of());
    assertThat(acc.size(row)).isEqualTo(12);
  }

  @Test
  void getText_returnsTheNodesOwnString() throws IOException {
    JsonNode row = MAPPER.readTree(LINE);
    RowAccessor<JsonNode> acc = JsonRows.accessor(PARSED);

    assertThat(acc.getText(row, 8)).isSameAs(row.get("text").textValue());
    assertThat(acc.getObject(row, 8)).isSameAs(row.get("text").textValue());
  }

  @Test
  void getObject_givesJavaValuesArraysAsNodesAndObjectsFlattened() throws IOException {
    JsonNode row = MAPPER.readTree(LINE);
    RowAccessor<JsonNode> acc = JsonRows.accessor(PARSED);

    assertThat(acc.getObject(row, 0)).isNull();
    assertThat(acc.getObject(row, 2)).isEqualTo(true);
    assertThat(acc.getObject(row, 3)).isEqualTo(-42);
    assertThat(acc.getObject(row, 6)).isEqualTo(2.5);
    assertThat(acc.getObject(row, 9)).isSameAs(row.get("arr"));
    Object[] flat = (Object[]) acc.getObject(row, 10);
    assertThat(flat).hasSize(4);
    assertThat(flat[0]).isEqualTo("k");
    assertThat(flat[1]).isSameAs(row.get("obj").get("k"));
    assertThat(flat[2]).isEqualTo("e");
  }

  @Test
  void bigDecimalsForFloats_readAsExactBigDecimals() throws IOException {
    ObjectMapper exact = new ObjectMapper()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    JsonNode row = exact.readTree("{\"price\":0.1,\"list\":[1.10, 2]}");
    RowAccessor<JsonNode> acc = JsonRows.accessor(schema("price", "list"));

    assertThat(acc.kind(row, 0)).isEqualTo(ValueKind.BIG_DECIMAL);
    assertThat(acc.getBigDecimal(row, 0)).isEqualByComparingTo("0.1");
    Object list = acc.getObject(row, 1);
    RowAccessor<Object> n = acc.nested(row, 1);
    assertThat(n.kind(list, 0)).isEqualTo(ValueKind.BIG_DECIMAL);
    assertThat(n.getBigDecimal(list, 0)).isEqualByComparingTo("1.1");
    assertThat(n.kind(list, 1)).isEqualTo(ValueKind.LONG);
  }

  @Test
  void nodesBuiltInCode_coverTheRemainingKinds() throws IOException {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode row = f.objectNode();
    UUID pojo = UUID.randomUUID();
    row.set("short", ShortNode.valueOf((short) -7));
    row.set("float", FloatNode.valueOf(1.5f));
    row.set("bin", BinaryNode.valueOf(new byte[] {1, 2, 3}));
    row.putPOJO("pojo", pojo);
    row.set("gone", MissingNode.getInstance());
    row.put("dec", new BigDecimal("12.50"));
    row.put("bigint", BigInteger.ONE);
    row.put("no", false);
    row.putNull("nul");
    RowAccessor<JsonNode> acc = JsonRows.accessor(
        schema("short", "float", "bin", "pojo", "gone", "dec", "bigint", "no", "nul"));

    assertThat(Walk.kinds(acc, row, 9)).containsExactly(ValueKind.LONG, ValueKind.DOUBLE,
        ValueKind.BYTES, ValueKind.OTHER, ValueKind.NULL, ValueKind.BIG_DECIMAL,
        ValueKind.BIG_INTEGER, ValueKind.BOOLEAN, ValueKind.NULL);
    assertThat(Walk.row(acc, row, 9)).containsExactly(-7L, 1.5, Bytes.of((byte) 1, (byte) 2,
        (byte) 3), pojo, null, new BigDecimal("12.50"), BigInteger.ONE, false, null);
    assertThat(acc.getBytes(row, 2)).isSameAs(row.get("bin").binaryValue());
  }

  @Test
  void nestedToDepthThree_throughOneSharedAccessor() throws IOException {
    JsonNode row = MAPPER.readTree("{\"a\":[[[1,2],[]],[[3]]],"
        + "\"m\":{\"x\":[{\"k\":[1,null]}],\"y\":{\"z\":{\"w\":\"deep\"}}},"
        + "\"t\":[1,\"s\",[2.5,[true,false]]]}");
    RowAccessor<JsonNode> acc = JsonRows.accessor(schema("a", "m", "t"));

    assertThat(Walk.row(acc, row, 3)).containsExactly(
        List.of(List.of(List.of(1L, 2L), List.of()), List.of(List.of(3L))),
        Pairs.of("x", List.of(Pairs.of("k", Arrays.asList(1L, null))),
            "y", Pairs.of("z", Pairs.of("w", "deep"))),
        List.of(1L, "s", List.of(2.5, List.of(true, false))));
    assertThat(acc.nested(row, 0)).isSameAs(acc.nested(row, 1));
  }

  @Test
  void objectNodeHandedInDirectly_readsAsNameValuePairs() throws IOException {
    JsonNode obj = MAPPER.readTree("{\"b\":1,\"a\":\"x\"}");
    RowAccessor<Object> n = JsonRows.accessor(schema("c")).nested(obj, 0);

    assertThat(n.size(obj)).isEqualTo(4);
    assertThat(n.kind(obj, 0)).isEqualTo(ValueKind.TEXT);
    assertThat(n.getText(obj, 0).toString()).isEqualTo("b");
    assertThat(n.getLong(obj, 1)).isEqualTo(1L);
    assertThat(n.getText(obj, 3).toString()).isEqualTo("x");
    assertThatThrownBy(() -> n.kind(obj, 4)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> n.getLong(obj, 0)).isInstanceOf(ClassCastException.class)
        .hasMessageContaining("field name");
  }

  @Test
  void arrayRows_readByPositionAndOtherRowsAreRejected() throws IOException {
    RowAccessor<JsonNode> acc = JsonRows.accessor(schema("a", "b", "c"));
    JsonNode row = MAPPER.readTree("[7,\"x\"]");

    assertThat(Walk.row(acc, row, 3)).containsExactly(7L, "x", null);
    assertThatThrownBy(() -> acc.kind(row, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> acc.kind(TextNode.valueOf("x"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be an object or an array, not STRING");
  }

  @Test
  void mismatchedGetter_failsInsteadOfReturningJacksonsDefault() throws IOException {
    JsonNode row = MAPPER.readTree("{\"s\":\"12\",\"n\":12}");
    RowAccessor<JsonNode> acc = JsonRows.accessor(schema("s", "n", "missing"));

    assertThatThrownBy(() -> acc.getLong(row, 0)).isInstanceOf(ClassCastException.class)
        .hasMessage("JSON STRING is not a number");
    assertThatThrownBy(() -> acc.getText(row, 1)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> acc.getBoolean(row, 1)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> acc.getLong(row, 2)).isInstanceOf(ClassCastException.class)
        .hasMessage("a missing value is not a number");
  }

  @Test
  void jsonLines_readRowByRowWithOneAccessor() throws IOException {
    String lines = "{\"id\":1,\"name\":\"a\"}\n{\"id\":2}\n{\"id\":3,\"name\":null}\n";
    RowAccessor<JsonNode> acc = JsonRows.accessor(schema("id", "name"));
    List<List<Object>> rows = new ArrayList<>();
    try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(lines)) {
      while (it.hasNext()) {
        rows.add(Walk.row(acc, it.next(), 2));
      }
    }

    assertThat(rows).containsExactly(List.of(1L, "a"), Arrays.asList(2L, null),
        Arrays.asList(3L, null));
  }

  @Test
  void testsRunOnTheModulePathWithJacksonAsANamedModule() {
    assertThat(JsonRows.class.getModule().getName()).isEqualTo("dev.handoff.clickhouse.types");
    assertThat(JsonRowsTest.class.getModule()).isSameAs(JsonRows.class.getModule());
    assertThat(JsonNode.class.getModule().getName()).isEqualTo("com.fasterxml.jackson.databind");
  }
}
