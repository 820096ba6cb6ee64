package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.simulator.report.OracleResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Negative controls: each deliberately broken variant (a decorator around the real core classes,
 * or a broken simulated sink worker) is caught by
 * the oracle that guards the broken promise within a fixed number of seeds, while the unbroken
 * system passes the very same seeds. An oracle that cannot fail would let these pass.
 */
final class NegativeControlTest {

  /** Every mutation must be caught (at least three times) within this many seeds. */
  static final int SEEDS = 20;

  /**
   * The swarm configuration of {@code seed}, with the mutation and the faults that give it a
   * chance to show (a mutation of the fatal path needs fatal errors, for example).
   */
  static SimulationOptions focused(Mutation m, long seed) {
    SimulationOptions o = SimulationOptions.swarm(seed).with("mutation", m.knobValue)
        .with("fault-epochs", "2");
    switch (m) {
      case SEND_PAST_PARKED: // two chunks must wait in one queue for one to overtake the other
        return o.with("queue-capacity", "4").with("target-bytes", "64").with("write-ticks", "3");
      case NEVER_SEALS_AGED: // chunks that only age can seal: a large target, a short age
        return o.with("max-chunk-age", "2").with("target-bytes", "4096")
            .with("queue-capacity", "1").with("write-ticks", "3");
      case RELIEVE_NEVER_DRAINS:
      case IGNORE_BACKPRESSURE:
        return o.with("queue-capacity", "1").with("target-bytes", "64")
            .with("write-ticks", "3");
      case UNCOUNTED_FAILBACK:
        return o.with("queue-capacity", "1").with("target-bytes", "64").with("write-ticks", "3")
            .with("restart-rate", "0.02");
      case KEEP_PARTIAL_ACKS:
        return o.with("fatal-encode-rate", "0.005").with("target-bytes", "4096");
      case SEND_AFTER_FATAL:
        return o.with("fatal-encode-rate", "0.01").with("target-bytes", "64")
            .with("batch-records", "256");
      case UNCOUNTED_SKIP:
      case UNCOUNTED_ERROR:
        return o.with("record-error-rate", "0.01").with("error-policy", "skip");
      case DROP_RECORD:
      case CHECKPOINT_LAGS:
      case MISCOUNT_ROWS:
      case THROW_ON_PUSH:
      case NONE:
      default:
        return o;
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Mutation.class, mode = EnumSource.Mode.EXCLUDE, names = "NONE")
  void eachMutation_isCaughtByItsOracleWithinAFixedNumberOfSeeds(Mutation m) {
    List<Long> caught = new ArrayList<>();
    List<String> wrongOracle = new ArrayList<>();
    for (long seed = 1; seed <= SEEDS; seed++) {
      SimulationResult r = Simulation.run(focused(m, seed), false);
      OracleResult first = r.firstFailure();
      if (first == null) {
        continue;
      }
      if (first.name().equals(m.caughtBy)) {
        caught.add(seed);
      } else {
        wrongOracle.add(seed + ": " + first.name() + ": " + first.failure());
      }
    }
    assertThat(caught).as("seeds on which %s caught %s (other oracles first: %s)", m.caughtBy,
        m.knobValue, wrongOracle).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void theUnbrokenSystem_passesEveryFocusedConfigurationOfTheNegativeControls() {
    List<String> failures = new ArrayList<>();
    for (Mutation m : Mutation.values()) {
      for (long seed = 1; seed <= SEEDS; seed++) {
        SimulationOptions o = focused(m, seed).with("mutation", "none");
        SimulationResult r = Simulation.run(o, false);
        if (!r.passed()) {
          failures.add(r.failureText());
        }
      }
    }
    assertThat(failures).isEmpty();
  }
}
