package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Shrinking makes a failing run smaller and keeps the oracle it fails. */
final class ShrinkerTest {

  @Test
  void shrink_reducesAFailingRunAndKeepsTheSameOracle() {
    SimulationOptions o = SimulationOptions.defaults(5).with("mutation", "uncounted-skip")
        .with("record-error-rate", "0.02").with("stall-rate", "0.05")
        .with("sink-transient-rate", "0.02").with("restart-rate", "0.001")
        .with("records", "2000").with("shards", "6").with("sources", "3");
    SimulationResult failed = Simulation.run(o);
    assertThat(failed.passed()).isFalse();
    assertThat(failed.firstFailure().name()).isEqualTo("skipped-equals-injected");

    SimulationResult shrunk = Shrinker.shrink(failed);

    assertThat(shrunk.passed()).isFalse();
    assertThat(shrunk.firstFailure().name()).isEqualTo("skipped-equals-injected");
    assertThat(shrunk.options().rate(KnobSpec.STALL_RATE)).isZero();
    assertThat(shrunk.options().rate(KnobSpec.SINK_TRANSIENT_RATE)).isZero();
    assertThat(shrunk.options().rate(KnobSpec.RESTART_RATE)).isZero();
    assertThat(shrunk.options().intValue(KnobSpec.RECORDS)).isLessThan(2000);
    assertThat(shrunk.options().intValue(KnobSpec.SHARDS)).isEqualTo(1);
    assertThat(shrunk.options().intValue(KnobSpec.SOURCES)).isEqualTo(1);
    assertThat(shrunk.failureText()).contains("skipped-equals-injected")
        .contains(shrunk.options().replayCommand());
  }

  @Test
  void shrink_returnsAPassingRunUnchanged() {
    SimulationResult passed = Simulation.run(SimulationOptions.defaults(1));

    assertThat(Shrinker.shrink(passed)).isSameAs(passed);
  }
}
