package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.simulator.report.SweepSummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sweeps: results in seed order whatever the thread count, progress for every seed. */
final class SweepTest {

  @Test
  void aSweepOnTwoThreads_summarisesExactlyLikeOneThread() {
    SweepSummary one = Sweep.run(1, 40, 1, false, null);
    SweepSummary two = Sweep.run(1, 40, 2, false, null);

    assertThat(two.records()).isEqualTo(one.records());
    assertThat(two.events()).isEqualTo(one.events());
    assertThat(two.faultsInjected()).isEqualTo(one.faultsInjected());
    assertThat(two.oracleFailures()).isEqualTo(one.oracleFailures());
  }

  @Test
  void progress_hearsEverySeedOnceAndCountsUpToTheTotal() {
    List<Long> seeds = Collections.synchronizedList(new ArrayList<>());
    List<Long> done = Collections.synchronizedList(new ArrayList<>());
    Sweep.run(10, 29, 2, false, (seed, passed, d, total) -> {
      seeds.add(seed);
      done.add(d);
      assertThat(total).isEqualTo(20);
    });

    assertThat(seeds).containsExactlyInAnyOrderElementsOf(
        java.util.stream.LongStream.rangeClosed(10, 29).boxed().toList());
    assertThat(done).containsExactlyInAnyOrderElementsOf(
        java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList());
  }

  @Test
  void aFailingSeed_isListedWithItsOracleAndTheShrunkReplayCommand() {
    // Sweeps run swarm options (mutation none); a failure is shown through shrink on a result.
    SimulationResult failed = Simulation.run(
        SimulationOptions.swarm(3).with("mutation", "drop-record"));
    SimulationResult shrunk = Shrinker.shrink(failed);

    assertThat(failed.failureText()).contains("FAILED seed 3").contains("oracle no-loss")
        .contains("configuration:").contains("events leading to it")
        .contains("./handoff replay --seed 3");
    assertThat(shrunk.options().intValue(KnobSpec.RECORDS))
        .isLessThanOrEqualTo(failed.options().intValue(KnobSpec.RECORDS));
  }
}
