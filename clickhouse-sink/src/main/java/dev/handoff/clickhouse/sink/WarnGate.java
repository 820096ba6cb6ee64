package dev.handoff.clickhouse.sink;

import dev.handoff.api.HandoffClock;

/**
 * Lets at most {@code permits} warnings through per window of the injected clock and counts the
 * rest, so a sink that fails every insert logs a few lines, not thousands. Thread-safe: every
 * sink worker calls it.
 */
final class WarnGate {
  private final int permits;
  private final long windowNanos;
  private final HandoffClock clock;
  private long windowStart;
  private int used;
  private long suppressed;
  private boolean started;

  WarnGate(int permits, long windowNanos, HandoffClock clock) {
    this.permits = permits;
    this.windowNanos = windowNanos;
    this.clock = clock;
  }

  /**
   * Returns -1 when this warning is suppressed, else how many were suppressed since the last one
   * let through (to say so in the line).
   */
  synchronized long tryPass() {
    long now = clock.nanoTime();
    if (!started || now - windowStart >= windowNanos) {
      started = true;
      windowStart = now;
      used = 0;
    }
    if (used >= permits) {
      suppressed++;
      return -1;
    }
    used++;
    long s = suppressed;
    suppressed = 0;
    return s;
  }
}
