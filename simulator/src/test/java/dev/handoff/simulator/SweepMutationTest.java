package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.fail;

import org.junit.jupiter.api.Test;

/**
 * The sweep alone as a mutation net: swarm seeds {@code 1..}{@link #SEEDS}, one at a time, each
 * checked by every oracle; the first seed that fails ends the test with its failure text and
 * replay line. {@code simulator/mutation/pit-sweep.sh} runs PIT with this test as the only killing
 * test, so a surviving mutant costs one pass over the seeds and a killed one less (see {@code
 * docs/simulator.md}). It also runs in the normal build, as a slice of {@link SmokeSweepTest}.
 */
final class SweepMutationTest {
  /** Enough seeds for every fault and workload to occur; a pass takes a few seconds. */
  static final long SEEDS = 600;

  @Test
  void swarmSeeds_passEveryOracle_stoppingAtTheFirstFailure() {
    for (long seed = 1; seed <= SEEDS; seed++) {
      SimulationResult r = Simulation.run(SimulationOptions.swarm(seed));
      if (!r.passed()) {
        fail("swarm seed " + seed + " failed:\n" + r.failureText());
      }
    }
  }
}
