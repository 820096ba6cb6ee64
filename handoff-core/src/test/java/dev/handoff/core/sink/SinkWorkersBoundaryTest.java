package dev.handoff.core.sink;

import static dev.handoff.core.sink.SinkFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.EncodedChunk;
import dev.handoff.api.spi.Insert;
import dev.handoff.core.InflightBudget;
import dev.handoff.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Exact limits and prompt settling of the sink workers: merge limits at the byte, the retry
 * deadline at the nanosecond, chunks failed by policy while the workers still run, and the
 * events and gauges a caller reads. (Gaps a PIT run showed: docs/mutation-testing.md.)
 */
final class SinkWorkersBoundaryTest {
  private final List<SinkWorkers> started = new ArrayList<>();

  @AfterEach
  void tearDown() {
    started.forEach(SinkWorkers::close);
  }

  private SinkWorkers start(SinkWorkers.Builder b) {
    SinkWorkers w = b.pollInterval(Duration.ofMillis(5)).shutdownGrace(Duration.ofMillis(200))
        .build();
    started.add(w);
    w.start();
    return w;
  }

  @Test
  void chunksMergeUpToExactlyMaxInsertBytesAndTheNextOneStartsANewInsert() {
    SinkFixture f = new SinkFixture(1, 16);
    for (int i = 0; i < 7; i++) {
      f.send(0, ids(i * 2L, 2)); // 16 bytes each
    }
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ofHours(1)).maxInsertBytes(48));
    w.shutdown(Duration.ofSeconds(5));

    assertThat(writer.written).extracting(Insert::bytes).containsExactly(48L, 48L, 16L);
    assertThat(writer.written).extracting(Insert::rows).containsExactly(6, 6, 2);
  }

  @Test
  void aChunkThatWouldPassMaxInsertBytesStartsTheNextInsert() {
    SinkFixture f = new SinkFixture(1, 16);
    for (int i = 0; i < 5; i++) {
      f.send(0, ids(i * 2L, 2)); // 16 bytes each
    }
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ofHours(1)).maxInsertBytes(40));
    w.shutdown(Duration.ofSeconds(5));

    assertThat(writer.written).extracting(Insert::bytes).containsExactly(32L, 32L, 16L);
  }

  @Test
  void aChunkThatWouldPassMaxInsertRowsStartsTheNextInsert() {
    SinkFixture f = new SinkFixture(1, 16);
    for (int i = 0; i < 5; i++) {
      f.send(0, ids(i * 2L, 2));
    }
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ofHours(1)).maxInsertRows(5));
    w.shutdown(Duration.ofSeconds(5));

    assertThat(writer.written).extracting(Insert::rows).containsExactly(4, 4, 2);
  }

  @Test
  void chunksMergeUpToExactlyMaxInsertRows() {
    SinkFixture f = new SinkFixture(1, 16);
    for (int i = 0; i < 5; i++) {
      f.send(0, ids(i * 3L, 3));
    }
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ofHours(1)).maxInsertRows(6));
    w.shutdown(Duration.ofSeconds(5));

    assertThat(writer.written).extracting(Insert::rows).containsExactly(6, 6, 3);
  }

  @Test
  void aRetryWhoseWaitEndsExactlyAtMaxElapsedIsStillMade() {
    SinkFixture f = new SinkFixture(1, 4);
    EncodedChunk c = f.send(0, ids(0, 1));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> ScriptedWriter.transientError();
    RetryPolicy retry = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(100), 0.0,
        Duration.ofMillis(100));
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ZERO).retry(retry));
    await().atMost(Duration.ofSeconds(10)).until(() -> f.failed(c));
    w.shutdown(Duration.ofSeconds(5));

    // Attempt 1 at 0 ms, its wait ends at 100 ms = maxElapsed: allowed. Attempt 2's would end at
    // 200 ms: given up.
    assertThat(writer.attempts).hasSize(2);
  }

  @Test
  void underFailAcksARejectedInsertFailsAndLeavesTheBudgetAtOnce_notAtShutdown() {
    SinkFixture f = new SinkFixture(1, 4);
    EncodedChunk bad = f.send(0, ids(0, 2));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.poison.add(1L);
    start(SinkWorkers.builder(f.queues, f.budget, writer).linger(Duration.ZERO)
        .onPermanent(PermanentPolicy.FAIL_ACKS));

    await().atMost(Duration.ofSeconds(10)).until(() -> f.failed(bad));
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void underDeadLetterAChunkWhoseDeadLetterIsLostFailsAtOnce_notAtShutdown() {
    SinkFixture f = new SinkFixture(1, 4);
    EncodedChunk bad = f.send(0, ids(0, 2));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.poison.add(1L);
    start(SinkWorkers.builder(f.queues, f.budget, writer).linger(Duration.ZERO)
        .onPermanent(PermanentPolicy.DEAD_LETTER)
        .deadLetters((insert, cause) -> {
          throw new java.io.IOException("disk full");
        }));

    await().atMost(Duration.ofSeconds(10)).until(() -> f.failed(bad));
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void theListenerHearsEveryInsertWithItsRowsAndBytes() {
    SinkFixture f = new SinkFixture(2, 4);
    f.send(0, ids(0, 3));
    f.send(1, ids(3, 1));
    List<long[]> heard = new CopyOnWriteArrayList<>();
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, new ScriptedWriter(2))
        .linger(Duration.ZERO).listener(new WorkerListener() {
          @Override
          public void inserted(int shard, int rows, long bytes, long nanos) {
            heard.add(new long[] {shard, rows, bytes});
          }
        }));
    w.shutdown(Duration.ofSeconds(5));

    assertThat(heard).extracting(a -> a[0] + ":" + a[1] + ":" + a[2])
        .containsExactlyInAnyOrder("0:3:24", "1:1:8");
  }

  @Test
  void theTotalQueueDepthIsTheSumOverTheShards() {
    SinkFixture f = new SinkFixture(3, 8);
    f.send(0, ids(0, 1));
    f.send(1, ids(1, 1));
    f.send(1, ids(2, 1));
    f.send(2, ids(3, 1));
    SinkWorkers w = SinkWorkers.builder(f.queues, f.budget, new ScriptedWriter(3)).build();
    started.add(w); // never started: the chunks stay queued

    WorkerMetrics m = w.metrics();
    assertThat(m.shards()).extracting(WorkerMetrics.PerShard::queuedChunks)
        .containsExactly(1, 2, 1);
    assertThat(m.total().queuedChunks()).isEqualTo(4);
  }

  @Test
  void theDefaultWorkerThreadsAreDaemonsNamedByShard() {
    SinkFixture f = new SinkFixture(2, 4);
    start(SinkWorkers.builder(f.queues, f.budget, new ScriptedWriter(2)));

    List<Thread> workers = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("handoff-sink-") && t.isAlive()).toList();
    assertThat(workers).extracting(Thread::getName)
        .contains("handoff-sink-0", "handoff-sink-1");
    assertThat(workers).allMatch(Thread::isDaemon, "daemon");
  }

  @Test
  void aChunkWaitsForTheLingerOnTheClockBeforeItIsWritten() throws InterruptedException {
    SinkFixture f = new SinkFixture(1, 4);
    f.send(0, ids(0, 1));
    ManualClock clock = new ManualClock();
    clock.advance(Duration.ofSeconds(5)); // the linger is measured from the take, not from zero
    ScriptedWriter writer = new ScriptedWriter(1);
    start(SinkWorkers.builder(f.queues, f.budget, writer).clock(clock)
        .linger(Duration.ofSeconds(1)));
    Thread.sleep(200); // many real polls; the manual clock has not moved
    assertThat(writer.attempts).as("written before the linger passed").isEmpty();
    clock.advance(Duration.ofSeconds(1));
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.written.size() == 1);
  }

  @Test
  void aFullBudgetEndsTheLinger_theProducerWaitsForTheseChunks() {
    SinkFixture f = new SinkFixture(1, 8);
    f.send(0, ids(0, 1));
    f.send(0, ids(1, 1));
    InflightBudget full = new InflightBudget(16);
    full.add(64); // more than the limit: the producer is blocked
    ScriptedWriter writer = new ScriptedWriter(1);
    start(SinkWorkers.builder(f.queues, full, writer).clock(new ManualClock())
        .linger(Duration.ofHours(1)));
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.written.size() == 1);
    assertThat(writer.written.get(0).rows()).as("what was queued, merged").isEqualTo(2);
  }

  @Test
  void endLingerSendsWhatIsQueuedWithoutWaitingAndLaterInsertsLingerAgain()
      throws InterruptedException {
    SinkFixture f = new SinkFixture(1, 8);
    f.send(0, ids(0, 1));
    f.send(0, ids(1, 1));
    ManualClock clock = new ManualClock();
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer).clock(clock)
        .linger(Duration.ofHours(1)));
    Thread.sleep(100); // lingering: the manual clock does not move
    assertThat(writer.attempts).isEmpty();
    w.endLinger();
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.written.size() == 1);
    assertThat(writer.written.get(0).rows()).as("both queued chunks in one insert").isEqualTo(2);

    f.send(0, ids(2, 1));
    Thread.sleep(100);
    assertThat(writer.written).as("the next insert lingers again").hasSize(1);
    w.endLinger();
    await().atMost(Duration.ofSeconds(10)).until(() -> writer.written.size() == 2);
  }

  @Test
  void afterTheRetryDeadlineTheWorkerGoesOnWithTheNext() {
    SinkFixture f = new SinkFixture(1, 4);
    EncodedChunk first = f.send(0, ids(0, 1));
    EncodedChunk second = f.send(0, ids(1, 1));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> SinkFixture.decode(i.frames().get(0)).contains(0L)
        ? ScriptedWriter.transientError() : null;
    // Attempt 2 fails at 1 ms; a third would start at 2 ms, past maxElapsed: given up.
    RetryPolicy twice = new RetryPolicy(10, Duration.ofMillis(1), Duration.ofMillis(1), 0.0,
        Duration.ofMillis(1));
    start(SinkWorkers.builder(f.queues, f.budget, writer).clock(new ManualClock())
        .linger(Duration.ZERO).maxInsertRows(1).retry(twice));

    await().atMost(Duration.ofSeconds(10)).until(() -> f.delivered(second));
    assertThat(f.failed(first)).isTrue();
  }

  @Test
  void afterRetriesRunOutTheWorkerGoesOnWithTheNext() {
    SinkFixture f = new SinkFixture(1, 4);
    EncodedChunk first = f.send(0, ids(0, 1));
    EncodedChunk second = f.send(0, ids(1, 1));
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> SinkFixture.decode(i.frames().get(0)).contains(0L)
        ? ScriptedWriter.transientError() : null;
    RetryPolicy once = new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), 0.0,
        Duration.ofHours(1));
    start(SinkWorkers.builder(f.queues, f.budget, writer).clock(new ManualClock())
        .linger(Duration.ZERO).maxInsertRows(1).retry(once));

    await().atMost(Duration.ofSeconds(10)).until(() -> f.delivered(second));
    assertThat(f.failed(first)).isTrue();
  }
}
