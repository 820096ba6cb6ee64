package dev.handoff.simulator.archfixture;

import java.util.concurrent.ThreadLocalRandom;

/** Violates the simulator's randomness rule: a draw that no seed controls. */
public final class SimulatorUnseededRandom {
  private SimulatorUnseededRandom() {}

  /** Draws without a seed. */
  public static int draw() {
    return ThreadLocalRandom.current().nextInt();
  }
}
