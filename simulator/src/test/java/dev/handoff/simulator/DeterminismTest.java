package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.simulator.report.SimulationReport;
import org.junit.jupiter.api.Test;

/** The same seed and options give the same event log and the same report. */
final class DeterminismTest {

  @Test
  void aSeedRunTwice_givesTheSameEventLogHashAndAnEqualReport() {
    for (long seed : new long[] {1, 17, 123}) {
      SimulationOptions o = SimulationOptions.swarm(seed);
      SimulationReport a = Simulation.run(o).report();
      SimulationReport b = Simulation.run(o).report();

      assertThat(a.eventLogHash()).as("seed %d", seed).isEqualTo(b.eventLogHash());
      assertThat(withoutWallClock(a)).usingRecursiveComparison()
          .isEqualTo(withoutWallClock(b));
      assertThat(a.events()).isPositive();
    }
  }

  @Test
  void differentSeeds_giveDifferentEventLogs() {
    long h1 = Simulation.run(SimulationOptions.defaults(1)).report().eventLogHash();
    long h2 = Simulation.run(SimulationOptions.defaults(2)).report().eventLogHash();

    assertThat(h1).isNotEqualTo(h2);
  }

  @Test
  void aRunWithEveryFault_replaysIdenticallyFromItsReplayCommandOptions() {
    SimulationOptions o = SimulationOptions.defaults(99).with("record-error-rate", "0.01")
        .with("stall-rate", "0.05").with("sink-transient-rate", "0.02")
        .with("sink-permanent-rate", "0.01").with("restart-rate", "0.002")
        .with("fatal-encode-rate", "0.001").with("fatal-finish-rate", "0.01")
        .with("teardown-at", "300").with("drain-deadline", "20").with("queue-capacity", "1")
        .with("budget-bytes", "2048");
    SimulationResult first = Simulation.run(o);
    SimulationResult again = Simulation.run(SimulationOptions.parse(99, o.describe()));

    assertThat(first.passed()).as(first.failureText()).isTrue();
    assertThat(again.report().eventLogHash()).isEqualTo(first.report().eventLogHash());
    assertThat(again.report().records()).isEqualTo(first.report().records());
  }

  private static SimulationReport withoutWallClock(SimulationReport r) {
    return new SimulationReport(r.seed(), r.configuration(), r.replayCommand(), r.eventLogHash(),
        r.events(), r.simulatedTicks(), 0, 0, 0, r.faultsInjected(), r.oracles(), r.records(),
        r.series(), r.faultMarkers(), r.lastEvents());
  }
}
