package dev.handoff.clickhouse.sink;

import dev.handoff.api.HandoffClock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.LockSupport;

/** How a {@link ClickHouseSink} waits: polled conditions and its ticker's thread. */
final class Waiting {
  private static final long SLICE_NANOS = 1_000_000L;
  private static final long MAX_SLICE_NANOS = 50_000_000L;

  private Waiting() {}

  /** A condition polled while waiting; {@link java.util.function.BooleanSupplier} by name. */
  interface Condition {
    boolean holds();
  }

  /**
   * Polls {@code condition} until it holds or {@code timeout} passed on {@code clock}. Waits in
   * real slices of at most 50 ms and at most as many slices as the timeout holds, so a clock that
   * does not move (a manual one in a test) cannot make it wait forever.
   *
   * @return whether the condition held before the timeout
   * @throws InterruptedException if interrupted between polls
   */
  static boolean until(HandoffClock clock, Condition condition, Duration timeout)
      throws InterruptedException {
    long end = clock.nanoTime() + timeout.toNanos();
    long slices = timeout.toNanos() / SLICE_NANOS + 1;
    long wait = SLICE_NANOS;
    for (long i = 0; ; i++) {
      if (condition.holds()) {
        return true;
      }
      if (i >= slices || clock.nanoTime() - end >= 0) {
        return false;
      }
      LockSupport.parkNanos(wait);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      i += wait / SLICE_NANOS - 1;
      wait = Math.min(MAX_SLICE_NANOS, wait * 2);
    }
  }

  /** Returns the sink's own ticker: one daemon thread named after the table. */
  static ScheduledExecutorService defaultScheduler(String table) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "handoff-sink-ticker " + table);
      t.setDaemon(true);
      return t;
    });
  }
}
