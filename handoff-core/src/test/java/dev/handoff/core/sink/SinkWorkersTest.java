package dev.handoff.core.sink;

import static dev.handoff.core.sink.SinkFixture.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.AckSet;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Merging, order, retries and metrics of the sink workers, on real threads. */
final class SinkWorkersTest {
  private final long leaksBefore = AckSet.leaksDetected();
  private final List<SinkWorkers> started = new ArrayList<>();

  @AfterEach
  void tearDown() {
    started.forEach(SinkWorkers::close);
    assertThat(AckSet.leaksDetected()).as("ack sets leaked").isEqualTo(leaksBefore);
  }

  private SinkWorkers start(SinkWorkers.Builder b) {
    SinkWorkers w = b.pollInterval(Duration.ofMillis(5)).shutdownGrace(Duration.ofMillis(200))
        .build();
    started.add(w);
    w.start();
    return w;
  }

  @Test
  void mergesConsecutiveChunksUpToMaxInsertBytes() {
    SinkFixture f = new SinkFixture(1, 16);
    for (int i = 0; i < 6; i++) {
      f.send(0, ids(i * 2L, 2)); // 16 bytes each
    }
    ScriptedWriter writer = new ScriptedWriter(1);
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ofHours(1)).maxInsertBytes(48));

    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.written.size() == 2);
    assertThat(writer.written).extracting(Insert::frames).allSatisfy(fr -> assertThat(fr).hasSize(3));
    assertThat(writer.written).extracting(Insert::firstSequence, Insert::lastSequence)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 2L),
            org.assertj.core.groups.Tuple.tuple(3L, 5L));
    assertThat(writer.rows(0)).containsExactlyElementsOf(boxed(0, 12));
    WorkersReport report = w.shutdown(Duration.ofSeconds(5));
    assertThat(report.drained()).isTrue();
    assertThat(report.shards().get(0).inserts()).isEqualTo(2);
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(f.chunks).allMatch(f::delivered);
  }

  @Test
  void mergesUpToMaxInsertRowsAndWritesAnOversizedChunkAlone() {
    SinkFixture f = new SinkFixture(1, 16);
    f.send(0, ids(0, 2));
    f.send(0, ids(2, 2));
    f.send(0, ids(4, 10)); // more rows than the limit: alone
    f.send(0, ids(14, 1));
    ScriptedWriter writer = new ScriptedWriter(1);
    start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ofHours(1)).maxInsertRows(4));

    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.written.size() == 2);
    assertThat(writer.written).extracting(Insert::rows).containsExactly(4, 10);
    assertThat(writer.rows(0)).containsExactlyElementsOf(boxed(0, 14));
  }

  @Test
  void writesAPartialInsertOnceLingerPassesOnTheInjectedClock() throws Exception {
    SinkFixture f = new SinkFixture(1, 16);
    ManualClock clock = new ManualClock();
    ScriptedWriter writer = new ScriptedWriter(1);
    start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(clock).linger(Duration.ofSeconds(1)));
    f.send(0, ids(0, 3));
    f.send(0, ids(3, 3));

    Thread.sleep(100); // real time passes; the clock does not
    assertThat(writer.written).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.written.size() == 1);
    assertThat(writer.written.get(0).rows()).isEqualTo(6);
  }

  @Test
  void zeroLingerWritesWhatIsQueuedAtOnce() {
    SinkFixture f = new SinkFixture(1, 16);
    ScriptedWriter writer = new ScriptedWriter(1);
    start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ZERO));
    f.send(0, ids(0, 3));
    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.written.size() == 1);
    assertThat(f.budget.inflightBytes()).isZero();
  }

  @Test
  void eachShardWritesInSealOrderUnderRetriesWhileOtherShardsGoOn() throws Exception {
    SinkFixture f = new SinkFixture(2, 64);
    ScriptedWriter writer = new ScriptedWriter(2);
    CountDownLatch shard0Stuck = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    writer.script = i -> {
      if (i.shard() == 0 && i.firstSequence() == 3 && shard0Stuck.getCount() > 0) {
        return ScriptedWriter.transientError(); // shard 0 retries until the latch opens
      }
      if (i.shard() == 0 && calls.incrementAndGet() % 3 == 0 && i.attempt() < 3) {
        return ScriptedWriter.transientError();
      }
      return null;
    };
    SinkWorkers.Builder b = SinkWorkers.builder(f.queues, f.budget, writer)
        .linger(Duration.ZERO).maxInsertRows(1)
        .retry(new RetryPolicy(1_000_000, Duration.ofMillis(1), Duration.ofMillis(2), 0.5,
            Duration.ofHours(1)));
    start(b);
    for (int i = 0; i < 20; i++) {
      f.send(0, i);
      f.send(1, 1000 + i);
    }
    // Shard 1 finishes while shard 0 is held at its chunk 3.
    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.rows(1).size() == 20);
    assertThat(writer.rows(0)).containsExactly(0L, 1L, 2L);
    shard0Stuck.countDown();
    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.rows(0).size() == 20);
    assertThat(writer.rows(0)).containsExactlyElementsOf(boxed(0, 20));
    assertThat(writer.rows(1)).containsExactlyElementsOf(boxed(1000, 20));
    await().atMost(5, TimeUnit.SECONDS).until(() -> f.budget.inflightBytes() == 0);
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(f.chunks).allMatch(f::delivered);
  }

  @Test
  void transientThenSuccessReleasesOnceAndAcknowledgesOnce() {
    SinkFixture f = new SinkFixture(1, 4);
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> i.attempt() <= 2 ? ScriptedWriter.transientError() : null;
    List<Long> backoffs = new CopyOnWriteArrayList<>();
    List<Integer> retriedRows = new CopyOnWriteArrayList<>();
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ZERO)
        .retry(new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1), 0.0,
            Duration.ofMinutes(1)))
        .listener(new WorkerListener() {
          @Override
          public void retried(int shard, Insert insert, WriteException e, int attempt,
              long backoffNanos) {
            backoffs.add(backoffNanos);
            retriedRows.add(insert.rows());
          }
        }));
    EncodedChunk c = f.send(0, ids(0, 4));

    await().atMost(5, TimeUnit.SECONDS).until(() -> c.acks().isResolved());
    assertThat(writer.attempts).extracting(Insert::attempt).containsExactly(1, 2, 3);
    assertThat(backoffs).containsExactly(100_000_000L, 200_000_000L);
    assertThat(retriedRows).as("rows of each retried insert").containsExactly(4, 4);
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(f.delivered(c)).isTrue();
    assertThat(f.everyAckResolvedOnce()).isTrue();
    assertThat(w.metrics().total().retries()).isEqualTo(2);
    assertThat(w.metrics().total().rowsWritten()).isEqualTo(4);
  }

  @Test
  void runtimeExceptionsOfTheWriterAreRetriedLikeTransientFailures() {
    SinkFixture f = new SinkFixture(1, 4);
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> i.attempt() == 1 ? new IllegalStateException("writer bug") : null;
    start(SinkWorkers.builder(f.queues, f.budget, writer).clock(new ManualClock())
        .linger(Duration.ZERO));
    EncodedChunk c = f.send(0, ids(0, 2));
    await().atMost(5, TimeUnit.SECONDS).until(() -> c.acks().isResolved());
    assertThat(f.delivered(c)).isTrue();
    assertThat(writer.attempts).hasSize(2);
  }

  @Test
  void retriesRunningOutFailTheAcksAndReleaseTheBudget() {
    SinkFixture f = new SinkFixture(1, 4);
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> ScriptedWriter.transientError();
    AtomicInteger abandonedRows = new AtomicInteger();
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ZERO)
        .retry(new RetryPolicy(4, Duration.ofMillis(10), Duration.ofMillis(40), 0.2,
            Duration.ofHours(1)))
        .listener(new WorkerListener() {
          @Override
          public void abandoned(int shard, int chunks, int rows, Throwable cause) {
            abandonedRows.addAndGet(rows);
          }
        }));
    EncodedChunk c = f.send(0, ids(0, 3));

    await().atMost(5, TimeUnit.SECONDS).until(() -> c.acks().isResolved());
    assertThat(writer.attempts).hasSize(4);
    assertThat(f.failed(c)).isTrue();
    assertThat(f.budget.inflightBytes()).isZero();
    assertThat(abandonedRows).hasValue(3);
    assertThat(w.metrics().shard(0).abandonedChunks()).isEqualTo(1);
  }

  @Test
  void maxElapsedStopsRetriesBeforeTheAttemptsRunOut() {
    SinkFixture f = new SinkFixture(1, 4);
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> ScriptedWriter.transientError();
    start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ZERO)
        // waits 1, 2, 4, 8 s: the fourth would end 15 s after the start, past 10 s
        .retry(new RetryPolicy(100, Duration.ofSeconds(1), Duration.ofMinutes(1), 0.0,
            Duration.ofSeconds(10))));
    EncodedChunk c = f.send(0, ids(0, 1));
    await().atMost(5, TimeUnit.SECONDS).until(() -> c.acks().isResolved());
    assertThat(writer.attempts).hasSize(4);
    assertThat(f.failed(c)).isTrue();
  }

  @Test
  void jitteredBackoffsAreTheSameForTheSameSeedAndDifferForAnother() {
    assertThat(backoffsOf(7L)).isEqualTo(backoffsOf(7L)).isNotEqualTo(backoffsOf(8L));
    List<Long> b = backoffsOf(7L);
    RetryPolicy p = jittery();
    for (int i = 0; i < b.size(); i++) {
      long base = p.baseBackoffNanos(i + 1);
      assertThat(b.get(i)).isBetween((long) (base * (1 - p.jitter())), base);
    }
  }

  private static RetryPolicy jittery() {
    return new RetryPolicy(8, Duration.ofMillis(10), Duration.ofMillis(300), 0.5,
        Duration.ofHours(1));
  }

  private List<Long> backoffsOf(long seed) {
    SinkFixture f = new SinkFixture(1, 4);
    ScriptedWriter writer = new ScriptedWriter(1);
    writer.script = i -> ScriptedWriter.transientError();
    List<Long> backoffs = new CopyOnWriteArrayList<>();
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(new ManualClock()).linger(Duration.ZERO).seed(seed).retry(jittery())
        .listener(new WorkerListener() {
          @Override
          public void retried(int shard, Insert insert, WriteException e, int attempt,
              long backoffNanos) {
            backoffs.add(backoffNanos);
          }
        }));
    EncodedChunk c = f.send(0, ids(0, 1));
    await().atMost(5, TimeUnit.SECONDS).until(() -> c.acks().isResolved());
    w.close();
    assertThat(backoffs).hasSize(7);
    return backoffs;
  }

  @Test
  void metricsShowTheAgeOfTheOldestUnacknowledgedChunkPerShard() throws Exception {
    SinkFixture f = new SinkFixture(2, 4);
    ManualClock clock = new ManualClock();
    ScriptedWriter writer = new ScriptedWriter(2);
    CountDownLatch release = new CountDownLatch(1);
    writer.script = i -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return null;
    };
    SinkWorkers w = start(SinkWorkers.builder(f.queues, f.budget, writer)
        .clock(clock).linger(Duration.ZERO).maxInsertRows(1));
    clock.advance(Duration.ofSeconds(2));
    EncodedChunk held = f.chunk(0, clock.nanoTime(), ids(0, 1));
    f.queues.trySend(held);
    clock.advance(Duration.ofSeconds(3));
    f.queues.trySend(f.chunk(0, clock.nanoTime(), ids(1, 1))); // queued behind it

    await().atMost(5, TimeUnit.SECONDS).until(() -> writer.attempts.size() == 1);
    WorkerMetrics m = w.metrics();
    assertThat(m.shard(0).oldestUnackedAgeNanos()).isEqualTo(3_000_000_000L);
    assertThat(m.shard(0).queuedChunks()).isEqualTo(1);
    assertThat(m.shard(1).oldestUnackedAgeNanos()).isZero();
    assertThat(m.total().oldestUnackedAgeNanos()).isEqualTo(3_000_000_000L);
    release.countDown();
    await().atMost(5, TimeUnit.SECONDS)
        .until(() -> w.metrics().shard(0).oldestUnackedAgeNanos() == 0);
    assertThat(w.metrics().total().inserts()).isEqualTo(2);
  }

  @Test
  void theBudgetIsReleasedBeforeTheAcknowledgementsResolve() {
    SinkFixture f = new SinkFixture(1, 4);
    List<Long> budgetAtResolve = new CopyOnWriteArrayList<>();
    AckSet acks = new AckSet();
    acks.add(new dev.handoff.api.Ack() {
      @Override
      public long batchId() {
        return 0;
      }

      @Override
      public void retain() {}

      @Override
      public void release() {
        budgetAtResolve.add(f.budget.inflightBytes());
      }

      @Override
      public void fail(Throwable cause) {}
    });
    EncodedChunk c = new EncodedChunk(0, 0, dev.handoff.api.Frame.copyOf(new byte[16]), 2, acks,
        0L, 0L);
    f.budget.add(c.sizeBytes());
    f.queues.trySend(c);
    start(SinkWorkers.builder(f.queues, f.budget, insert -> { }).clock(new ManualClock())
        .linger(Duration.ZERO));
    await().atMost(5, TimeUnit.SECONDS).until(() -> acks.isResolved());
    assertThat(budgetAtResolve).containsExactly(0L);
  }

  private static List<Long> boxed(long from, int n) {
    return LongStream.range(from, from + n).boxed().toList();
  }
}
