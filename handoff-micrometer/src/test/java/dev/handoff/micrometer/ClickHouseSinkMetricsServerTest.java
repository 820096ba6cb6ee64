package dev.handoff.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.clickhouse.sink.DeliveryReport;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.sink.WorkerListener;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sink's meters against a real 18.16 server, through a one-shard target whose first replica
 * refuses connections: the replica meters show the failover.
 */
final class ClickHouseSinkMetricsServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();

  /** A row of {@code (id UInt64, key String)}. */
  public record Row(long id, String key) {}

  @Test
  void replicaMetersShowTheFailoverAndTheWorkerMetersTheRows() throws IOException {
    String db = server.uniqueDatabase("sink_metrics");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, key String) ENGINE = MergeTree"
        + " ORDER BY id");
    String dead = "http://127.0.0.1:" + closedPort();
    ClusterTarget target = ClusterTarget.of(List.of(List.of(dead, server.httpUrl())));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ClickHouseSinkMetrics metrics = new ClickHouseSinkMetrics("orders");
    DeliveryReport report;
    try (ClickHouseSink<Row> sink = ClickHouseSink.forRecords(Row.class).target(target)
        .table(db, "t").chunkTargetBytes(4096).linger(Duration.ofMillis(5))
        .listeners(metrics.stageListener(), WorkerListener.NONE).build()) {
      metrics.sink(sink).bindTo(registry);
      for (int i = 0; i < 5_000; i++) {
        sink.push(new Row(i, "k" + i));
      }
      report = sink.close(Duration.ofSeconds(60));
      // Read while the sink is still referenced: Micrometer holds it weakly.
      assertThat(report.rowsWritten()).isEqualTo(5_000);
      assertThat(value(registry.find("handoff.replica.failures").tag("replica", "0")))
          .isGreaterThanOrEqualTo(1);
      assertThat(value(registry.find("handoff.replica.inserts").tag("replica", "0"))).isZero();
      assertThat(value(registry.find("handoff.replica.rows").tag("replica", "1")))
          .isEqualTo(5_000);
      assertThat(value(registry.find("handoff.replica.active").tag("replica", "1"))).isEqualTo(1);
      assertThat(value(registry.find("handoff.replica.active").tag("replica", "0"))).isZero();
      assertThat(registry.find("handoff.replica.inserts").tag("url", dead).functionCounter())
          .isNotNull();
      assertThat(value(registry.find("handoff.sink.rows").tag("outcome", "written")
          .tag("shard", "0"))).isEqualTo(5_000);
      assertThat(value(registry.find("handoff.stage.records").tag("outcome", "seen")))
          .isEqualTo(5_000);
      assertThat(value(registry.find("handoff.budget.limit.bytes")))
          .isEqualTo(sink.budgetLimitBytes());
      assertThat(value(registry.find("handoff.budget.inflight.bytes"))).isZero();
    }
    assertThat(server.query("SELECT count() FROM " + db + ".t").trim()).isEqualTo("5000");
  }

  private static double value(Search search) {
    var counter = search.functionCounter();
    if (counter != null) {
      return counter.count();
    }
    return search.gauge().value();
  }

  /** A loopback port nothing listens on (bound, then closed). */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
