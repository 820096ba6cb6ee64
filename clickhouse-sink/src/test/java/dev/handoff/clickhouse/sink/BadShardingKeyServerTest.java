package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Envelope;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.RecordMeta;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A row whose server sharding key has no value (a NULL key column) is a bad row like any other:
 * skipped and counted under {@code SKIP}, a loud stop under {@code FAIL}; never an exception
 * from {@code push} that loses the row's accounting.
 */
final class BadShardingKeyServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();

  /** A row of {@code (id UInt64, key Nullable(String))}. */
  public record Keyed(long id, String key) {}

  private static String table(String prefix) {
    String db = server.uniqueDatabase(prefix);
    server.execute("CREATE TABLE " + db + ".t (id UInt64, key Nullable(String))"
        + " ENGINE = MergeTree ORDER BY id");
    return db;
  }

  private static ClickHouseSinkBuilder<Keyed> sink(String db) {
    return ClickHouseSink.forRecords(Keyed.class).url(server.httpUrl()).table(db, "t")
        .shardingKey("cityHash64(key)").shards(2, 4).chunkTargetBytes(4096)
        .linger(Duration.ofMillis(5));
  }

  @Test
  void underSkip_aNullKeyRowIsSkippedAndCounted_theRestIsWritten() {
    String db = table("badkey_skip");
    DeliveryReport report;
    try (ClickHouseSink<Keyed> sink = sink(db).onBadRow(ErrorPolicy.SKIP).build()) {
      for (int i = 0; i < 1_000; i++) {
        sink.push(new Keyed(i, i % 100 == 7 ? null : "k" + i));
      }
      report = sink.close(Duration.ofSeconds(30));
    }
    assertThat(report.rowsSkipped()).isEqualTo(10);
    assertThat(report.rowsWritten()).isEqualTo(990);
    assertThat(report.allDelivered()).isTrue();
    assertThat(server.query("SELECT count(), countIf(key IS NULL), sum(id % 100 = 7) FROM " + db
        + ".t").trim()).isEqualTo("990\t0\t0");
  }

  @Test
  void underFail_aNullKeyRowStopsTheSink_andTheMessageNamesColumnAndValue() {
    String db = table("badkey_fail");
    ClickHouseSink<Keyed> sink = sink(db).onBadRow(ErrorPolicy.FAIL).build();
    sink.push(new Keyed(1, "a"));
    assertThatThrownBy(() -> sink.push(new Keyed(2, null)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped")
        .hasMessageContaining("sharding key column key").hasMessageContaining("NULL");
    DeliveryReport report = sink.close(Duration.ofSeconds(10));
    assertThat(report.allDelivered()).isFalse();
    assertThat(report.rowsNotDelivered()).isEqualTo(2);
  }

  /**
   * In pull mode the sources' routing keys (all 0 here) are replaced by the sharding key: each
   * shard writes exactly the rows whose {@code cityHash64(key) % 2} is its index, as the server
   * computes it.
   */
  @Test
  void inPullMode_theShardingKeyPlacesEveryRow_andANullKeyIsSkipped() throws Exception {
    String db = table("badkey_pull");
    ClickHouseSink<Keyed> sink = sink(db).onBadRow(ErrorPolicy.SKIP).build();
    SourceAcks acks = sink.source("pull");
    int[] next = {0};
    DeliveryReport report = sink.run(out -> {
      if (next[0] >= 20) {
        return false;
      }
      SourceBatch batch = acks.begin();
      for (int i = 0; i < 100; i++) {
        long id = next[0] * 100L + i;
        out.push(new Envelope<>(new Keyed(id, id % 100 == 7 ? null : "k" + id),
            new RecordMeta(0L, 0L), batch));
      }
      batch.complete();
      next[0]++;
      return true;
    }, Duration.ofSeconds(30));
    assertThat(report.rowsSkipped()).isEqualTo(20);
    assertThat(report.rowsWritten()).isEqualTo(1_980);
    assertThat(report.allDelivered()).as(report.summary()).isTrue();
    assertThat(acks.checkpoint()).isEqualTo(19);
    String perShard = server.query("SELECT countIf(cityHash64(key) % 2 = 0),"
        + " countIf(cityHash64(key) % 2 = 1) FROM " + db + ".t").trim();
    assertThat(sink.workerMetrics().shard(0).rowsWritten() + "\t"
        + sink.workerMetrics().shard(1).rowsWritten()).isEqualTo(perShard);
  }
}
