package dev.handoff.simulator;

import dev.handoff.simulator.report.OracleResult;
import dev.handoff.simulator.report.SimulationReport;
import java.util.Map;
import java.util.Objects;

/**
 * One finished run: the options it ran with and what it found.
 *
 * @param options the options of the run
 * @param report the run's report
 */
public record SimulationResult(SimulationOptions options, SimulationReport report) {

  /** Checks that no component is null. */
  public SimulationResult {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(report, "report");
  }

  /** Returns whether every oracle passed. */
  public boolean passed() {
    return report.passed();
  }

  /** Returns the first oracle that failed, or null when every oracle passed. */
  public OracleResult firstFailure() {
    OracleResult first = null;
    for (OracleResult o : report.oracles()) {
      if (!o.passed() && (first == null || o.atEvent() < first.atEvent())) {
        first = o;
      }
    }
    return first;
  }

  /**
   * Returns null when the run passed; else a text that names the seed, the full configuration,
   * the oracle that failed and why, the events leading to the failure, and the replay command.
   */
  public String failureText() {
    OracleResult failed = firstFailure();
    if (failed == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    sb.append("FAILED seed ").append(options.seed()).append(": oracle ").append(failed.name())
        .append(" after event ").append(failed.atEvent()).append('\n');
    sb.append("  ").append(failed.failure()).append('\n');
    for (OracleResult o : report.oracles()) {
      if (!o.passed() && o != failed) {
        sb.append("  also failed: ").append(o.name()).append(": ").append(o.failure())
            .append('\n');
      }
    }
    sb.append("configuration:\n");
    for (Map.Entry<String, String> e : report.configuration().entrySet()) {
      sb.append("  ").append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
    }
    sb.append("events leading to it (oldest first):\n");
    for (String e : report.lastEvents()) {
      sb.append("  ").append(e).append('\n');
    }
    sb.append("replay:\n  ").append(report.replayCommand()).append('\n');
    return sb.toString();
  }
}
