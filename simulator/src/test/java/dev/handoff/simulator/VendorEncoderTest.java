package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.simulator.report.SweepSummary;
import org.junit.jupiter.api.Test;

/** Any encoder found through ServiceLoader runs the fault suite by name. */
final class VendorEncoderTest {

  @Test
  void theColumnarNativeEncoder_foundByName_passesASweepOfSwarmSeedsWithEveryFault() {
    SweepSummary s = Sweep.run(1, 200, 2, false, null,
        seed -> SimulationOptions.swarm(seed).with("encoder", "native"));

    assertThat(s.failures()).isEmpty();
    assertThat(s.faultsInjected().get("record-error-skip")).isPositive();
    assertThat(s.faultsInjected().get("fatal-finish")).isPositive();
  }

  /**
   * Seed 516 with {@code native}: one shard, one-chunk queue, a chunk per record; the
   * parked chunks drain at one per driver back-off, which the liveness bound must allow for.
   */
  @Test
  void seed516WithNative_drainsOneChunkPerBackoffWithinTheLivenessBound() {
    SimulationResult r = Simulation.run(
        SimulationOptions.swarm(516).with("encoder", "native"));

    assertThat(r.passed()).as(r.failureText()).isTrue();
    assertThat(r.options().describe()).containsEntry("queue-capacity", "1");
  }

  @Test
  void anUnknownEncoderName_failsTheRunWithTheNamesFound() {
    SimulationOptions o = SimulationOptions.defaults(1).with("encoder", "no-such-format");

    assertThatThrownBy(() -> Simulation.run(o)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-format").hasMessageContaining("rowbinary");
  }
}
