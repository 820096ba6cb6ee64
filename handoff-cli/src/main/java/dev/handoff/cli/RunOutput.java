package dev.handoff.cli;

import dev.handoff.simulator.Shrinker;
import dev.handoff.simulator.Simulation;
import dev.handoff.simulator.SimulationOptions;
import dev.handoff.simulator.SimulationResult;
import dev.handoff.simulator.report.HtmlReport;
import dev.handoff.simulator.report.JsonReport;
import dev.handoff.simulator.report.OracleResult;
import dev.handoff.simulator.report.SimulationReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Runs one simulation for {@code simulate} and {@code replay}, writes its reports, prints it. */
final class RunOutput {

  /** The label of the hash line; tests and users find the hash after it. */
  static final String HASH_LABEL = "event-log hash";

  private RunOutput() {}

  /**
   * Runs {@code options}, writes the reports asked for, prints the summary (and the failure) on
   * the command's output, and returns the exit status.
   */
  static int runAndPrint(CommandSpec spec, String command, SimulationOptions options, Path json,
      Path html, boolean shrink) {
    PrintWriter out = spec.commandLine().getOut();
    SimulationResult result;
    try {
      result = Simulation.run(options);
    } catch (IllegalArgumentException refused) {
      throw refused(spec, refused);
    }
    SimulationReport report = result.report();
    List<String> written = new ArrayList<>();
    if (json != null) {
      write(json, JsonReport.toJson(report));
      written.add(json.toString());
    }
    if (html != null) {
      write(html, HtmlReport.render(report));
      written.add(html.toString());
    }
    printSummary(out, command, report, written);
    if (!result.passed()) {
      out.println();
      out.print(result.failureText());
      if (shrink) {
        SimulationResult shrunk = Shrinker.shrink(result);
        OracleResult failed = shrunk.firstFailure();
        out.println();
        out.println("shrunk to the smallest run that still fails"
            + (failed == null ? "" : " " + failed.name()) + ":");
        if (failed != null) {
          out.println("  " + failed.failure());
        }
        out.println("  " + shrunk.options().replayCommand());
      }
    }
    out.flush();
    return result.passed() ? Main.OK : Main.ORACLE_FAILED;
  }

  /**
   * Returns the usage error for a configuration the simulator refused to start (for example an
   * encoder name no provider has); faults inside a run never surface this way, they fail oracles.
   */
  static ParameterException refused(CommandSpec spec, IllegalArgumentException refused) {
    return new ParameterException(spec.commandLine(),
        "cannot run this configuration: " + refused.getMessage(), refused);
  }

  /** Prints the one-screen summary of a run. */
  static void printSummary(PrintWriter out, String command, SimulationReport r,
      List<String> written) {
    long failed = r.oracles().stream().filter(o -> !o.passed()).count();
    out.printf(Locale.ROOT, "handoff %s: seed %d %s (%d oracles, %d failed)%n", command, r.seed(),
        r.passed() ? "PASSED" : "FAILED", r.oracles().size(), failed);
    line(out, HASH_LABEL, JsonReport.hash(r.eventLogHash()));
    line(out, "run", String.format(Locale.ROOT,
        "%,d events over %,d simulated ticks in %.3f s (%,.0f events/s, %,.0f records/s)",
        r.events(), r.simulatedTicks(), r.wallNanos() / 1e9, finite(r.eventsPerSecond()),
        finite(r.recordsPerSecond())));
    list(out, "records", counts(r.records(), false));
    list(out, "faults", counts(r.faultsInjected(), true));
    StringBuilder oracles = new StringBuilder();
    for (OracleResult o : r.oracles()) {
      if (!o.passed()) {
        oracles.append(oracles.length() == 0 ? "" : ", ").append(o.name()).append(" FAILED");
      }
    }
    line(out, "oracles", failed == 0 ? "all " + r.oracles().size() + " passed" : oracles
        + "; the other " + (r.oracles().size() - failed) + " passed");
    line(out, "replay", r.replayCommand());
    if (!written.isEmpty()) {
      line(out, "wrote", String.join(", ", written));
    }
  }

  /** Prints {@code label} padded to a column, then the value. */
  static void line(PrintWriter out, String label, String value) {
    out.println("  " + label + " ".repeat(Math.max(1, 16 - label.length())) + value);
  }

  /** Prints {@code label} and a comma-separated list, wrapped after commas at 100 columns. */
  static void list(PrintWriter out, String label, String items) {
    String indent = " ".repeat(18);
    StringBuilder row = new StringBuilder();
    boolean first = true;
    for (String item : items.split(", ")) {
      if (row.length() > 0 && 18 + row.length() + item.length() + 2 > 100) {
        if (first) {
          line(out, label, row.toString());
          first = false;
        } else {
          out.println(indent + row);
        }
        row.setLength(0);
      }
      row.append(row.length() == 0 ? "" : " ").append(item).append(',');
    }
    row.setLength(row.length() - 1);
    if (first) {
      line(out, label, row.toString());
    } else {
      out.println(indent + row);
    }
  }

  /** Returns {@code name count, ...}, without zeros when asked; {@code none} for nothing left. */
  static String counts(Map<String, Long> counts, boolean skipZeros) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      if (skipZeros && e.getValue() == 0) {
        continue;
      }
      sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
          .append(String.format(Locale.ROOT, "%,d", e.getValue()));
    }
    return sb.length() == 0 ? "none" : sb.toString();
  }

  /** Writes a report file, creating its directory; failures become an UncheckedIOException. */
  static void write(Path file, String text) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(new IOException("cannot write " + file + ": " + e, e));
    }
  }

  private static double finite(double rate) {
    return Double.isFinite(rate) ? rate : 0;
  }
}
