package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class InflightBudgetTest {

  @Test
  void addAndRelease_moveTheBytesInFlight() {
    InflightBudget budget = new InflightBudget(1_000);

    budget.add(300);
    budget.add(200);
    assertThat(budget.inflightBytes()).isEqualTo(500);
    budget.release(120);
    assertThat(budget.inflightBytes()).isEqualTo(380);
    budget.release(380);
    assertThat(budget.inflightBytes()).isZero();
  }

  @Test
  void addAndReleaseOfZeroBytes_changeNothing() {
    InflightBudget budget = new InflightBudget(10);
    budget.add(0);
    budget.release(0);
    assertThat(budget.inflightBytes()).isZero();
  }

  @Test
  void releaseBelowZero_throwsWithTheNumbersAndLeavesTheValueUnchanged() {
    InflightBudget budget = new InflightBudget(4_096);
    budget.add(37);

    assertThatThrownBy(() -> budget.release(50))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("50")
        .hasMessageContaining("37")
        .hasMessageContaining("4096");
    assertThat(budget.inflightBytes()).isEqualTo(37);

    budget.release(37);
    assertThatThrownBy(() -> budget.release(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("releasing 1 bytes with only 0 in flight");
    assertThat(budget.inflightBytes()).isZero();
  }

  @Test
  void negativeAmounts_areRejectedWithoutChangingTheValue() {
    InflightBudget budget = new InflightBudget(100);
    budget.add(10);

    assertThatThrownBy(() -> budget.add(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> budget.release(-5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-5");
    assertThat(budget.inflightBytes()).isEqualTo(10);
  }

  @Test
  void hasRoom_isTrueStrictlyBelowTheLimit() {
    InflightBudget budget = new InflightBudget(100);
    assertThat(budget.hasRoom()).isTrue();
    budget.add(99);
    assertThat(budget.hasRoom()).isTrue();
    budget.add(1);
    assertThat(budget.hasRoom()).as("at the limit").isFalse();
    budget.add(50);
    assertThat(budget.hasRoom()).as("past the limit (the stage may overshoot)").isFalse();
    assertThat(budget.inflightBytes()).isEqualTo(150);
    budget.release(51);
    assertThat(budget.hasRoom()).isTrue();
    assertThat(budget.limitBytes()).isEqualTo(100);
  }

  @Test
  void unlimited_hasRoomForAnyRealisticAmount() {
    InflightBudget budget = InflightBudget.unlimited();
    budget.add(Long.MAX_VALUE / 2);
    assertThat(budget.hasRoom()).isTrue();
    assertThat(budget.limitBytes()).isEqualTo(Long.MAX_VALUE);
    budget.release(Long.MAX_VALUE / 2);
  }

  @Test
  void invalidLimit_isRejectedWithTheValue() {
    assertThatThrownBy(() -> new InflightBudget(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limitBytes : 0");
    assertThatThrownBy(() -> new InflightBudget(-7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-7");
  }

  @Test
  void toString_showsInflightAndLimit() {
    InflightBudget budget = new InflightBudget(64);
    budget.add(5);
    assertThat(budget.toString()).contains("inflight=5").contains("limit=64");
  }

  /*
   * The pipeline thread adds and workers release at the same time. Each thread here adds an
   * amount and releases it later, in random interleavings; balanced work must end at exactly 0
   * and no release may ever see the value below what that thread itself still holds.
   */
  @Test
  void concurrentBalancedAddsAndReleases_endAtZeroAndNeverThrow() throws Exception {
    int threads = 8;
    int rounds = 20_000;
    InflightBudget budget = new InflightBudget(1L << 40);
    AtomicLong maxSeen = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        futures.add(pool.submit(() -> {
          SplittableRandom random = new SplittableRandom(seed);
          long[] held = new long[4];
          int n = 0;
          start.await();
          for (int i = 0; i < rounds; i++) {
            if (n < held.length && (n == 0 || random.nextBoolean())) {
              long bytes = random.nextInt(1, 10_000);
              budget.add(bytes);
              held[n++] = bytes;
            } else {
              budget.release(held[--n]);
            }
            long now = budget.inflightBytes();
            maxSeen.accumulateAndGet(now, Math::max);
          }
          while (n > 0) {
            budget.release(held[--n]);
          }
          return null;
        }));
      }
      start.countDown();
      await().atMost(Duration.ofSeconds(30)).until(() -> futures.stream().allMatch(Future::isDone));
      for (Future<?> f : futures) {
        f.get(); // rethrows any IllegalStateException a release threw
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(budget.inflightBytes()).isZero();
    assertThat(maxSeen.get()).isPositive().isLessThanOrEqualTo(threads * 4L * 10_000);
  }

  /*
   * Releases that race for the last bytes: exactly the amount that was added can be released,
   * every surplus release throws, and the value never dips below zero.
   */
  @Test
  void concurrentOverRelease_letsExactlyTheAddedBytesGoAndRejectsTheRest() throws Exception {
    int threads = 6;
    InflightBudget budget = new InflightBudget(1_000_000);
    budget.add(1_000);
    AtomicLong released = new AtomicLong();
    AtomicLong rejected = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 100; i++) {
            try {
              budget.release(3);
              released.addAndGet(3);
            } catch (IllegalStateException e) {
              rejected.incrementAndGet();
            }
            assertThat(budget.inflightBytes()).isNotNegative();
          }
          return null;
        }));
      }
      start.countDown();
      await().atMost(Duration.ofSeconds(30)).until(() -> futures.stream().allMatch(Future::isDone));
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(released.get()).isEqualTo(999); // 333 releases of 3 fit into 1000
    assertThat(budget.inflightBytes()).isEqualTo(1);
    assertThat(rejected.get()).isEqualTo(threads * 100L - 333);
  }
}
