package dev.handoff.testkit;

import dev.handoff.api.HandoffClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to: {@link #advance} moves it, and {@link #sleep} advances it
 * by the requested time instead of waiting. Thread-safe.
 */
public final class ManualClock implements HandoffClock {
  private final AtomicLong nanos;
  private final long epochMillisAtZero;

  /** Creates a clock at nano time 0 and wall time 2026-01-01T00:00:00Z. */
  public ManualClock() {
    this(1_767_225_600_000L);
  }

  /** Creates a clock at nano time 0 and the given wall time. */
  public ManualClock(long epochMillisAtZero) {
    this.nanos = new AtomicLong();
    this.epochMillisAtZero = epochMillisAtZero;
  }

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public long millis() {
    return epochMillisAtZero + nanos.get() / 1_000_000L;
  }

  /** Advances the clock by {@code nanos} instead of waiting. */
  @Override
  public void sleep(long nanos) {
    if (nanos > 0) {
      this.nanos.addAndGet(nanos);
    }
  }

  /** Advances the clock by {@code duration}. */
  public void advance(Duration duration) {
    sleep(duration.toNanos());
  }

  /** Advances the clock by {@code nanos}. */
  public void advanceNanos(long nanos) {
    sleep(nanos);
  }

  @Override
  public String toString() {
    return "ManualClock{nanos=" + nanos.get() + '}';
  }
}
