package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.testsupport.Golden.assertSameBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.clickhouse.value.TypedValue;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.GoldenFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Native Variant, Dynamic and JSON against the ClickHouse 26.7 golden set ({@code
 * golden/clickhouse-26.7}) and the 26.7 engine (libchdb): Variant blocks byte for byte; Dynamic
 * and JSON blocks (whose layout the engine chooses: it lists the types and paths it keeps) are
 * inserted into a table of the column's type and must re-select exactly the engine's own values
 * of the golden case ({@code toJSONString} of each row, and each Dynamic's type).
 */
final class NativeVariantDynamicJsonTest {
  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> NativeVariantDynamicJsonTest.class.getResourceAsStream(path));
  private static ChdbSession engine;
  private static int tables;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  static byte[] encode(String type, Object... values) {
    RowEncoder<Object[]> e = new NativeEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(),
        Map.of());
    ChunkBuffer b = new ChunkBuffer(64);
    for (Object v : values) {
      e.encode(new Object[] {v}, b);
    }
    int expected = e.bufferedBytes();
    e.finishChunk(b);
    assertThat(b.length()).as("bufferedBytes() before finishChunk").isEqualTo(expected);
    return b.toByteArray();
  }

  static Map<String, Object> obj(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  /** Inserts {@code native} into a new table of {@code type}; returns the rows as JSON text. */
  static String insertAndSelect(String type, byte[] nativeBlock, String what) {
    String t = "t" + tables++;
    engine.execute("CREATE TABLE " + t + " (n UInt32 DEFAULT rowNumberInAllBlocks(), v " + type
        + ") ENGINE = MergeTree ORDER BY n");
    Path file = engine.writeFile(t + ".bin", nativeBlock);
    engine.execute("INSERT INTO " + t + " (v) FROM INFILE " + Chdb.literal(file.toString())
        + " FORMAT Native");
    return engine.queryText("SELECT " + what + " FROM " + t + " ORDER BY n", "TSVRaw");
  }

  /** The engine's own rows of a golden case, selected the same way. */
  static String goldenSelect(String name, String type, String what) {
    return insertAndSelect(type, FILES.bytes("clickhouse-26.7/" + name + ".native.bin"), what);
  }

  private static void sameAsGolden(String name, String type, String what, Object... values) {
    byte[] ours = encode(type, values);
    assertThat(insertAndSelect(type, ours, what))
        .isEqualTo(goldenSelect(name, type, what));
  }

  @Test
  void variant_byteForByte() {
    assertSameBytes("variant", FILES.bytes("clickhouse-26.7/variant.native.bin"),
        encode("Variant(Array(UInt64), String, UInt64)", "a", 42L, List.of(1L, 2L), null, ""));
    assertSameBytes("variant_nested",
        FILES.bytes("clickhouse-26.7/variant_nested.native.bin"),
        encode("Array(Variant(Int32, String))", Arrays.asList(1, "x", null), List.of(),
            Arrays.asList((Object) null)));
    assertSameBytes("lc_in_variant", FILES.bytes("clickhouse-26.7/lc_in_variant.native.bin"),
        encode("Variant(LowCardinality(String), UInt8)", "a", 7, null));
  }

  @Test
  void dynamic_byteForByte() {
    assertSameBytes("dynamic", FILES.bytes("clickhouse-26.7/dynamic.native.bin"),
        encode("Dynamic", dynamicValues()));
  }

  private static Object[] dynamicValues() {
    return new Object[] {TypedValue.of("UInt8", 42), "str", List.of(1L, 2L), null, 3.5,
        TypedValue.of("Date", LocalDate.of(2026, 1, 1)),
        TypedValue.of("Map(String, UInt32)", Map.of("k", 1)),
        TypedValue.of("Tuple(Int8, String)", List.of(1, "a")), -7L};
  }

  @Test
  void dynamic_insertedEqualsTheEnginesOwn() {
    sameAsGolden("dynamic", "Dynamic", "toJSONString(v), dynamicType(v)", dynamicValues());
    sameAsGolden("dynamic_max2", "Dynamic(max_types=2)", "toJSONString(v), dynamicType(v)",
        TypedValue.of("UInt8", 1), "a", 2.5, TypedValue.of("Date", LocalDate.of(2020, 2, 2)),
        null, "b");
  }

  @Test
  void json_insertedEqualsTheEnginesOwn() {
    sameAsGolden("json", "JSON", "toJSONString(v), toJSONString(JSONAllPathsWithTypes(v))",
        obj("a", 1, "b", obj("c", "x")), obj("a", List.of(1, 2), "d", null), obj(),
        obj("a", "str", "e", 1.5), obj("b", obj("c", "y", "f", List.of(obj("g", 1)))));
    sameAsGolden("json_typed", "JSON(a UInt32, `b.c` String)",
        "toJSONString(v), toJSONString(JSONAllPathsWithTypes(v))",
        obj("a", 1, "b", obj("c", "x"), "z", true), obj("a", 7),
        obj("b", obj("c", "q"), "n", List.of(1, 2, 3)), obj());
    sameAsGolden("json_max_paths", "JSON(max_dynamic_paths=2)",
        "toJSONString(v), toJSONString(JSONAllPathsWithTypes(v))",
        "{\"a\":1,\"b\":2,\"c\":3}", "{\"d\":\"x\",\"a\":5}", "{\"e\":[1]}");
    sameAsGolden("array_json", "Array(JSON)", "toJSONString(v)",
        List.of(obj("a", 1), obj("b", "x")), List.of());
  }

  /**
   * JSON text with arrays (read flat: of scalars with nulls, of mixed kinds, nested, empty, of
   * objects holding arrays of objects, a UInt64 beyond Int64), inserted as our Native block,
   * re-selects the values the engine itself reads from the same texts.
   */
  @Test
  void jsonTextWithArrays_insertedEqualsTheEnginesOwnParse() {
    String[] texts = {
      "{\"a\":[1,null,3],\"s\":[\"x\",\"\"],\"f\":[1.5,2,null],\"e\":[]}",
      "{\"mix\":[1,\"x\",true],\"m\":[[1,2],[],[3]],\"u\":18446744073709551615}",
      "{\"items\":[{\"sku\":\"a\",\"qty\":2,\"d\":{\"k\":[1]}},{\"sku\":\"b\","
          + "\"tags\":[{\"t\":\"u\"}]}],\"n\":{\"deep\":[true,false]}}",
      "{\"a\":[7],\"items\":[{}],\"z\":null}",
    };
    String what = "toJSONString(v)";
    String ours = insertAndSelect("JSON", encode("JSON", (Object[]) texts), what);
    String t = "t" + tables++;
    engine.execute("CREATE TABLE " + t + " (n UInt32, v JSON) ENGINE = MergeTree ORDER BY n");
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < texts.length; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
          .append(Chdb.literal(texts[i])).append(')');
    }
    engine.execute("INSERT INTO " + t + " VALUES " + values);
    String theirs = engine.queryText("SELECT " + what + " FROM " + t + " ORDER BY n", "TSVRaw");
    assertThat(ours).isEqualTo(theirs);
    assertThat(ours).contains("\"sku\":\"b\"").contains("18446744073709551615");
  }

  @Test
  void json_byteForByte_typedPathsAndSharedData() {
    byte[] ours = encode("JSON(a UInt32, `b.c` String)",
        obj("a", 1, "b", obj("c", "x"), "z", true), obj("a", 7),
        obj("b", obj("c", "q"), "n", List.of(1, 2, 3)), obj());
    assertSameBytes("json_typed", FILES.bytes("clickhouse-26.7/json_typed.native.bin"), ours);
    // Beyond max_dynamic_paths: the first two paths are dynamic, the rest shared data.
    assertSameBytes("json_max_paths", FILES.bytes("clickhouse-26.7/json_max_paths.native.bin"),
        encode("JSON(max_dynamic_paths=2)", "{\"a\":1,\"b\":2,\"c\":3}",
            "{\"d\":\"x\",\"a\":5}", "{\"e\":[1]}"));
  }

  @Test
  void aFailedRow_leavesTheGoodRowsBlock() {
    String type = "Tuple(Variant(Int64, String), Dynamic, JSON(a UInt8))";
    Object[] good1 = {List.of(1L, "x", obj("a", 1, "b", "y"))};
    Object[] good2 = {List.of("s", List.of(1.5), obj("c", obj("d", true)))};
    Object[] bad = {List.of(2L, Map.of("k", 2L), obj("a", 1, "new", 5L, "zz", new Object()))};
    RowEncoder<Object[]> e = new NativeEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(),
        Map.of());
    e.encode(good1, new ChunkBuffer(8));
    assertThatThrownBy(() -> e.encode(bad, new ChunkBuffer(8)))
        .isInstanceOf(HandoffException.class).hasMessageContaining("column \"v.3.zz\" (Dynamic)");
    e.encode(good2, new ChunkBuffer(8));
    ChunkBuffer b = new ChunkBuffer(64);
    int size = e.bufferedBytes();
    e.finishChunk(b);
    assertThat(b.length()).isEqualTo(size);
    assertSameBytes("rolled back", encodeRows(type, good1, good2), b.toByteArray());
  }

  private static byte[] encodeRows(String type, Object[]... rows) {
    RowEncoder<Object[]> e = new NativeEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("v", type))), RowAccessors.objectArray(),
        Map.of());
    ChunkBuffer b = new ChunkBuffer(64);
    for (Object[] r : rows) {
      e.encode(r, b);
    }
    e.finishChunk(b);
    return b.toByteArray();
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
