package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Variant, Dynamic and JSON in the type model: parsed, printed in the canonical spelling of a
 * ClickHouse 26.7 engine (asked through libchdb: the type a table column gets), refused where the
 * engine refuses them, and encoded as binary type tags byte for byte as the engine encodes them.
 */
final class VariantDynamicJsonTypeTest {
  private static ChdbSession engine;

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

  private static final List<String> TYPES = List.of(
      "Variant(String, UInt64, Array(UInt64))",
      "Variant(UInt8, Int8, Int16, Int128, Decimal(9,1), Decimal(76, 3), Tuple(a Int8),"
          + " Tuple(Int8, String), Array(Array(Int8)), Array(Int8), Date, Date32, UUID, UInt64)",
      "Variant(String, String)", "Variant(Nothing, UInt8)", "Variant(LowCardinality(String), UInt8)",
      "Variant(JSON, String)", "Variant(Array(Nullable(String)), Map(String, Nullable(Int8)))",
      "Dynamic", "Dynamic(max_types=32)", "Dynamic(max_types = 0)", "Dynamic(max_types=254)",
      "JSON", "JSON()", "JSON(max_dynamic_paths=1024, max_dynamic_types=32)",
      "JSON(b.c String, a UInt32, SKIP x.y, SKIP REGEXP 'r.*', max_dynamic_types=4,"
          + " max_dynamic_paths=10)",
      "JSON(`a b` Int8, SKIP `q r`)", "JSON(SKIP REGEXP 'a''b\\\\d', SKIP b, SKIP a)",
      "Array(JSON(a Array(JSON(b Int8))))", "Map(String, Dynamic)",
      "Tuple(Variant(Int8, String), JSON, Dynamic)", "Nullable(JSON)",
      "JSON(a Dynamic, b Variant(Int8, String), c JSON, d Nullable(Int8))",
      "JSON(a.b UInt8, a.b.c Int8)");

  @Test
  void printsTheEnginesCanonicalSpelling() {
    StringBuilder columns = new StringBuilder();
    for (int i = 0; i < TYPES.size(); i++) {
      columns.append(i == 0 ? "" : ", ").append("c").append(i).append(' ').append(TYPES.get(i));
    }
    engine.execute("CREATE TABLE spelled (" + columns + ") ENGINE = Memory");
    String[] canonical = engine.queryText("SELECT type FROM system.columns WHERE table ="
        + " 'spelled' ORDER BY position", "TSVRaw").split("\n");
    for (int i = 0; i < TYPES.size(); i++) {
      ClickHouseType t = ClickHouseType.parse(TYPES.get(i));
      assertThat(t.toString()).as(TYPES.get(i)).isEqualTo(canonical[i]);
      assertThat(ClickHouseType.parse(t.toString())).isEqualTo(t);
    }
  }

  @Test
  void binaryTypeTags_matchTheEngine() {
    for (String type : List.of("Nested(a Int8)", "Enum8('a' = 1, 'b' = -2)",
        "Enum16('a' = 1000)", "DateTime64(3, 'UTC')", "DateTime64(3)", "DateTime('UTC')",
        "Decimal(9, 2)", "Decimal(76, 2)", "FixedString(2)", "LowCardinality(String)",
        "JSON(a.b UInt8, SKIP c, SKIP REGEXP 'x')", "IPv4", "Tuple(a Int8)", "Bool",
        "Array(Nullable(UInt8))", "Map(UInt8, UInt8)", "Variant(String, UInt8)",
        "Array(Dynamic(max_types=3))")) {
      // A Dynamic value in RowBinary: its type's encoding, then the value.
      String sql = "SELECT CAST(defaultValueOfTypeName(" + Chdb.literal(type) + "), 'Dynamic')";
      String expected = HexFormat.of().formatHex(engine.query(sql, "RowBinary"));
      String ours = HexFormat.of().formatHex(BinaryTypes.encode(ClickHouseType.parse(type)));
      if (type.startsWith("Variant")) {
        continue; // a Variant's default is NULL, which a Dynamic stores as Nothing
      }
      assertThat(expected).as(type).startsWith(ours);
    }
    ChunkBuffer b = new ChunkBuffer(8);
    BinaryTypes.write(ClickHouseType.parse("Variant(String, UInt8)"), b);
    assertThat(b.toByteArray()).containsExactly(0x2A, 2, 0x15, 0x01);
  }

  @Test
  void refusesWhatTheEngineRefuses() {
    for (String[] c : new String[][] {
        {"Variant(Nullable(String), UInt8)", "cannot be inside Variant (a Variant holds NULL"},
        {"Variant(LowCardinality(Nullable(String)), UInt8)", "cannot be inside Variant"},
        {"Variant(Variant(String, UInt8), UInt16)", "nested Variant types are not allowed"},
        {"Variant(Dynamic, String)", "Dynamic is not allowed inside Variant"},
        {"Nullable(Variant(String, UInt8))", "cannot be inside Nullable (the server refuses it"},
        {"Nullable(Dynamic)", "cannot be inside Nullable (the server refuses it"},
        {"LowCardinality(Variant(String, UInt8))", "LowCardinality is supported only for"},
        {"Dynamic(max_types=255)", "Dynamic max_types must be between 0 and 254"},
        {"JSON(max_dynamic_paths=20000000)", "must be between 0 and 10000"},
        {"JSON(max_dynamic_paths=10001)", "JSON max_dynamic_paths must be between 0 and 10000"},
        {"JSON(`a` UInt8, a Int8)", "duplicate JSON typed path 'a'"},
        {"Dynamic(types=3)", "expected max_types=N"}}) {
      assertThatThrownBy(() -> ClickHouseType.parse(c[0])).as(c[0])
          .isInstanceOf(TypeParseException.class).hasMessageContaining(c[1]);
      assertThatThrownBy(() -> engine.execute("CREATE TABLE refused (v " + c[0]
          + ") ENGINE = Memory")).as("the engine refuses " + c[0]);
    }
  }

  @Test
  void variantTypes_areSortedByTheirNamesBytes() {
    ClickHouseType v = ClickHouseType.parse("Variant(UInt8, Int8, Int16, Array(Int8), UUID)");
    assertThat(v.elements()).extracting(ClickHouseType::toString)
        .containsExactly("Array(Int8)", "Int16", "Int8", "UInt8", "UUID");
  }
}
