package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Frame;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.testserver.ClickHouseCluster;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The cluster writer against the real 18.16 server: failover, health, identity, tokens. */
final class ClusterWriterServerTest {
  private static final ClickHouseServer server = ClickHouseServer.shared();

  /** A loopback URL where nothing listens: connections are refused. */
  private static String deadUrl() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  @Test
  void aRefusedReplica_failsTransiently_andTheRetryGoesToTheNext() throws Exception {
    String db = server.uniqueDatabase("failover");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, s String) ENGINE = MergeTree"
        + " ORDER BY id");
    String dead = deadUrl();
    ClusterTarget target = ClusterTarget.of(List.of(List.of(dead, server.httpUrl())));
    try (ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).build())) {
      TableSchema schema = http.schema(db, "t");
      ClickHouseWriter writer = http.writer(target, db, "t", schema, "Native", false);
      Frame frame = Encoded.frame("Native", schema,
          List.of(new Object[] {1L, "a"}, new Object[] {2L, "b"}));

      assertThatThrownBy(() -> writer.write(Encoded.insert(0, 2, frame)))
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.isTransient()).isTrue();
            assertThat(e).hasMessageContaining(dead);
          });
      writer.write(Encoded.insert(0, 2, frame).withAttempt(2));
      writer.write(Encoded.insert(1, 2, frame)); // the healthy replica stays active

      List<ReplicaStatus> replicas = writer.replicas();
      assertThat(replicas).hasSize(2);
      assertThat(replicas.get(0).healthy()).isFalse();
      assertThat(replicas.get(0).failures()).isEqualTo(1);
      assertThat(replicas.get(0).retryInNanos()).isPositive();
      assertThat(replicas.get(1).active()).isTrue();
      assertThat(replicas.get(1).inserts()).isEqualTo(2);
      assertThat(replicas.get(1).rows()).isEqualTo(4);
      assertThat(writer.rowsInDoubt()).as("a refused connection sent nothing").isZero();
      assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("4\n");
      writer.close();
    }
  }

  @Test
  void withoutTokensInsertsGo_andATokenIsRejectedBy1816() throws Exception {
    String db = server.uniqueDatabase("identity");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, s String) ENGINE = MergeTree"
        + " ORDER BY id");
    try (ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).build())) {
      assertThat(http.supportsDeduplicationToken()).as("18.16 has no such setting").isFalse();
      TableSchema schema = http.schema(db, "t");
      Frame frame = Encoded.frame("RowBinary", schema, List.<Object[]>of(new Object[] {7L, "x"}));
      ClickHouseWriter plain = http.writer(db, "t", schema, "RowBinary");
      assertThat(plain.deduplicationTokens()).isFalse();
      assertThat(plain.runId()).matches("[0-9a-f]{12}");
      plain.write(Encoded.insert(3, 1, frame)); // 18.16 takes the identity as its query_id

      ClickHouseWriter tokens = http.writer(ClusterTarget.single(server.httpUrl()), db, "t",
          schema, "RowBinary", true);
      assertThatThrownBy(() -> tokens.write(Encoded.insert(0, 1, frame)))
          .as("why the sink detects the setting first")
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.isTransient()).isFalse();
            assertThat(e).hasMessageContaining("insert_deduplication_token");
          });
      assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("1\n");
    }
  }

  @Test
  void theClusterAndTheDistributedTable_areReadFromTheServer() {
    try (ClickHouseCluster cluster = ClickHouseCluster.start("solo", 1, 1);
        ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
            .url(cluster.server(0, 0).httpUrl()).build())) {
      ClickHouseServer one = cluster.server(0, 0);
      one.createDatabase("db");
      one.execute("CREATE TABLE db.local (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
      one.execute("CREATE TABLE db.dist AS db.local ENGINE ="
          + " Distributed(solo, 'db', `local`, cityHash64(id, s) % 3)");
      DistributedTable d = http.distributedTable("db", "dist");
      assertThat(d).isEqualTo(new DistributedTable("db", "dist", "solo", "db", "local",
          Optional.of("cityHash64(id, s) % 3")));
      assertThat(d.shardingColumn()).isEmpty();

      ClusterTarget target = http.clusterOf(d, cluster::httpUrl);
      assertThat(target.cluster()).isEqualTo("solo");
      assertThat(target.shards()).containsExactly(new ClusterTarget.Shard(1, 1,
          List.of(URI.create(one.httpUrl()))));
      assertThat(target.distributed()).contains(d);
      assertThatThrownBy(() -> http.cluster("nowhere", cluster::httpUrl))
          .isInstanceOf(ClickHouseHttpException.class).hasMessageContaining("nowhere");
      assertThatThrownBy(() -> http.distributedTable("db", "local"))
          .isInstanceOf(ClickHouseHttpException.class).hasMessageContaining("not Distributed");
    }
  }
}
