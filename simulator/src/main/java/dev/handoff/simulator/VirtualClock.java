package dev.handoff.simulator;

import dev.handoff.api.HandoffClock;

/**
 * The simulation's clock: virtual time in ticks of one millisecond, advanced only by the
 * scheduler. Nothing sleeps in a simulation, so {@link #sleep} refuses.
 */
final class VirtualClock implements HandoffClock {
  static final long NANOS_PER_TICK = 1_000_000L;

  long tick;

  @Override
  public long nanoTime() {
    return tick * NANOS_PER_TICK;
  }

  @Override
  public long millis() {
    return tick;
  }

  @Override
  public void sleep(long nanos) {
    throw new IllegalStateException("nothing sleeps in a simulation; the scheduler moves time");
  }
}
