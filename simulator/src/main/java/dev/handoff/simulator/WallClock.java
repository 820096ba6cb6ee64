package dev.handoff.simulator;

/**
 * The only place in the simulator that reads real time, and only to report how long runs and
 * sweeps took (wall time, events and records per second). Nothing a run decides depends on it;
 * the architecture rule that keeps the system clock out of every other class names this one.
 */
final class WallClock {
  private WallClock() {}

  static long nanoTime() {
    return System.nanoTime();
  }
}
