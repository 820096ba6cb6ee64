package dev.handoff.encoders.rowbinary;

import static dev.handoff.encoders.testsupport.Golden.assertSameBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.value.TypedValue;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.GoldenFiles;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reproduces the Variant, Dynamic and JSON cases of the ClickHouse 26.7 golden set
 * ({@code golden/clickhouse-26.7}, copied from {@code ../shared/golden/clickhouse-26.7}) byte for
 * byte from Java values: the values the engine listed, in the order its RowBinary lists JSON paths
 * (the order of a JSON value's paths is not canonical; the engine takes any).
 */
final class VariantDynamicJsonGoldenTest {
  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> VariantDynamicJsonGoldenTest.class.getResourceAsStream(path));

  static byte[] encode(String type, Object... values) {
    RowEncoder<Object[]> e = new RowBinaryEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(),
        Map.of());
    ChunkBuffer b = new ChunkBuffer(64);
    for (Object v : values) {
      e.encode(new Object[] {v}, b);
    }
    return b.toByteArray();
  }

  private static void golden(String name, String type, Object... values) {
    assertSameBytes(name, FILES.bytes("clickhouse-26.7/" + name + ".rowbinary.bin"),
        encode(type, values));
  }

  /** A map with its entries in the order given. */
  static Map<String, Object> obj(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void variant() {
    golden("variant", "Variant(String, UInt64, Array(UInt64))",
        "a", 42L, List.of(1L, 2L), null, "");
  }

  @Test
  void variantInArray() {
    golden("variant_nested", "Array(Variant(Int32, String))",
        Arrays.asList(1, "x", null), List.of(), Arrays.asList((Object) null));
  }

  @Test
  void lowCardinalityInVariant() {
    golden("lc_in_variant", "Variant(LowCardinality(String), UInt8)", "a", 7, null);
  }

  @Test
  void dynamic() {
    Object[] values = {TypedValue.of("UInt8", 42), "str", List.of(1L, 2L), null, 3.5,
        TypedValue.of("Date", LocalDate.of(2026, 1, 1)),
        TypedValue.of("Map(String, UInt32)", Map.of("k", 1)),
        TypedValue.of("Tuple(Int8, String)", List.of(1, "a")), -7L};
    golden("dynamic", "Dynamic", values);
  }

  @Test
  void dynamicWithMaxTypes() {
    golden("dynamic_max2", "Dynamic(max_types=2)", TypedValue.of("UInt8", 1), "a", 2.5,
        TypedValue.of("Date", LocalDate.of(2020, 2, 2)), null, "b");
  }

  @Test
  void json() {
    golden("json", "JSON", obj("b", obj("c", "x"), "a", 1),
        obj("a", List.of(1, 2), "d", null), obj(),
        obj("e", 1.5, "a", "str"), obj("b", obj("f", List.of(obj("g", 1)), "c", "y")));
  }

  @Test
  void json_asTextAndJsonNodes_sameBytes() throws Exception {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    String[] text = {"{\"b\":{\"c\":\"x\"},\"a\":1}", "{\"a\":[1,2],\"d\":null}", "{}",
        "{\"e\":1.5,\"a\":\"str\"}", "{\"b\":{\"f\":[{\"g\":1}],\"c\":\"y\"}}"};
    golden("json", "JSON", (Object[]) text);
    Object[] nodes = new Object[text.length];
    for (int i = 0; i < text.length; i++) {
      nodes[i] = mapper.readTree(text[i]);
    }
    golden("json", "JSON", nodes);
  }

  @Test
  void json_fromJsonRows_sameBytes() throws Exception {
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("v", "JSON")));
    RowEncoder<com.fasterxml.jackson.databind.JsonNode> e = new RowBinaryEncoderProvider()
        .create(schema, dev.handoff.clickhouse.json.JsonRows.accessor(schema), Map.of());
    ChunkBuffer b = new ChunkBuffer(64);
    for (String row : new String[] {"{\"v\":{\"b\":{\"c\":\"x\"},\"a\":1}}",
        "{\"v\":{\"a\":[1,2],\"d\":null}}", "{\"v\":{}}",
        "{\"v\":{\"e\":1.5,\"a\":\"str\"}}",
        "{\"v\":{\"b\":{\"f\":[{\"g\":1}],\"c\":\"y\"}}}"}) {
      e.encode(mapper.readTree(row), b);
    }
    assertSameBytes("json", FILES.bytes("clickhouse-26.7/json.rowbinary.bin"), b.toByteArray());
  }

  @Test
  void jsonWithTypedPaths() {
    golden("json_typed", "JSON(a UInt32, `b.c` String)",
        obj("b", obj("c", "x"), "a", 1, "z", true), obj("b.c", "", "a", 7),
        obj("b", obj("c", "q"), "a", 0, "n", List.of(1, 2, 3)), obj("b.c", "", "a", 0));
  }

  @Test
  void jsonWithMaxDynamicPaths() {
    golden("json_max_paths", "JSON(max_dynamic_paths=2)", obj("b", 2, "a", 1, "c", 3),
        obj("a", 5, "d", "x"), obj("e", List.of(1)));
  }

  @Test
  void arrayOfJson() {
    golden("array_json", "Array(JSON)", List.of(obj("a", 1), obj("b", "x")), List.of());
  }

  @Test
  void errors_nameTheColumnTheValueAndWhy() {
    assertThatThrownBy(() -> encode("Variant(Int32, Int64)", (short) 1))
        .isInstanceOf(HandoffException.class)
        .hasMessageContaining("column \"v\"")
        .hasMessageContaining("fits several of the Variant's types (Int32, Int64)");
    assertThatThrownBy(() -> encode("Variant(Int32, String)", 1.5))
        .hasMessageContaining("fits none of the Variant's types");
    assertThatThrownBy(() -> encode("Variant(Int32, String)", TypedValue.of("UInt8", 1)))
        .hasMessageContaining("names the type UInt8, which is not one of the Variant's types");
    assertThatThrownBy(() -> encode("Dynamic", new Object()))
        .hasMessageContaining("wrap it in a TypedValue");
    assertThatThrownBy(() -> encode("JSON", "[1]"))
        .hasMessageContaining("is not a JSON object");
    assertThatThrownBy(() -> encode("JSON", "{\"a\":"))
        .hasMessageContaining("not JSON: expected a value at offset 5");
    assertThatThrownBy(() -> encode("JSON", obj("a.b", 1, "a", obj("b", 2))))
        .hasMessageContaining("has the path 'a.b' twice");
    assertThatThrownBy(() -> encode("JSON", 5L))
        .hasMessageContaining("is not a JSON object (a Map, a JsonNode or JSON text)");
    assertThatThrownBy(() -> encode("Nullable(Variant(Int8, String))", 1))
        .hasMessageContaining("cannot be inside Nullable (the server refuses it");
  }

  @Test
  void variant_picksByJavaClassWhenSeveralTypesTakeTheKind() {
    assertThat(encode("Variant(Int32, Int64)", 5L))
        .containsExactly(1, 5, 0, 0, 0, 0, 0, 0, 0);
    assertThat(encode("Variant(Int32, Int64)", 5))
        .containsExactly(0, 5, 0, 0, 0);
    assertThat(encode("Variant(Int32, Int64)", TypedValue.of("Int64", 5)))
        .containsExactly(1, 5, 0, 0, 0, 0, 0, 0, 0);
  }
}
