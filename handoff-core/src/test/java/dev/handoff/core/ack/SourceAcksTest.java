package dev.handoff.core.ack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.AckSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

final class SourceAcksTest {

  /** Records every listener call. */
  private static final class Calls implements BatchListener {
    final List<String> calls = new ArrayList<>();

    @Override
    public synchronized void onResolved(SourceBatch batch, long checkpoint) {
      calls.add(batch.batchId() + ":" + batch.state() + "@" + checkpoint);
    }

    synchronized List<String> get() {
      return List.copyOf(calls);
    }
  }

  @Test
  void newTracker_startsBeforeTheFirstBatch() {
    SourceAcks acks = new SourceAcks("s");
    assertThat(acks.source()).isEqualTo("s");
    assertThat(acks.checkpoint()).isEqualTo(-1);
    assertThat(acks.nextBatchId()).isZero();
    assertThat(acks.pendingBatches()).isZero();
    assertThat(acks.failedBatchIds()).isEmpty();
    assertThat(acks.deliveredBatches()).isZero();
  }

  @Test
  void checkpoint_advancesOverContiguousDeliveredBatches() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 0, calls);

    SourceBatch b0 = acks.begin();
    SourceBatch b1 = acks.begin();
    SourceBatch b2 = acks.begin();
    assertThat(List.of(b0.batchId(), b1.batchId(), b2.batchId())).containsExactly(0L, 1L, 2L);
    assertThat(acks.pendingBatches()).isEqualTo(3);

    b0.complete();
    assertThat(acks.checkpoint()).isZero();
    b1.complete();
    assertThat(acks.checkpoint()).isEqualTo(1);
    b2.complete();
    assertThat(acks.checkpoint()).isEqualTo(2);

    assertThat(acks.pendingBatches()).isZero();
    assertThat(acks.deliveredBatches()).isEqualTo(3);
    assertThat(calls.get()).containsExactly("0:DELIVERED@0", "1:DELIVERED@1", "2:DELIVERED@2");
  }

  @Test
  void outOfOrderResolution_movesTheCheckpointOnlyWhenTheGapCloses() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 0, calls);
    SourceBatch b0 = acks.begin();
    SourceBatch b1 = acks.begin();
    SourceBatch b2 = acks.begin();
    AckSet chunkOfB0 = new AckSet();
    chunkOfB0.add(b0); // a chunk still holds batch 0

    b0.complete();
    b2.complete();
    b1.complete();
    assertThat(b0.state()).isEqualTo(SourceBatch.State.PENDING);
    assertThat(b1.state()).isEqualTo(SourceBatch.State.DELIVERED);
    assertThat(acks.checkpoint()).as("batch 0 is still held").isEqualTo(-1);
    assertThat(acks.pendingBatches()).isEqualTo(1);

    chunkOfB0.succeed();

    assertThat(acks.checkpoint()).isEqualTo(2);
    assertThat(calls.get()).containsExactly("2:DELIVERED@-1", "1:DELIVERED@-1", "0:DELIVERED@2");
  }

  @Test
  void failedBatch_letsTheTrackerForgetLaterBatchesSoMemoryStaysFlat() {
    SourceAcks acks = new SourceAcks("s");
    SourceBatch b0 = acks.begin();
    b0.fail(new IllegalStateException("x"));
    b0.complete();
    for (int i = 0; i < 10_000; i++) {
      acks.begin().complete();
    }
    SourceBatch open = acks.begin();
    assertThat(acks.checkpoint()).isEqualTo(-1);
    assertThat(acks.pendingBatches()).isEqualTo(1);
    assertThat(acks.windowSize()).as("nothing kept behind a failed head").isZero();
    assertThat(acks.deliveredBatches()).isEqualTo(10_000);
    assertThat(acks.toString()).contains("failed=[0]");
    open.complete();
    assertThat(acks.pendingBatches()).isZero();
  }

  @Test
  void failedBatch_stallsTheCheckpointForeverAndIsListed() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 0, calls);
    SourceBatch b0 = acks.begin();
    SourceBatch b1 = acks.begin();
    SourceBatch b2 = acks.begin();
    AckSet chunk = new AckSet();
    chunk.add(b1);
    b0.complete();
    b1.complete();
    b2.complete();

    IllegalStateException cause = new IllegalStateException("sink rejected the insert");
    chunk.fail(cause);

    assertThat(b1.state()).isEqualTo(SourceBatch.State.FAILED);
    assertThat(b1.failure()).isSameAs(cause);
    assertThat(acks.checkpoint()).isZero();
    assertThat(acks.failedBatchIds()).containsExactly(1L);
    assertThat(acks.deliveredBatches()).isEqualTo(2);

    SourceBatch b3 = acks.begin();
    b3.complete();
    assertThat(acks.checkpoint()).as("later deliveries never pass a failed batch").isZero();
    assertThat(calls.get())
        .containsExactly("0:DELIVERED@0", "2:DELIVERED@0", "1:FAILED@0", "3:DELIVERED@0");
  }

  @Test
  void batchFailedBeforeItsSourceCompletes_resolvesFailedOnlyAtTheLastRelease() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 0, calls);
    SourceBatch b0 = acks.begin();
    b0.fail(new RuntimeException("first"));
    b0.fail(new RuntimeException("second"));
    assertThat(b0.state()).isEqualTo(SourceBatch.State.PENDING);
    assertThat(calls.get()).isEmpty();

    b0.complete();

    assertThat(b0.state()).isEqualTo(SourceBatch.State.FAILED);
    assertThat(b0.failure()).hasMessage("first");
    assertThat(acks.failedBatchIds()).containsExactly(0L);
    assertThat(acks.checkpoint()).isEqualTo(-1);
    assertThat(calls.get()).containsExactly("0:FAILED@-1");
  }

  @Test
  void listener_isCalledOncePerBatchEvenWithManyHolders() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 0, calls);
    SourceBatch b0 = acks.begin();
    AckSet a = new AckSet();
    AckSet b = new AckSet();
    a.add(b0);
    a.add(b0);
    b.add(b0);
    assertThat(b0.holders()).isEqualTo(4);

    b0.complete();
    a.succeed();
    assertThat(calls.get()).isEmpty();
    b.succeed();

    assertThat(calls.get()).containsExactly("0:DELIVERED@0");
    assertThat(b0.holders()).isZero();
  }

  @Test
  void retainAfterResolution_throwsNamingTheBatchAndState() {
    SourceAcks acks = new SourceAcks("orders");
    SourceBatch b0 = acks.begin();
    b0.complete();

    assertThatThrownBy(b0::retain)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("batch 0")
        .hasMessageContaining("orders")
        .hasMessageContaining("DELIVERED");
    assertThat(b0.state()).isEqualTo(SourceBatch.State.DELIVERED);
  }

  @Test
  void releaseMoreThanRetained_throwsAndDoesNotResolveTwice() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 0, calls);
    SourceBatch b0 = acks.begin();
    b0.retain();
    b0.release();
    b0.complete();

    assertThatThrownBy(b0::release)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("released more often than retained");
    assertThat(b0.holders()).isZero();
    assertThat(calls.get()).containsExactly("0:DELIVERED@0");
    assertThat(acks.deliveredBatches()).isEqualTo(1);
  }

  @Test
  void completeTwice_throws() {
    SourceAcks acks = new SourceAcks("s");
    SourceBatch b0 = acks.begin();
    b0.retain(); // a chunk still holds it, so the second complete would not be caught by release
    b0.complete();

    assertThatThrownBy(b0::complete)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("batch 0 completed twice");
    assertThat(b0.holders()).as("the second complete released nothing").isEqualTo(1);
    b0.release();
    assertThat(b0.state()).isEqualTo(SourceBatch.State.DELIVERED);
  }

  @Test
  void firstBatchId_resumesAfterACheckpoint() {
    Calls calls = new Calls();
    SourceAcks acks = new SourceAcks("s", 11, calls);
    assertThat(acks.checkpoint()).isEqualTo(10);
    assertThat(acks.nextBatchId()).isEqualTo(11);

    SourceBatch b = acks.begin();
    assertThat(b.batchId()).isEqualTo(11);
    assertThat(b.source()).isEqualTo("s");
    b.complete();

    assertThat(acks.checkpoint()).isEqualTo(11);
    assertThat(acks.nextBatchId()).isEqualTo(12);
    assertThat(calls.get()).containsExactly("11:DELIVERED@11");
  }

  @Test
  void invalidArguments_areRejected() {
    assertThatThrownBy(() -> new SourceAcks("s", -1, BatchListener.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("firstBatchId : -1");
    assertThatThrownBy(() -> new SourceAcks(null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new SourceAcks("s", 0, null))
        .isInstanceOf(NullPointerException.class);
  }

  /*
   * Real threads: the pipeline thread opens batches, retains each for 1 to 3 chunks and completes
   * it; worker threads release (or fail, for a fixed set of batches) those holds in whatever
   * order they get to them. Every batch must resolve exactly once, and the checkpoint must end
   * exactly before the first failed batch.
   */
  @Test
  void concurrentReleasesFromWorkers_resolveEachBatchOnceAndStopTheCheckpointAtTheFirstFailure() {
    runConcurrent(5_000, id -> id % 1_000 == 437, 436);
  }

  @Test
  void concurrentReleasesWithoutFailures_moveTheCheckpointToTheLastBatch() {
    runConcurrent(5_000, id -> false, 4_999);
  }

  private static void runConcurrent(
      int batches, LongPredicate failed, long expectedCheckpoint) {
    int workers = 4;
    ConcurrentHashMap<Long, AtomicInteger> listenerCalls = new ConcurrentHashMap<>();
    ConcurrentHashMap<Long, SourceBatch.State> statesSeen = new ConcurrentHashMap<>();
    SourceAcks acks = new SourceAcks("s", 0, (batch, checkpoint) -> {
      listenerCalls.computeIfAbsent(batch.batchId(), k -> new AtomicInteger()).incrementAndGet();
      statesSeen.put(batch.batchId(), batch.state());
    });
    BlockingQueue<AckSet> work = new LinkedBlockingQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> error = new AtomicReference<>();
    AtomicInteger setsResolved = new AtomicInteger();
    AtomicInteger setsMade = new AtomicInteger();
    AtomicBoolean pipelineDone = new AtomicBoolean();

    Thread pipeline = new Thread(() -> {
      try {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < batches && !stop.get(); i++) {
          SourceBatch b = acks.begin();
          int chunks = random.nextInt(1, 4);
          for (int c = 0; c < chunks; c++) {
            AckSet set = new AckSet();
            set.add(b);
            setsMade.incrementAndGet();
            work.add(set);
          }
          b.complete();
        }
      } catch (Throwable e) {
        error.compareAndSet(null, e);
      } finally {
        pipelineDone.set(true);
      }
    }, "acks-pipeline");
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      threads.add(new Thread(() -> {
        try {
          while (!stop.get() && !(pipelineDone.get() && work.isEmpty())) {
            AckSet set = work.poll(10, TimeUnit.MILLISECONDS);
            if (set == null) {
              continue;
            }
            if (failed.test(set.batchIdAt(0))) {
              set.fail(new RuntimeException("write failed"));
            } else {
              set.succeed();
            }
            setsResolved.incrementAndGet();
          }
        } catch (Throwable e) {
          error.compareAndSet(null, e);
        }
      }, "acks-worker-" + w));
    }
    threads.add(pipeline);
    threads.forEach(t -> {
      t.setDaemon(true);
      t.start();
    });
    try {
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
          .until(() -> error.get() != null || threads.stream().noneMatch(Thread::isAlive));
    } finally {
      stop.set(true);
      await().atMost(Duration.ofSeconds(30))
          .until(() -> threads.stream().noneMatch(Thread::isAlive));
    }

    assertThat(error.get()).as("error in a test thread").isNull();
    assertThat(setsResolved.get()).isEqualTo(setsMade.get());
    assertThat(acks.pendingBatches()).isZero();
    assertThat(acks.checkpoint()).isEqualTo(expectedCheckpoint);
    assertThat(listenerCalls).hasSize(batches);
    assertThat(listenerCalls.values()).allMatch(n -> n.get() == 1);
    long failedCount = 0;
    for (long id = 0; id < batches; id++) {
      SourceBatch.State expected =
          failed.test(id) ? SourceBatch.State.FAILED : SourceBatch.State.DELIVERED;
      assertThat(statesSeen.get(id)).as("batch %s", id).isEqualTo(expected);
      if (failed.test(id)) {
        failedCount++;
      }
    }
    assertThat(acks.failedBatchIds()).hasSize((int) failedCount).doesNotHaveDuplicates();
    assertThat(acks.deliveredBatches()).isEqualTo(batches - failedCount);
  }
}
