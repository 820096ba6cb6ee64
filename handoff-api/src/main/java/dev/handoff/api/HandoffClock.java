package dev.handoff.api;

import java.time.Duration;

/**
 * The source of time for everything in handoff: a monotonic clock for durations, a wall clock for
 * timestamps, and a way to wait.
 *
 * <p>Nothing in the core reads the system clock directly; it asks the {@code HandoffClock} it was given.
 * The simulator gives a virtual clock whose {@link #sleep} advances simulated time, so a run is
 * deterministic and fast.
 */
public interface HandoffClock {

  /** Returns a monotonic time in nanoseconds, for measuring durations only. */
  long nanoTime();

  /** Returns the wall-clock time in milliseconds since the epoch. */
  long millis();

  /**
   * Waits for {@code nanos} nanoseconds (a virtual clock advances instead).
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  void sleep(long nanos) throws InterruptedException;

  /** Waits for {@code duration}. */
  default void sleep(Duration duration) throws InterruptedException {
    sleep(duration.toNanos());
  }

  /** Returns the clock backed by {@link System#nanoTime()} and {@link Thread#sleep}. */
  static HandoffClock system() {
    return SystemClock.INSTANCE;
  }
}

/** The system clock: the single place that reads real time. */
enum SystemClock implements HandoffClock {
  INSTANCE;

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public long millis() {
    return System.currentTimeMillis();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    if (nanos > 0) {
      Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
    }
  }
}
