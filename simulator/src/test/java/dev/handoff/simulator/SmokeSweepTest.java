package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.simulator.report.SweepSummary;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The smoke sweep CI runs on every build: a thousand swarm seeds must all pass, and over them
 * every fault must actually fire (a fault that never fires tests nothing).
 */
final class SmokeSweepTest {
  static final long SEEDS = 1000;
  private static SweepSummary summary;

  @BeforeAll
  static void sweep() {
    summary = Sweep.run(1, SEEDS, 2, false, null);
  }

  @Test
  void everySwarmSeedOfTheSmokeSweep_passesEveryOracle() {
    assertThat(summary.seedsRun()).isEqualTo(SEEDS);
    assertThat(summary.failures()).isEmpty();
    assertThat(summary.seedsFailed()).isZero();
    assertThat(summary.oracleFailures()).containsOnlyKeys(Oracles.NAMES.toArray(String[]::new))
        .allSatisfy((k, v) -> assertThat(v).isZero());
  }

  @Test
  void everyFault_firesOverTheSmokeSweep() {
    Map<String, Long> faults = summary.faultsInjected();

    assertThat(faults).containsOnlyKeys(Faults.NAMES.toArray(String[]::new));
    assertThat(faults).allSatisfy((fault, count) -> assertThat(count).as(fault).isPositive());
  }

  @Test
  void theSmokeSweep_simulatesEveryRecordOfEverySeed() {
    assertThat(summary.records()).isGreaterThan(SEEDS * 100);
    assertThat(summary.events()).isGreaterThan(summary.seedsRun());
  }
}
