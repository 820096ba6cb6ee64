package dev.handoff.cli;

import dev.handoff.simulator.SimulationOptions;
import dev.handoff.simulator.Sweep;
import dev.handoff.simulator.report.JsonReport;
import dev.handoff.simulator.report.SweepSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code handoff sweep --seeds A..B [--<knob>=value ...]}: runs every seed of the range with its
 * swarm configuration and the knobs given pinned over it,
 * reports progress on the error stream and prints a summary (failures with their replay commands,
 * throughput) on the output.
 */
@Command(
    name = "sweep",
    sortOptions = false,
    customSynopsis = "handoff sweep --seeds <A..B> [--<knob>=<value>...] [OPTIONS]",
    modelTransformer = KnobOptions.Swarm.class,
    description = "Runs every seed of a range, each with the configuration the swarm draws from it"
        + " and every --<knob> given pinned over it (for example --encoder=native)."
        + " Progress goes to stderr; the summary, every failed seed and its replay command go to"
        + " stdout.")
final class SweepCommand implements Callable<Integer> {

  /** The least time between two progress lines, in nanoseconds. */
  static final long PROGRESS_EVERY_NANOS = 2_000_000_000L;

  @Spec
  CommandSpec spec;

  @Option(names = "--seeds", required = true, paramLabel = "<A..B>",
      converter = SeedRange.Converter.class,
      description = "The seeds to run, inclusive (for example 1..1000).")
  SeedRange seeds;

  @Option(names = "--threads", paramLabel = "<n>",
      description = "How many seeds run at once (default: the number of processors).")
  Integer threads;

  @Option(names = "--shrink", description = "Shrink each failure before printing its replay"
      + " command.")
  boolean shrink;

  @Option(names = "--json", paramLabel = "<file>",
      description = "Write the sweep summary as JSON here.")
  Path json;

  SweepCommand() {}

  @Override
  public Integer call() {
    int n = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (n < 1) {
      throw new ParameterException(spec.commandLine(), "--threads=" + n + ": expected at least 1");
    }
    Map<String, String> pinned = KnobOptions.given(spec);
    // Checks the knobs once, as usage errors; every seed then applies the same valid values.
    KnobOptions.apply(spec, SimulationOptions.swarm(seeds.from()), pinned);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ProgressPrinter progress = new ProgressPrinter(err);
    SweepSummary summary;
    try {
      summary = Sweep.run(seeds.from(), seeds.to(), n, shrink, progress,
          seed -> KnobOptions.apply(spec, SimulationOptions.swarm(seed), pinned));
    } catch (IllegalArgumentException refused) {
      throw RunOutput.refused(spec, refused);
    }
    progress.finish(summary);
    if (json != null) {
      RunOutput.write(json, JsonReport.toJson(summary));
    }
    print(out, summary);
    if (json != null) {
      RunOutput.line(out, "wrote", json.toString());
    }
    out.flush();
    return summary.seedsFailed() == 0 ? Main.OK : Main.ORACLE_FAILED;
  }

  /** Prints the summary of a sweep. */
  static void print(PrintWriter out, SweepSummary s) {
    out.printf(Locale.ROOT, "handoff sweep: seeds %d..%d %s (%,d run, %,d failed)%n",
        s.fromSeed(), s.toSeed(), s.seedsFailed() == 0 ? "PASSED" : "FAILED", s.seedsRun(),
        s.seedsFailed());
    RunOutput.line(out, "throughput", String.format(Locale.ROOT,
        "%,d records and %,d events in %.3f s (%,.0f records/s)", s.records(), s.events(),
        s.wallNanos() / 1e9, s.recordsPerSecond()));
    RunOutput.list(out, "faults", RunOutput.counts(s.faultsInjected(), true));
    RunOutput.list(out, "oracle failures", RunOutput.counts(s.oracleFailures(), true));
    if (!s.failures().isEmpty()) {
      out.println("failures (seed: oracle: what was wrong, then the replay command):");
      for (SweepSummary.Failure f : s.failures()) {
        out.println("  seed " + f.seed() + ": " + f.oracle() + ": " + f.failure());
        out.println("    " + f.replayCommand());
      }
    }
  }

  /** Prints a progress line at most every two seconds, and every failed seed at once. */
  static final class ProgressPrinter implements Sweep.Progress {
    private final PrintWriter err;
    private final long start = System.nanoTime();
    private long lastPrint = start;
    private long failed;

    ProgressPrinter(PrintWriter err) {
      this.err = err;
    }

    @Override
    public synchronized void seedDone(long seed, boolean passed, long seedsDone,
        long seedsTotal) {
      long now = System.nanoTime();
      if (!passed) {
        failed++;
        err.println("sweep: seed " + seed + " FAILED");
      }
      if (now - lastPrint >= PROGRESS_EVERY_NANOS) {
        lastPrint = now;
        line(seedsDone, seedsTotal, now);
      } else if (!passed) {
        err.flush();
      }
    }

    synchronized void finish(SweepSummary summary) {
      line(summary.seedsRun(), summary.seedsRun(), System.nanoTime());
    }

    private void line(long done, long total, long now) {
      err.printf(Locale.ROOT, "sweep: %,d of %,d seeds (%.0f%%), %,d failed, %.1f s%n", done,
          total, total == 0 ? 100.0 : 100.0 * done / total, failed, (now - start) / 1e9);
      err.flush();
    }
  }
}
