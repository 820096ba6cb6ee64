package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.simulator.report.SweepSummary;
import org.junit.jupiter.api.Test;

/**
 * A short swarm sweep over the real core classes, which the mutation testing run uses to kill
 * core's mutants ({@code docs/mutation-testing.md}): every oracle must pass on every seed. It also
 * runs in the normal build, where it repeats a slice of {@link SmokeSweepTest}.
 */
final class PitSweepTest {
  static final long SEEDS = 300;

  @Test
  void aSweepOfSwarmSeeds_passesEveryOracle() {
    SweepSummary s = Sweep.run(1, SEEDS, 1, false, null);

    assertThat(s.failures()).isEmpty();
    assertThat(s.seedsFailed()).isZero();
  }
}
