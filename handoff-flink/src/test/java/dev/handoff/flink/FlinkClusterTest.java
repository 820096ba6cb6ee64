package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.clickhouse.testserver.ClickHouseCluster;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.util.HashMap;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink connector writing a two-shard cluster of real 18.16 servers: through a {@code
 * Distributed} table's definition (each row on the shard the table's sharding key picks, as the
 * server computes it), and to explicit replicas with a sharding key of the connector's own, from
 * the DataStream API and from SQL.
 */
class FlinkClusterTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  static ClickHouseCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = ClickHouseCluster.start("fc", 2, 1);
    for (ClickHouseServer s : cluster.servers()) {
      s.createDatabase("fdb");
      for (String t : List.of("events", "keyed")) {
        s.execute("CREATE TABLE fdb." + t + " " + Event.COLUMNS);
      }
      s.execute("CREATE TABLE fdb.sqlkeyed (id UInt64, name String) ENGINE = MergeTree"
          + " ORDER BY id");
    }
    cluster.server(0, 0).execute("CREATE TABLE fdb.events_dist AS fdb.events"
        + " ENGINE = Distributed(fc, 'fdb', events, cityHash64(name))");
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void throughADistributedTable_eachRowLandsOnTheShardItsShardingKeyPicks() throws Exception {
    HashMap<Integer, String> httpByTcpPort = new HashMap<>();
    for (ClickHouseServer s : cluster.servers()) {
      httpByTcpPort.put(s.tcpPort(), s.httpUrl());
    }
    run("dist", 30_000, HandoffSink.forRecords(Event.class)
        .setUrl(cluster.server(0, 0).httpUrl())
        .setDistributedTable("fdb.events_dist")
        .setReplicaUrls((host, tcpPort) -> httpByTcpPort.get(tcpPort))
        .build());
    assertPlacedByTheServersKey("events", 30_000);
  }

  @Test
  void explicitReplicasWithTheConnectorsOwnShardingKey() throws Exception {
    run("explicit", 20_000, HandoffSink.forRecords(Event.class)
        .setCluster(List.of(List.of(cluster.server(0, 0).httpUrl()),
            List.of(cluster.server(1, 0).httpUrl())))
        .setTable("fdb", "keyed")
        .setShardingKey("cityHash64(name)")
        .build());
    assertPlacedByTheServersKey("keyed", 20_000);
  }

  @Test
  void sqlClusterAndShardingKeyOptionsPlaceEveryRow() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(200);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);
    t.executeSql("CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
        + " 'number-of-rows' = '20000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
        + " 'fields.id.end' = '20000')");
    t.executeSql("CREATE TABLE ch (id BIGINT, name STRING) WITH ('connector' ="
        + " 'handoff-clickhouse', 'url' = '" + cluster.server(0, 0).httpUrl() + "',"
        + " 'table' = 'fdb.sqlkeyed', 'sink.parallelism' = '2', 'sink.cluster' = '"
        + cluster.server(0, 0).httpUrl() + ";" + cluster.server(1, 0).httpUrl() + "',"
        + " 'sink.sharding-key' = 'cityHash64(name)')");
    t.executeSql("INSERT INTO ch SELECT id, CONCAT('n', CAST(id AS STRING)) FROM gen").await();
    long total = 0;
    for (int shard = 0; shard < 2; shard++) {
      String[] stats = cluster.server(shard, 0).query("SELECT count(), countIf(cityHash64(name)"
          + " % 2 != " + shard + "), countIf(name != concat('n', toString(id))) FROM"
          + " fdb.sqlkeyed").trim().split("\t");
      assertThat(Long.parseLong(stats[0])).as("shard %d holds rows", shard).isPositive();
      assertThat(stats[1]).as("rows on shard %d that belong elsewhere", shard).isEqualTo("0");
      assertThat(stats[2]).isEqualTo("0");
      total += Long.parseLong(stats[0]);
    }
    assertThat(total).isEqualTo(20_000);
  }

  @Test
  void aShardingKeyAndARoutingKeyTogetherAreRefusedAtBuild() {
    assertThatThrownBy(() -> HandoffSink.forRecords(Event.class).setTable("t")
        .setShardingKey("cityHash64(name)").setRoutingKey(Event::id).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("cityHash64(name)");
  }

  /**
   * Every row is stored once, unchanged, and on shard {@code cityHash64(name) % 2}: with weights
   * 1 and 1 that is where a {@code Distributed} table puts it, computed here by the server.
   */
  private static void assertPlacedByTheServersKey(String table, long rows) {
    long total = 0;
    for (int shard = 0; shard < 2; shard++) {
      ClickHouseServer s = cluster.server(shard, 0);
      String stats = s.query("SELECT count(), countIf(cityHash64(name) % 2 != " + shard + ")"
          + " FROM fdb." + table).trim();
      String[] parts = stats.split("\t");
      assertThat(Long.parseLong(parts[0])).as("shard %d holds rows", shard).isPositive();
      assertThat(parts[1]).as("rows on shard %d that belong elsewhere", shard).isEqualTo("0");
      assertThat(s.query(Event.wrongRows("fdb." + table))).isEqualTo("0\n");
      total += Long.parseLong(parts[0]);
    }
    assertThat(total).isEqualTo(rows);
    long distinct = 0;
    for (int shard = 0; shard < 2; shard++) {
      distinct += Long.parseLong(cluster.server(shard, 0)
          .query("SELECT uniqExact(id) FROM fdb." + table).trim());
    }
    assertThat(distinct).isEqualTo(rows);
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
