package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Envelope;
import dev.handoff.api.FlowControl;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.RoutingKeys;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.sink.RetryPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The sink facade against a real ClickHouse 18.16 server: both modes, batches, failures. */
final class ClickHouseSinkServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();

  /** A row of {@code (id UInt64, key String, v Float64)}. */
  public record Row(long id, String key, double v) {}

  static String table(String prefix) {
    return table(server, prefix);
  }

  /** Creates {@code <unique db>.t (id UInt64, key String, v Float64)} on {@code on}. */
  static String table(ClickHouseServer on, String prefix) {
    String db = on.uniqueDatabase(prefix);
    on.execute("CREATE TABLE " + db + ".t (id UInt64, key String, v Float64)"
        + " ENGINE = MergeTree ORDER BY id");
    return db;
  }

  static ClickHouseSinkBuilder<Row> sink(ClickHouseServer on, String db) {
    return ClickHouseSink.forRecords(Row.class).url(on.httpUrl()).table(db, "t")
        .routingKey(r -> RoutingKeys.of(r.key())).shards(3, 4).chunkTargetBytes(4096)
        .linger(Duration.ofMillis(5));
  }

  static long count(ClickHouseServer on, String db) {
    return Long.parseLong(on.query("SELECT count() FROM " + db + ".t").trim());
  }

  @ParameterizedTest
  @EnumSource(InsertFormat.class)
  void pushModeWithoutBatches_deliversEveryRow(InsertFormat format) {
    String db = table("sink_push");
    DeliveryReport report;
    try (ClickHouseSink<Row> sink = sink(server, db).format(format).build()) {
      for (int i = 0; i < 20_000; i++) {
        sink.push(new Row(i, "k" + i % 7, i));
      }
      report = sink.close(Duration.ofSeconds(30));
    }
    assertThat(report.allDelivered()).as(report.summary()).isTrue();
    assertThat(report.rowsPushed()).isEqualTo(20_000);
    assertThat(report.rowsWritten()).isEqualTo(20_000);
    assertThat(server.query("SELECT count(), sum(id) FROM " + db + ".t FORMAT TabSeparated"))
        .isEqualTo("20000\t199990000\n");
  }

  @ParameterizedTest
  @EnumSource(ClickHouseHttpOptions.Compression.class)
  void everyCompression_deliversEveryRowInBothFormats(ClickHouseHttpOptions.Compression c) {
    for (InsertFormat format : InsertFormat.values()) {
      String db = table("sink_" + c.name().toLowerCase());
      DeliveryReport report;
      try (ClickHouseSink<Row> sink = sink(server, db).format(format).compression(c)
          .zstdLevel(3).build()) {
        for (int i = 0; i < 5_000; i++) {
          sink.push(new Row(i, "k" + i % 7, i));
        }
        report = sink.close(Duration.ofSeconds(30));
      }
      assertThat(report.allDelivered()).as(c + " " + format + ": " + report.summary()).isTrue();
      assertThat(server.query("SELECT count(), sum(id) FROM " + db + ".t FORMAT TabSeparated"))
          .as(c + " " + format).isEqualTo("5000\t12497500\n");
    }
  }

  @Test
  void sealSendsEveryOpenChunkWithoutWaitingForTheLinger() throws InterruptedException {
    String db = table("sink_seal");
    try (ClickHouseSink<Row> sink = sink(server, db).linger(Duration.ofHours(1))
        .maxChunkAge(Duration.ofHours(1)).build()) {
      SourceAcks acks = sink.source("epochs");
      SourceBatch batch = acks.begin();
      for (int i = 0; i < 1_000; i++) {
        sink.push(new Row(i, "k" + i % 7, i), batch);
      }
      batch.complete();
      assertThat(sink.seal()).isEqualTo(FlowControl.CONTINUE);
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (batch.state() == SourceBatch.State.PENDING && System.nanoTime() < end) {
        Thread.sleep(5);
      }
      assertThat(batch.state()).as("delivered well within the hour of linger")
          .isEqualTo(SourceBatch.State.DELIVERED);
      assertThat(count(server, db)).isEqualTo(1_000);
    }
  }

  @Test
  void pushModeWithBatches_checkpointPassesEveryCompletedBatch() {
    String db = table("sink_batches");
    try (ClickHouseSink<Row> sink = sink(server, db).build()) {
      SourceAcks acks = sink.source("orders");
      for (int b = 0; b < 10; b++) {
        SourceBatch batch = acks.begin();
        for (int i = 0; i < 500; i++) {
          sink.push(new Row(b * 500L + i, "k" + i, i), batch);
        }
        batch.complete();
      }
      DeliveryReport report = sink.close(Duration.ofSeconds(30));
      assertThat(report.allDelivered()).as(report.summary()).isTrue();
      assertThat(acks.checkpoint()).isEqualTo(9);
      assertThat(acks.failedBatchIds()).isEmpty();
    }
    assertThat(count(server, db)).isEqualTo(5000);
  }

  @Test
  void pullMode_runsTheSourceThroughTheSameStageAndBudget() throws Exception {
    String db = table("sink_pull");
    ClickHouseSink<Row> sink = sink(server, db).budgetBytes(16 * 1024).build();
    SourceAcks acks = sink.source("pull");
    int[] next = {0};
    DeliveryReport report = sink.run(out -> {
      if (next[0] >= 40) {
        return false;
      }
      SourceBatch batch = acks.begin();
      for (int i = 0; i < 250; i++) {
        long id = next[0] * 250L + i;
        out.push(new Envelope<>(new Row(id, "k" + id, id), new RecordMeta(0L, id), batch));
      }
      batch.complete();
      next[0]++;
      return true;
    }, Duration.ofSeconds(30));
    assertThat(report.allDelivered()).as(report.summary()).isTrue();
    assertThat(report.rowsPushed()).isEqualTo(10_000);
    assertThat(acks.checkpoint()).isEqualTo(39);
    assertThat(count(server, db)).isEqualTo(10_000);
    assertThatThrownBy(() -> sink.push(new Row(1, "x", 1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void serverDownThenUp_everyRowArrivesAfterRetries() throws Exception {
    try (ClickHouseServer own = ClickHouseServer.start()) {
      String db = table(own, "sink_down");
      ClickHouseSink<Row> sink = sink(own, db).maxChunkAge(Duration.ofMillis(50)).build();
      own.stop();
      for (int i = 0; i < 3000; i++) {
        sink.push(new Row(i, "k" + i, i));
      }
      TimeUnit.MILLISECONDS.sleep(800); // aged chunks go out and fail while the server is down
      own.resume();
      DeliveryReport report = sink.close(Duration.ofSeconds(60));
      assertThat(report.allDelivered()).as(report.summary()).isTrue();
      assertThat(report.retries()).as("attempts while the server was down").isPositive();
      assertThat(count(own, db)).isEqualTo(3000);
    }
  }

  @Test
  void aPermanentlyRejectedRowIsDeadLetteredAndTheRestWritten(@TempDir Path dir) throws Exception {
    String db = server.uniqueDatabase("sink_dead");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, key String, v Float64,"
        + " _reject UInt8 MATERIALIZED throwIf(id = 777)) ENGINE = MergeTree ORDER BY tuple()");
    DeliveryReport report;
    try (ClickHouseSink<Row> sink = sink(server, db).format(InsertFormat.ROW_BINARY)
        .deadLetters(dir).build()) {
      for (int i = 0; i < 2000; i++) {
        sink.push(new Row(i, "k" + i, i));
      }
      report = sink.close(Duration.ofSeconds(60));
    }
    assertThat(report.allDelivered()).as(report.summary()).isTrue();
    assertThat(report.rowsDeadLettered()).isOne();
    assertThat(report.rowsWritten()).isEqualTo(1999);
    assertThat(report.reasons()).anyMatch(r -> r.contains("395"));
    assertThat(count(server, db)).isEqualTo(1999);
    try (var files = Files.list(dir)) {
      assertThat(files.count()).as("dead-letter files").isPositive();
    }
  }

  @Test
  void closeWithADeadlineWhileTheServerIsStalled_reportsWhatWasNotDelivered() throws Exception {
    try (ClickHouseServer own = ClickHouseServer.start()) {
      String db = table(own, "sink_stall");
      ClickHouseSink<Row> sink = sink(own, db).retry(RetryPolicy.none())
          .http(dev.handoff.clickhouse.http.ClickHouseHttpOptions.builder().url(own.httpUrl())
              .requestTimeout(Duration.ofSeconds(30)).build())
          .build();
      signal(own.pid(), "STOP");
      try {
        for (int i = 0; i < 1000; i++) {
          sink.push(new Row(i, "k" + i, i));
        }
        long start = System.nanoTime();
        DeliveryReport report = sink.close(Duration.ofSeconds(2));
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(report.allDelivered()).isFalse();
        assertThat(report.rowsNotDelivered()).isEqualTo(1000);
        assertThat(report.rowsWritten()).isZero();
        assertThat(report.drainTimedOut()).isTrue();
        assertThat(report.summary()).startsWith("delivered NONE of 1000 rows");
        assertThat(took).as("close returns near its deadline (plus the workers' grace)")
            .isLessThan(10_000);
      } finally {
        signal(own.pid(), "CONT");
      }
    }
  }

  @Test
  void closeThrowsWhenNothingWasDelivered() {
    String db = table("sink_loud");
    ClickHouseSink<Row> sink = sink(server, db).retry(RetryPolicy.none()).build();
    server.execute("DROP TABLE " + db + ".t"); // every insert now fails for good
    for (int i = 0; i < 100; i++) {
      sink.push(new Row(i, "k", i));
    }
    assertThatThrownBy(sink::close).isInstanceOf(DeliveryException.class)
        .hasMessageContaining("delivered NONE of 100 rows")
        .satisfies(e -> assertThat(((DeliveryException) e).report().rowsNotDelivered())
            .isEqualTo(100));
  }

  @Test
  void aBadRowUnderTheFailPolicyStopsTheSinkLoudly() {
    String db = table("sink_fail");
    ClickHouseSink<Row> sink = sink(server, db).onBadRow(dev.handoff.api.ErrorPolicy.FAIL).build();
    sink.push(new Row(1, "a", 1));
    assertThatThrownBy(() -> sink.push(new Row(-5, "b", 2)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped")
        .hasMessageContaining("id").hasMessageContaining("-5");
    assertThatThrownBy(() -> sink.awaitRoom(Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class);
    DeliveryReport report = sink.close(Duration.ofSeconds(10));
    assertThat(report.allDelivered()).isFalse();
    assertThat(report.rowsNotDelivered()).isEqualTo(2);
    assertThat(report.reasons()).anyMatch(r -> r.startsWith("stage stopped"));
  }

  @Test
  void aFatalInPullModeIsInTheReportThoughTheChainTookIt() throws Exception {
    String db = table("sink_pull_fatal");
    ClickHouseSink<Row> sink = sink(server, db).onBadRow(dev.handoff.api.ErrorPolicy.FAIL).build();
    SourceAcks acks = sink.source("pull");
    int[] calls = {0};
    DeliveryReport report = sink.run(out -> {
      SourceBatch batch = acks.begin();
      long id = calls[0]++ == 0 ? 1 : -1; // the second batch holds a row UInt64 refuses
      out.push(new Envelope<>(new Row(id, "k", 1), new RecordMeta(0L, 0L), batch));
      batch.complete();
      return calls[0] < 5;
    }, Duration.ofSeconds(10));
    assertThat(report.allDelivered()).isFalse();
    assertThat(report.rowsPushed()).isEqualTo(2);
    assertThat(report.reasons()).anyMatch(r -> r.startsWith("stage stopped") && r.contains("-1"));
    assertThat(acks.failedBatchIds()).contains(1L);
  }

  @Test
  void pushReportsPressureWhileTheBudgetIsFull() throws Exception {
    try (ClickHouseServer own = ClickHouseServer.start()) {
      String db = table(own, "sink_pressure");
      ClickHouseSink<Row> sink = sink(own, db).budgetBytes(8192).build();
      signal(own.pid(), "STOP");
      FlowControl last = FlowControl.CONTINUE;
      try {
        for (int i = 0; i < 5000 && last == FlowControl.CONTINUE; i++) {
          last = sink.push(new Row(i, "k" + i, i));
        }
        assertThat(last).as("push says BLOCKED once the budget fills").isEqualTo(FlowControl.BLOCKED);
        assertThat(sink.awaitRoom(Duration.ofMillis(200))).isFalse();
      } finally {
        signal(own.pid(), "CONT");
      }
      assertThat(sink.awaitRoom(Duration.ofSeconds(30))).isTrue();
      assertThat(sink.close(Duration.ofSeconds(30)).allDelivered()).isTrue();
    }
  }

  static void signal(long pid, String signal) throws Exception {
    Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    assertThat(p.waitFor()).as("kill -" + signal).isZero();
  }
}
