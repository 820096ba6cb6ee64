package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.type.ClickHouseType;
import org.junit.jupiter.api.Test;

/** Schema discovery against a real ClickHouse 18.16 server. */
final class SchemaServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();
  static final ClickHouseHttp http = ClickHouseHttp.create(
      ClickHouseHttpOptions.builder().url(server.httpUrl()).build());

  @Test
  void schema_readsNamesAndTheServersTypeStringsInTableOrder() {
    String db = server.uniqueDatabase("schema_types");
    server.execute("CREATE TABLE " + db + ".t ("
        + "i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32,"
        + " u64 UInt64, f32 Float32, f64 Float64, d1 Decimal32(2), d2 Decimal(18, 4),"
        + " d3 Decimal(38, 10), s String, fs FixedString(3), dt Date, ts DateTime,"
        + " tz DateTime('Asia/Tokyo'), id UUID, e8 Enum8('a' = 1, 'b\\'c' = -2),"
        + " e16 Enum16('x' = 1000), n Nullable(Int32), ns Nullable(String),"
        + " arr Array(Array(Nullable(String))), tup Tuple(Int8, String),"
        + " lc LowCardinality(String), lcn LowCardinality(Nullable(String)),"
        + " nest Nested(a UInt8, b String), `weird name` String"
        + ") ENGINE = MergeTree ORDER BY i8");

    TableSchema schema = http.schema(db, "t");

    assertThat(schema.columns()).containsExactly(
        new ColumnSpec("i8", "Int8"), new ColumnSpec("i16", "Int16"),
        new ColumnSpec("i32", "Int32"), new ColumnSpec("i64", "Int64"),
        new ColumnSpec("u8", "UInt8"), new ColumnSpec("u16", "UInt16"),
        new ColumnSpec("u32", "UInt32"), new ColumnSpec("u64", "UInt64"),
        new ColumnSpec("f32", "Float32"), new ColumnSpec("f64", "Float64"),
        new ColumnSpec("d1", "Decimal(9, 2)"), new ColumnSpec("d2", "Decimal(18, 4)"),
        new ColumnSpec("d3", "Decimal(38, 10)"), new ColumnSpec("s", "String"),
        new ColumnSpec("fs", "FixedString(3)"), new ColumnSpec("dt", "Date"),
        new ColumnSpec("ts", "DateTime"), new ColumnSpec("tz", "DateTime('Asia/Tokyo')"),
        new ColumnSpec("id", "UUID"), new ColumnSpec("e8", "Enum8('b\\'c' = -2, 'a' = 1)"),
        new ColumnSpec("e16", "Enum16('x' = 1000)"), new ColumnSpec("n", "Nullable(Int32)"),
        new ColumnSpec("ns", "Nullable(String)"),
        new ColumnSpec("arr", "Array(Array(Nullable(String)))"),
        new ColumnSpec("tup", "Tuple(Int8, String)"),
        new ColumnSpec("lc", "LowCardinality(String)"),
        new ColumnSpec("lcn", "LowCardinality(Nullable(String))"),
        new ColumnSpec("nest.a", "Array(UInt8)"), new ColumnSpec("nest.b", "Array(String)"),
        new ColumnSpec("weird name", "String"));
    for (ColumnSpec c : schema.columns()) {
      assertThat(ClickHouseType.parse(c.type())).hasToString(c.type());
    }
  }

  @Test
  void schema_leavesOutMaterializedAndAliasColumnsAndKeepsDefaults() {
    String db = server.uniqueDatabase("schema_kinds");
    server.execute("CREATE TABLE " + db + ".t (z UInt64, m UInt8 MATERIALIZED 1, a String,"
        + " al UInt64 ALIAS z + 1, d UInt8 DEFAULT 5) ENGINE = MergeTree ORDER BY z");

    assertThat(http.schema(db, "t").columns()).containsExactly(new ColumnSpec("z", "UInt64"),
        new ColumnSpec("a", "String"), new ColumnSpec("d", "UInt8"));
  }

  @Test
  void schema_nullDatabaseMeansTheOptionsDatabase() {
    String db = server.uniqueDatabase("schema_default_db");
    server.execute("CREATE TABLE " + db + ".t (x UInt8) ENGINE = Memory");
    ClickHouseHttp inDb = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).database(db).build());

    assertThat(inDb.schema(null, "t")).isEqualTo(TableSchema.of(new ColumnSpec("x", "UInt8")));
  }

  @Test
  void schema_missingTableOrDatabase_isAnErrorNamingIt() {
    String db = server.uniqueDatabase("schema_missing");

    assertThatThrownBy(() -> http.schema(db, "nope"))
        .isInstanceOf(ClickHouseHttpException.class)
        .hasMessageStartingWith("table " + db + ".nope does not exist");
    assertThatThrownBy(() -> http.schema("no_such_db_xyz", "t"))
        .isInstanceOf(ClickHouseHttpException.class)
        .hasMessageStartingWith("database no_such_db_xyz does not exist");
  }

  @Test
  void schema_typeTheModelCannotParse_isAnErrorNamingColumnAndType() {
    String db = server.uniqueDatabase("schema_unsupported");
    server.execute("CREATE TABLE " + db + ".t (k UInt8, agg AggregateFunction(uniq, UInt64))"
        + " ENGINE = AggregatingMergeTree ORDER BY k");

    assertThatThrownBy(() -> http.schema(db, "t"))
        .isInstanceOf(ClickHouseHttpException.class)
        .hasMessageContaining("table " + db + ".t, column agg: type"
            + " AggregateFunction(uniq, UInt64) is not supported");
  }

  @Test
  void query_returnsTheServersText() {
    assertThat(http.query("SELECT version()")).startsWith("18.16");
  }
}
