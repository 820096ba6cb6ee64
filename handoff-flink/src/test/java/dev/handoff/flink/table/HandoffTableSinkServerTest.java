package dev.handoff.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.testserver.ClickHouseServerException;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code handoff-clickhouse} SQL connector end to end: Flink SQL on a MiniCluster inserting
 * into a real ClickHouse 18.16 server, values read back and compared one by one.
 */
final class HandoffTableSinkServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(2).build());

  static TableEnvironment tableEnv() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    t.getConfig().set("table.local-time-zone", "UTC");
    return t;
  }

  /**
   * Queries the server, once more if the first request met a connection the server was closing
   * (it closes idle ones after 3 s, and a job often takes about that long).
   */
  static String query(String sql) {
    try {
      return server.query(sql);
    } catch (ClickHouseServerException e) {
      if (!(e.getCause() instanceof IOException)) {
        throw e;
      }
      return server.query(sql);
    }
  }

  static String with(String db, String table, String format) {
    return " WITH ('connector' = 'handoff-clickhouse', 'url' = '" + server.httpUrl()
        + "', 'table' = '" + db + "." + table + "', 'format' = '" + format + "',"
        + " 'sink.max-chunk-age' = '100ms', 'sink.linger' = '5ms')";
  }

  /** One ClickHouse column per supported pair the 18.16 server has (no Map, Date32, ...). */
  static final String CLICKHOUSE_COLUMNS = "id Int32, b UInt8, i8 Int8, i16 Int16, u32 UInt32,"
      + " i64 Int64, u64 UInt64, f32 Float32, f64 Float64, dc Decimal(18, 4),"
      + " dc38 Decimal(38, 10), s String, fs FixedString(4), lc LowCardinality(String),"
      + " bin String, fbin FixedString(3), d Date, dt DateTime, dtz DateTime('Asia/Tokyo'),"
      + " ltz DateTime, u UUID, e Enum8('a' = 1, 'b' = 2), n Nullable(Int32),"
      + " ns Nullable(String), arr Array(Int32), arrs Array(Nullable(String)),"
      + " arr2 Array(Array(Int64)), tup Tuple(Int32, String), i32f Float64, i64d Decimal(20, 2)";

  static final String FLINK_COLUMNS = "id INT, b BOOLEAN, i8 TINYINT, i16 SMALLINT, u32 BIGINT,"
      + " i64 BIGINT, u64 BIGINT, f32 FLOAT, f64 DOUBLE, dc DECIMAL(18, 4),"
      + " dc38 DECIMAL(38, 10), s STRING, fs CHAR(4), lc VARCHAR(20), bin BYTES, fbin BINARY(3),"
      + " d DATE, dt TIMESTAMP(3), dtz TIMESTAMP(0), ltz TIMESTAMP_LTZ(3), u STRING, e STRING,"
      + " n INT, ns STRING, arr ARRAY<INT>, arrs ARRAY<STRING>, arr2 ARRAY<ARRAY<BIGINT>>,"
      + " tup ROW<a INT, b STRING>, i32f INT, i64d BIGINT";

  @ParameterizedTest
  @ValueSource(strings = {"native", "rowbinary"})
  void insertFromValues_writesEverySupportedTypeValueByValue(String format) throws Exception {
    String db = server.uniqueDatabase("flink_sql_" + format);
    server.execute("CREATE TABLE " + db + ".t (" + CLICKHOUSE_COLUMNS
        + ") ENGINE = MergeTree ORDER BY id");
    TableEnvironment t = tableEnv();
    t.executeSql("CREATE TABLE t (" + FLINK_COLUMNS + ")" + with(db, "t", format));
    t.executeSql("INSERT INTO t VALUES"
        + " (1, TRUE, CAST(-128 AS TINYINT), CAST(-32768 AS SMALLINT), 4294967295,"
        + " -9223372036854775808, 9223372036854775807, CAST(1.5 AS FLOAT), -0.1,"
        + " CAST(12345678901234.5678 AS DECIMAL(18, 4)),"
        + " CAST('-1234567890123456789012345678.0123456789' AS DECIMAL(38, 10)),"
        + " 'héllo, wörld', CAST('ab' AS CHAR(4)), 'x', X'00FF10',"
        + " CAST(X'616263' AS BINARY(3)), DATE '2024-02-29',"
        + " TIMESTAMP '2024-03-15 14:30:00.123', TIMESTAMP '2024-03-15 14:30:00',"
        + " TO_TIMESTAMP_LTZ(1710513000999, 3), '01234567-89ab-cdef-0123-456789abcdef', 'b',"
        + " 42, 'some', ARRAY[1, -2, 3], ARRAY['x', CAST(NULL AS STRING)],"
        + " ARRAY[ARRAY[CAST(1 AS BIGINT)], ARRAY[CAST(2 AS BIGINT), 3]], ROW(7, 'seven'),"
        + " 2147483647, 123456789012345678),"
        + " (2, FALSE, CAST(127 AS TINYINT), CAST(32767 AS SMALLINT), 0, 0, 0,"
        + " CAST(-3.25 AS FLOAT), 1e300, CAST(-0.0001 AS DECIMAL(18, 4)),"
        + " CAST(0 AS DECIMAL(38, 10)), '', CAST('abcd' AS CHAR(4)), '', X'',"
        + " CAST(X'' AS BINARY(3)), DATE '1970-01-02',"
        + " TIMESTAMP '1970-01-01 00:00:01.999', TIMESTAMP '2000-01-01 09:00:00',"
        + " TO_TIMESTAMP_LTZ(1999, 3), '00000000-0000-0000-0000-000000000000', 'a',"
        + " CAST(NULL AS INT), CAST(NULL AS STRING), ARRAY_REMOVE(ARRAY[1], 1),"
        + " ARRAY_REMOVE(ARRAY['x'], 'x'), ARRAY[ARRAY_REMOVE(ARRAY[CAST(1 AS BIGINT)], 1)],"
        + " ROW(-1, ''), -2147483648, -1)").await();

    String got = query("SELECT id, b, i8, i16, u32, i64, u64, f32, f64, dc, dc38, s,"
        + " hex(fs), lc, hex(bin), hex(fbin), d, dt, dtz, toUnixTimestamp(dtz), ltz, u, e, n, ns,"
        + " arr, arrs, arr2, tup, i32f, i64d FROM " + db + ".t ORDER BY id FORMAT TabSeparated");
    assertThat(got.split("\n")).containsExactly(
        String.join("\t", "1", "1", "-128", "-32768", "4294967295", "-9223372036854775808",
            "9223372036854775807", "1.5", "-0.1", "12345678901234.5678",
            "-1234567890123456789012345678.0123456789", "héllo, wörld", "61622020", "x",
            "00FF10", "616263", "2024-02-29", "2024-03-15 14:30:00", "2024-03-15 14:30:00",
            Long.toString(1710513000L - 9 * 3600), "2024-03-15 14:30:00",
            "01234567-89ab-cdef-0123-456789abcdef", "b", "42", "some", "[1,-2,3]",
            "['x',NULL]", "[[1],[2,3]]", "(7,'seven')", "2147483647",
            "123456789012345678.00"),
        String.join("\t", "2", "0", "127", "32767", "0", "0", "0", "-3.25", "1e300",
            "-0.0001", "0.0000000000", "", "61626364", "", "", "000000", "1970-01-02",
            "1970-01-01 00:00:01", "2000-01-01 09:00:00", Long.toString(946717200L - 9 * 3600),
            "1970-01-01 00:00:01", "00000000-0000-0000-0000-000000000000", "a", "\\N", "\\N",
            "[]", "[]", "[[]]", "(-1,'')", "-2147483648", "-1.00"));
  }

  @Test
  void insertFromDatagen_writesEveryRowWithCheckpointsAndTwoSubtasks() throws Exception {
    String db = server.uniqueDatabase("flink_sql_gen");
    // note and created have no Flink column: left out, so the server fills NULL and now().
    server.execute("CREATE TABLE " + db + ".t (id UInt64, k UInt8, s String, ts DateTime,"
        + " note Nullable(String), created DateTime DEFAULT now())"
        + " ENGINE = MergeTree ORDER BY id");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(200);
    env.configure(Configuration.fromMap(Map.of("restart-strategy.type", "none")));
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    t.executeSql("CREATE TABLE gen (id BIGINT, s STRING) WITH ('connector' = 'datagen',"
        + " 'number-of-rows' = '100000', 'rows-per-second' = '1000000',"
        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000',"
        + " 'fields.s.length' = '10')");
    t.executeSql("CREATE TABLE ch (id BIGINT, k INT, s STRING, ts TIMESTAMP_LTZ(3))"
        + " WITH ('connector' = 'handoff-clickhouse', 'url' = '" + server.httpUrl() + "',"
        + " 'table' = 't', 'database' = '" + db + "', 'sink.parallelism' = '2',"
        + " 'sink.shards' = '2', 'sink.chunk-target-bytes' = '64kb', 'sink.linger' = '5ms')");
    t.executeSql("INSERT INTO ch SELECT id, CAST(id % 7 AS INT), s,"
        + " TO_TIMESTAMP_LTZ(id * 1000, 3) FROM gen").await();

    long sumK = 0;
    for (long id = 1; id <= 100_000; id++) {
      sumK += id % 7;
    }
    assertThat(query("SELECT count(), sum(id), sum(k), sum(length(s)),"
        + " sum(toUInt64(ts)), countIf(isNull(note)), countIf(created > toDateTime(0))"
        + " FROM " + db + ".t FORMAT TabSeparated"))
        .isEqualTo("100000\t5000050000\t" + sumK + "\t1000000\t5000050000\t100000\t100000\n");
  }

  @Test
  void typesThatCannotMap_failThePlanWithEveryColumnAndBothTypes() {
    String db = server.uniqueDatabase("flink_sql_mismatch");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, age UInt8, name String, must UInt32)"
        + " ENGINE = MergeTree ORDER BY id");
    TableEnvironment t = tableEnv();
    t.executeSql("CREATE TABLE t (id BIGINT, age STRING, name INT, extra INT)"
        + with(db, "t", "native"));
    assertThatThrownBy(() -> t.executeSql("INSERT INTO t VALUES (1, 'x', 2, 3)"))
        .rootCause()
        .hasMessageContaining("ClickHouse table " + db + ".t")
        .hasMessageContaining("column \"age\": Flink type STRING cannot be written to"
            + " ClickHouse UInt8")
        .hasMessageContaining("column \"name\": Flink type INT cannot be written to"
            + " ClickHouse String")
        .hasMessageContaining("column \"extra\": the ClickHouse table has no insertable column"
            + " of that name (Flink type INT)")
        .hasMessageContaining("column \"must\": ClickHouse UInt32 is not Nullable and has no"
            + " DEFAULT, and the Flink table has no column of that name")
        .message().doesNotContain("\"id\"");
    assertThat(query("SELECT count() FROM " + db + ".t")).isEqualTo("0\n");
  }

  @Test
  void aMissingTableFailsThePlanNamingIt() {
    String db = server.uniqueDatabase("flink_sql_missing");
    TableEnvironment t = tableEnv();
    t.executeSql("CREATE TABLE t (id BIGINT)" + with(db, "nope", "native"));
    assertThatThrownBy(() -> t.executeSql("INSERT INTO t VALUES (1)"))
        .rootCause().hasMessageContaining("table " + db + ".nope does not exist");
  }

  @Test
  void badOptions_failThePlanNamingTheOption() {
    TableEnvironment t = tableEnv();
    t.executeSql("CREATE TABLE f (id BIGINT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = 'x.t', 'format' = 'json')");
    assertThatThrownBy(() -> t.executeSql("INSERT INTO f VALUES (1)"))
        .rootCause().hasMessageContaining("option 'format'")
        .hasMessageContaining("expected 'native' or 'rowbinary'");
    t.executeSql("CREATE TABLE g (id BIGINT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = 'x.t', 'sink.on-bad-row' = 'drop')");
    assertThatThrownBy(() -> t.executeSql("INSERT INTO g VALUES (1)"))
        .rootCause().hasMessageContaining("option 'sink.on-bad-row'");
    t.executeSql("CREATE TABLE c (id BIGINT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = 'x.t', 'sink.compression' = 'br')");
    assertThatThrownBy(() -> t.executeSql("INSERT INTO c VALUES (1)"))
        .rootCause().hasMessageContaining("option 'sink.compression'")
        .hasMessageContaining("expected 'lz4', 'zstd', 'gzip' or 'none'");
    t.executeSql("CREATE TABLE z (id BIGINT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = 'x.t', 'sink.zstd-level' = '0')");
    assertThatThrownBy(() -> t.executeSql("INSERT INTO z VALUES (1)"))
        .rootCause().hasMessageContaining("option 'sink.zstd-level'");
    t.executeSql("CREATE TABLE h (id BIGINT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = 'x.t', 'sink.shardz' = '2')");
    assertThatThrownBy(() -> t.executeSql("INSERT INTO h VALUES (1)"))
        .hasStackTraceContaining("sink.shardz");
  }

  @Test
  void aNullIntoANonNullableColumn_isSkippedUnderSkipAndFailsTheJobUnderFail() throws Exception {
    String db = server.uniqueDatabase("flink_sql_bad_row");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, v UInt32)"
        + " ENGINE = MergeTree ORDER BY id");
    TableEnvironment t = tableEnv();
    String values = " VALUES (1, CAST(NULL AS INT)), (2, 5), (3, -1)";
    t.executeSql("CREATE TABLE on_skip (id BIGINT, v INT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = '" + db + ".t',"
        + " 'sink.on-bad-row' = 'skip')");
    t.executeSql("INSERT INTO on_skip" + values).await();
    assertThat(query("SELECT id, v FROM " + db + ".t ORDER BY id FORMAT TabSeparated"))
        .isEqualTo("2\t5\n");

    t.executeSql("CREATE TABLE on_fail (id BIGINT, v INT) WITH ('connector' = 'handoff-clickhouse',"
        + " 'url' = '" + server.httpUrl() + "', 'table' = '" + db + ".t')");
    assertThatThrownBy(() -> t.executeSql("INSERT INTO on_fail" + values).await())
        .hasStackTraceContaining("column \"v\" (UInt32): value null (NULL)");
  }
}
