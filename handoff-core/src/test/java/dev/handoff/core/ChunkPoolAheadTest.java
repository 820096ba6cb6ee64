package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A pool that allocates its arrays ahead of the takes, on an executor. */
final class ChunkPoolAheadTest {

  /** An executor that queues its tasks until the test runs them. */
  private static final class Tasks implements java.util.concurrent.Executor {
    final ArrayDeque<Runnable> queued = new ArrayDeque<>();
    int submitted;

    @Override
    public void execute(Runnable task) {
      submitted++;
      queued.add(task);
    }

    void runAll() {
      while (!queued.isEmpty()) {
        queued.poll().run();
      }
    }
  }

  @Test
  void aTakeThatLeavesTooFewFree_submitsOneTask_whichAllocatesUpToAhead() {
    Tasks tasks = new Tasks();
    ChunkPool pool = new ChunkPool(16, 8).allocatingAhead(tasks, 3);

    byte[] first = pool.take(); // none free yet: the take allocates for itself
    byte[] second = pool.take(); // a task is pending already: no second one
    assertThat(tasks.submitted).isOne();
    assertThat(pool.allocated()).isEqualTo(2);
    assertThat(pool.free()).isZero();

    tasks.runAll();
    assertThat(pool.free()).isEqualTo(3);
    assertThat(pool.allocated()).isEqualTo(5);
    // Arrays made ahead are free, not on loan: the budget's count of loans does not see them.
    assertThat(pool.onLoan()).isEqualTo(2);
    assertThat(pool.bytesOnLoan()).isEqualTo(32);

    byte[] third = pool.take(); // one made ahead: no allocation, and 2 < 3 free submits again
    assertThat(third).isNotSameAs(first).isNotSameAs(second).hasSize(16);
    assertThat(pool.allocated()).isEqualTo(5);
    assertThat(tasks.submitted).isEqualTo(2);
    tasks.runAll();
    assertThat(pool.free()).isEqualTo(3);
    assertThat(pool.allocated()).isEqualTo(6);
  }

  @Test
  void givenBackArraysComeFirst_andCountTowardAhead() {
    Tasks tasks = new Tasks();
    ChunkPool pool = new ChunkPool(16, 8).allocatingAhead(tasks, 2);
    byte[] a = pool.take();
    byte[] b = pool.take();
    byte[] c = pool.take();
    pool.give(a);
    pool.give(b);
    pool.give(c);
    tasks.runAll(); // three free already: the task allocates nothing
    assertThat(pool.allocated()).isEqualTo(3);
    assertThat(pool.take()).isSameAs(c); // the most recently given back, as without an executor
  }

  @Test
  void anExecutorThatRunsTheTaskAtOnce_doesNotDeadlock() {
    ChunkPool pool = new ChunkPool(16, 8).allocatingAhead(Runnable::run, 4);
    pool.take();
    assertThat(pool.free()).isEqualTo(4);
    assertThat(pool.allocated()).isEqualTo(5);
  }

  @Test
  void aRejectedTask_leavesTakesAllocatingForThemselves_andTheNextTakeSubmitsAgain() {
    int[] attempts = {0};
    ChunkPool pool = new ChunkPool(16, 8).allocatingAhead(task -> {
      attempts[0]++;
      throw new RejectedExecutionException("shut down");
    }, 2);
    List<byte[]> taken = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      taken.add(pool.take());
    }
    assertThat(attempts[0]).isEqualTo(5);
    assertThat(pool.allocated()).isEqualTo(5);
    assertThat(pool.onLoan()).isEqualTo(5);
    Set<byte[]> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
    distinct.addAll(taken);
    assertThat(distinct).hasSize(5);
  }

  @Test
  void theArgumentsAreChecked() {
    ChunkPool pool = new ChunkPool(16, 4);
    assertThatThrownBy(() -> pool.allocatingAhead(null, 1))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> pool.allocatingAhead(Runnable::run, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pool.allocatingAhead(Runnable::run, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 4");
    assertThatThrownBy(() -> ChunkPool.checked(16, 4).allocatingAhead(Runnable::run, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(pool.allocatingAhead(Runnable::run, 4).toString()).contains("4 ahead");
    assertThat(pool.maxFree()).isEqualTo(4);
  }

  @Test
  void underConcurrentTakesAndGives_everyArrayIsLentOnceAtATime_andTheCountsAddUp()
      throws Exception {
    ExecutorService allocator = Executors.newSingleThreadExecutor();
    ChunkPool pool = new ChunkPool(64, 16).allocatingAhead(allocator, 4);
    Set<byte[]> onLoan = Collections.synchronizedSet(
        Collections.newSetFromMap(new IdentityHashMap<>()));
    int threads = 3;
    int rounds = 20_000;
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> {
        try {
          ArrayDeque<byte[]> mine = new ArrayDeque<>();
          for (int i = 0; i < rounds; i++) {
            byte[] a = pool.take();
            if (!onLoan.add(a)) {
              throw new AssertionError("an array lent twice at once");
            }
            mine.add(a);
            if (mine.size() > 3 || (i & 1) == 0) {
              byte[] back = mine.poll();
              onLoan.remove(back);
              pool.give(back);
            }
          }
          for (byte[] a : mine) {
            onLoan.remove(a);
            pool.give(a);
          }
        } catch (Throwable e) {
          failures.add(e);
        } finally {
          done.countDown();
        }
      });
      worker.start();
    }
    assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
    allocator.shutdown();
    assertThat(allocator.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(failures).isEmpty();
    assertThat(pool.onLoan()).isZero();
    // The threads hold at most 12 arrays at once and the task stops at 4 free, so the pool never
    // fills its 16 places and drops none: every array it made is free again at the end.
    assertThat(pool.free()).isLessThanOrEqualTo(16);
    assertThat(pool.allocated()).isEqualTo(pool.free());
  }
}
