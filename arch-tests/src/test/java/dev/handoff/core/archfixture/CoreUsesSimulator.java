package dev.handoff.core.archfixture;

import dev.handoff.simulator.archfixture.FixtureSimulator;

/** Test fixture: a core class that calls into the simulator (forbidden). */
public final class CoreUsesSimulator {
  void f() {
    FixtureSimulator.run();
  }
}
