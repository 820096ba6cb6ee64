package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The latency bound on a manual clock: a row in an open chunk goes out once the chunk is {@code
 * maxChunkAge} old, though the application calls nothing after {@code push}.
 */
final class MaxChunkAgeServerTest {
  static final ClickHouseServer server = ClickHouseServer.shared();

  @Test
  void anOpenChunkSealsAtMaxAgeWithoutAnyCallFromTheApplication() throws Exception {
    String db = ClickHouseSinkServerTest.table("sink_age");
    ManualClock clock = new ManualClock();
    ClickHouseSink<ClickHouseSinkServerTest.Row> sink = ClickHouseSinkServerTest.sink(server, db)
        .clock(clock).maxChunkAge(Duration.ofSeconds(10)).linger(Duration.ZERO).build();
    sink.push(new ClickHouseSinkServerTest.Row(1, "a", 1));
    sink.push(new ClickHouseSinkServerTest.Row(2, "b", 2));

    clock.advance(Duration.ofMillis(9_999));
    TimeUnit.MILLISECONDS.sleep(300); // many ticks: none may seal a chunk younger than 10 s
    assertThat(ClickHouseSinkServerTest.count(server, db)).isZero();

    clock.advance(Duration.ofMillis(1));
    await().atMost(Duration.ofSeconds(20))
        .until(() -> ClickHouseSinkServerTest.count(server, db) == 2);
    assertThat(sink.close(Duration.ofSeconds(10)).allDelivered()).isTrue();
  }

  @Test
  void inPullModeAnAgedChunkGoesOutWhileTheSourceIsBlockedInsidePushNext() throws Exception {
    String db = ClickHouseSinkServerTest.table("sink_age_pull");
    ClickHouseSink<ClickHouseSinkServerTest.Row> sink = ClickHouseSinkServerTest.sink(server, db)
        .maxChunkAge(Duration.ofMillis(50)).linger(Duration.ZERO).build();
    AtomicLong seenWhileBlocked = new AtomicLong(-1);
    int[] calls = {0};
    DeliveryReport report = sink.run(out -> {
      if (calls[0]++ > 0) {
        return false;
      }
      out.push(new Envelope<>(new ClickHouseSinkServerTest.Row(7, "k", 7),
          new RecordMeta(0L, 7L), dev.handoff.api.Ack.NONE));
      // Block inside pushNext, as a source waiting for input does; the row must still go out.
      await().atMost(Duration.ofSeconds(20))
          .until(() -> ClickHouseSinkServerTest.count(server, db) == 1);
      seenWhileBlocked.set(ClickHouseSinkServerTest.count(server, db));
      return true;
    }, Duration.ofSeconds(10));
    assertThat(seenWhileBlocked.get()).as("rows in the table while the source was blocked")
        .isEqualTo(1);
    assertThat(report.allDelivered()).as(report.summary()).isTrue();
  }
}
