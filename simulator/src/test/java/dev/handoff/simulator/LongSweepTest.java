package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.simulator.report.SweepSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A long swarm sweep, off unless asked for: {@code -Dsimulator.seeds=1..100000} (and optionally
 * {@code -Dsimulator.threads=2}). CI runs only the smoke sweep; this is the same check over as
 * many seeds as the property names, and a failure prints each failing seed's replay command.
 */
@EnabledIfSystemProperty(named = "simulator.seeds", matches = "\\d+\\.\\.\\d+")
final class LongSweepTest {

  @Test
  void everySeedOfTheRange_passesEveryOracle() {
    String[] range = System.getProperty("simulator.seeds").split("\\.\\.");
    int threads = Integer.getInteger("simulator.threads", 2);
    SweepSummary s = Sweep.run(Long.parseLong(range[0]), Long.parseLong(range[1]), threads, false,
        null);
    System.out.printf("%d seeds, %d records, %.0f records/s, %d failed%n", s.seedsRun(),
        s.records(), s.recordsPerSecond(), s.seedsFailed());

    assertThat(s.failures()).as("failing seeds with their replay commands").isEmpty();
  }
}
