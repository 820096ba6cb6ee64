package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.ErrorPolicy;
import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Many tables, metrics, Flink rows, and bad rows (rejected by the server or by the encoder). */
class FlinkFeaturesTest {
  static final String[] TABLES = {"t0", "t1", "t2"};

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setConfiguration(CapturingReporter.install(new Configuration()))
          .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  final ClickHouseServer server = ClickHouseServer.shared();

  @Test
  void oneSinkWritesManyTablesEachWithItsOwnColumns() throws Exception {
    String db = server.uniqueDatabase("many");
    server.execute("CREATE TABLE " + db + ".t0 " + Event.COLUMNS);
    server.execute("CREATE TABLE " + db + ".t1 (id UInt64, name String) ENGINE = MergeTree"
        + " ORDER BY id");
    server.execute("CREATE TABLE " + db + ".t2 (ts DateTime('UTC'), value Float64, id UInt64)"
        + " ENGINE = MergeTree ORDER BY id");
    run("many", 30_000, HandoffSink.forRecords(Event.class).setUrl(server.httpUrl())
        .setDatabase(db).setTableSelector(e -> TABLES[(int) (e.id() % 3)])
        .setFormat(InsertFormat.ROW_BINARY).build());
    for (int t = 0; t < 3; t++) {
      assertThat(server.query("SELECT count(), countIf(id % 3 != " + t + ") FROM " + db + ".t"
          + t)).as("table t" + t).isEqualTo("10000\t0\n");
    }
    assertThat(server.query("SELECT count() FROM " + db + ".t1 WHERE name != concat('n',"
        + " toString(id))")).isEqualTo("0\n");
    assertThat(server.query("SELECT count() FROM " + db + ".t2 WHERE value != id * 0.5"))
        .isEqualTo("0\n");
    assertThat(CapturingReporter.metric("many", "numRecordsSend")).isEqualTo(30_000);
  }

  @Test
  void metricsCountRowsAndBytesSentAndNoErrors() throws Exception {
    String db = server.uniqueDatabase("metrics");
    server.execute("CREATE TABLE " + db + ".events " + Event.COLUMNS);
    run("metrics", 50_000, HandoffSink.forRecords(Event.class).setUrl(server.httpUrl())
        .setTable(db, "events").setShards(2, 4).setRoutingKey(Event::id).build());
    assertThat(CapturingReporter.metric("metrics", "numRecordsSend")).isEqualTo(50_000);
    assertThat(CapturingReporter.metric("metrics", "numBytesSend")).isGreaterThan(50_000 * 20L);
    assertThat(CapturingReporter.metric("metrics", "numRecordsSendErrors")).isZero();
    assertThat(CapturingReporter.metric("metrics", "numRecordsOutErrors")).isZero();
    assertThat(CapturingReporter.values("metrics", "queuedChunks")).hasSize(4); // 2 x 2 shards
    assertThat(CapturingReporter.values("metrics", "oldestUnackedAgeMs")).hasSize(4);
    assertThat(CapturingReporter.values("metrics", "parkedChunks")).containsOnly(0L);
    assertThat(server.query("SELECT count(), uniqExact(id) FROM " + db + ".events"))
        .isEqualTo("50000\t50000\n");
  }

  @Test
  void flinkRowsByNameAndByPosition() throws Exception {
    String db = server.uniqueDatabase("rows");
    server.execute("CREATE TABLE " + db + ".named (name String, id UInt64) ENGINE = MergeTree"
        + " ORDER BY id");
    server.execute("CREATE TABLE " + db + ".positional (id UInt64, name String)"
        + " ENGINE = MergeTree ORDER BY id");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.fromData(Types.ROW_NAMED(new String[] {"name", "id"}, Types.STRING, Types.LONG),
            named(1, "a"), named(2, "b"))
        .sinkTo(HandoffSink.forRows().setUrl(server.httpUrl()).setTable(db, "named").build());
    env.fromData(Types.ROW(Types.LONG, Types.STRING), Row.of(3L, "c"), Row.of(4L, "d"))
        .sinkTo(HandoffSink.forRows().setUrl(server.httpUrl()).setTable(db, "positional")
            .build());
    env.execute("rows");
    assertThat(server.query("SELECT id, name FROM " + db + ".named ORDER BY id"))
        .isEqualTo("1\ta\n2\tb\n");
    assertThat(server.query("SELECT id, name FROM " + db + ".positional ORDER BY id"))
        .isEqualTo("3\tc\n4\td\n");
  }

  /** A Flink POJO: public fields for Flink, a getter for one of them for handoff. */
  public static final class Visit {
    public long id;
    public String page;

    public Visit() {}

    Visit(long id, String page) {
      this.id = id;
      this.page = page;
    }

    public String getPage() {
      return "/" + page;
    }
  }

  @Test
  void pojosByGetterOrPublicField() throws Exception {
    String db = server.uniqueDatabase("pojo");
    server.execute("CREATE TABLE " + db + ".visits (id UInt64, page String) ENGINE = MergeTree"
        + " ORDER BY id");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.fromData(new Visit(1, "a"), new Visit(2, "b"))
        .sinkTo(HandoffSink.forPojos(Visit.class).setUrl(server.httpUrl())
            .setTable(db, "visits").build());
    env.execute("pojo");
    assertThat(server.query("SELECT id, page FROM " + db + ".visits ORDER BY id"))
        .isEqualTo("1\t/a\n2\t/b\n");
  }

  private static Row named(long id, String name) {
    Row r = Row.withNames();
    r.setField("id", id);
    r.setField("name", name);
    return r;
  }

  @Test
  void aRowTheServerRejectsIsDeadLetteredAndCounted(@TempDir Path dir) throws Exception {
    String db = server.uniqueDatabase("dead");
    server.execute("CREATE TABLE " + db + ".events (id UInt64, name String, value Float64,"
        + " ts DateTime('UTC'), _reject UInt8 MATERIALIZED throwIf(id = 777))"
        + " ENGINE = MergeTree ORDER BY id");
    run("dead", 5_000, HandoffSink.forRecords(Event.class).setUrl(server.httpUrl())
        .setTable(db, "events").setColumns("id", "name", "value", "ts")
        .setDeadLetterDirectory(dir.toString()).build());
    assertThat(server.query("SELECT count(), countIf(id = 777) FROM " + db + ".events"))
        .isEqualTo("4999\t0\n");
    assertThat(CapturingReporter.metric("dead", "numRecordsSendErrors")).isOne();
    try (Stream<Path> files = Files.walk(dir)) {
      assertThat(files.filter(Files::isRegularFile).count()).as("dead-letter files").isPositive();
    }
  }

  @Test
  void byDefaultARowTheServerRejectsFailsTheJob() throws Exception {
    String db = server.uniqueDatabase("reject");
    server.execute("CREATE TABLE " + db + ".events (id UInt64, name String, value Float64,"
        + " ts DateTime('UTC'), _reject UInt8 MATERIALIZED throwIf(id = 777))"
        + " ENGINE = MergeTree ORDER BY id");
    assertThatThrownBy(() -> run("reject", 5_000, HandoffSink.forRecords(Event.class)
        .setUrl(server.httpUrl()).setTable(db, "events").setColumns("id", "name", "value", "ts")
        .build()))
        .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
            .contains("were not delivered").contains("395"));
  }

  @Test
  void aRowTheEncoderRefusesFailsTheJobNamingColumnAndValue() throws Exception {
    String db = server.uniqueDatabase("badrow");
    server.execute("CREATE TABLE " + db + ".events (id UInt64, name FixedString(3))"
        + " ENGINE = MergeTree ORDER BY id");
    assertThatThrownBy(() -> run("badrow", 1_000, HandoffSink.forRecords(Event.class)
        .setUrl(server.httpUrl()).setTable(db, "events").build()))
        // Each of the two subtasks meets its first bad row (id 100, or 500) on its own.
        .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
            .contains("column \"name\" (FixedString(3))")
            .containsPattern("value \"n(100|500)\" \\(TEXT\\): its 4 UTF-8 bytes do not fit"));
  }

  @Test
  void underSkipARefusedRowIsCountedAsAnOutError() throws Exception {
    String db = server.uniqueDatabase("skip");
    server.execute("CREATE TABLE " + db + ".events (id UInt64, name FixedString(3))"
        + " ENGINE = MergeTree ORDER BY id");
    run("skip", 1_000, HandoffSink.forRecords(Event.class).setUrl(server.httpUrl())
        .setTable(db, "events").setOnBadRow(ErrorPolicy.SKIP).build());
    assertThat(server.query("SELECT count() FROM " + db + ".events")).isEqualTo("100\n");
    assertThat(CapturingReporter.metric("skip", "numRecordsOutErrors")).isEqualTo(900);
  }

  private static void run(String name, long rows, Sink<Event> sink) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    env.fromSource(new DataGeneratorSource<>(Event::of, rows, TypeInformation.of(Event.class)),
            WatermarkStrategy.noWatermarks(), "events")
        .sinkTo(sink);
    env.execute(name);
  }
}
