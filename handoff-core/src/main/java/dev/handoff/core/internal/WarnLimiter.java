package dev.handoff.core.internal;

import dev.handoff.api.HandoffClock;

/**
 * Allows at most {@code permits} events per window of time, by the injected clock; counts what
 * it suppressed so the next allowed warning can say so. Used on the pipeline thread only.
 */
public final class WarnLimiter {
  private final int permits;
  private final long windowNanos;
  private final HandoffClock clock;
  private long windowStart;
  private int used;
  private long suppressed;
  private boolean started;

  /** Creates a limiter of {@code permits} events per {@code windowNanos}. */
  public WarnLimiter(int permits, long windowNanos, HandoffClock clock) {
    this.permits = permits;
    this.windowNanos = windowNanos;
    this.clock = clock;
  }

  /** Returns whether an event may be logged now, and counts it. */
  public boolean tryAcquire() {
    long now = clock.nanoTime();
    if (!started || now - windowStart >= windowNanos) {
      started = true;
      windowStart = now;
      used = 0;
    }
    if (used < permits) {
      used++;
      return true;
    }
    suppressed++;
    return false;
  }

  /** Returns how many events were suppressed since the last call, and resets the count. */
  public long takeSuppressed() {
    long s = suppressed;
    suppressed = 0;
    return s;
  }
}
