package dev.handoff.simulator.archfixture;

/** Violates the clock rule from inside the simulator's packages: only WallClock may do this. */
public final class SimulatorReadsClock {
  private SimulatorReadsClock() {}

  /** Reads the monotonic clock. */
  public static long now() {
    return System.nanoTime();
  }
}
