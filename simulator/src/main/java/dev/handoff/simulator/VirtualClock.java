package dev.handoff.simulator;

import dev.handoff.api.HandoffClock;

/**
 * The simulation's clock: virtual time in ticks of one millisecond, advanced only by the
 * scheduler. A sink worker's {@link #sleep} is a wait in virtual time ({@link SimRuntime}); any
 * other thread's refuses.
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

  /** The runtime of the sink workers of the current lifetime: their sleeps are its waits. */
  SimRuntime runtime;

  @Override
  public void sleep(long nanos) throws InterruptedException {
    SimRuntime t = runtime;
    if (t == null || t.current() == null) {
      throw new IllegalStateException("only the simulated sink workers sleep; the scheduler"
          + " moves time for the rest");
    }
    t.sleep(nanos);
  }
}
