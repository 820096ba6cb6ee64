package dev.handoff.simulator.archfixture;

/** Test fixture: stands for any class of the future simulator module. */
public final class FixtureSimulator {
  private FixtureSimulator() {}

  /** Does nothing. */
  public static void run() {}
}
