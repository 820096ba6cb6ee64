package dev.handoff.simulator.report;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of a sweep over a seed range.
 *
 * @param fromSeed the first seed
 * @param toSeed the last seed, inclusive
 * @param seedsRun how many seeds ran
 * @param seedsFailed how many of them failed an oracle
 * @param records source records simulated over all seeds
 * @param events events run over all seeds
 * @param wallNanos the wall-clock time of the sweep
 * @param faultsInjected every fault kind and how often it was injected over all seeds
 * @param oracleFailures per oracle name, how many seeds failed it (every oracle listed, zeros too)
 * @param failures one entry per failed seed, in seed order
 */
public record SweepSummary(
    long fromSeed,
    long toSeed,
    long seedsRun,
    long seedsFailed,
    long records,
    long events,
    long wallNanos,
    Map<String, Long> faultsInjected,
    Map<String, Long> oracleFailures,
    List<Failure> failures) {

  /** Checks that no component is null. */
  public SweepSummary {
    Objects.requireNonNull(faultsInjected, "faultsInjected");
    Objects.requireNonNull(oracleFailures, "oracleFailures");
    Objects.requireNonNull(failures, "failures");
  }

  /** Returns source records per wall-clock second over the whole sweep. */
  public double recordsPerSecond() {
    return wallNanos == 0 ? 0 : records * 1e9 / wallNanos;
  }

  /**
   * One failed seed.
   *
   * @param seed the seed
   * @param oracle the first oracle that failed
   * @param failure what was wrong
   * @param replayCommand the command that replays the run (the shrunk one when shrinking ran)
   */
  public record Failure(long seed, String oracle, String failure, String replayCommand) {}
}
