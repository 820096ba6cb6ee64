package dev.handoff.simulator.bench;

import dev.handoff.simulator.Simulation;
import dev.handoff.simulator.SimulationOptions;
import dev.handoff.simulator.SimulationResult;
import dev.handoff.simulator.Sweep;
import dev.handoff.simulator.report.SweepSummary;

/**
 * Measures the simulator's speed (not a test; the numbers go into {@code docs/simulator.md}):
 * simulated records per second of one large fault-free run and of one large faulty run on one
 * core, and the wall time of a swarm sweep.
 *
 * <p>Usage: {@code SimulatorBenchmark [records] [sweepSeeds] [threads] [encoder]}; defaults
 * 2,000,000 records, 10,000 seeds, 2 threads, {@code rowbinary}.
 */
public final class SimulatorBenchmark {
  private SimulatorBenchmark() {}

  /** Runs the measurements and prints them. */
  public static void main(String[] args) {
    int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    long seeds = args.length > 1 ? Long.parseLong(args[1]) : 10_000;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    String encoder = args.length > 3 ? args[3] : "rowbinary";
    SimulationOptions plain = SimulationOptions.defaults(1)
        .with("encoder", encoder)
        .with("records", Integer.toString(records))
        .with("budget-bytes", "none")
        .with("target-bytes", "16384")
        .with("queue-capacity", "8")
        .with("batch-records", "256")
        .with("keys", "1024");
    SimulationOptions faulty = plain
        .with("record-error-rate", "0.001")
        .with("stall-rate", "0.01")
        .with("sink-transient-rate", "0.01")
        .with("sink-permanent-rate", "0.001")
        .with("fault-epochs", "2");
    for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
      report("fault-free " + records + " records", Simulation.run(plain));
      report("faulty " + records + " records", Simulation.run(faulty));
    }
    SweepSummary fixed = Sweep.run(1, seeds, threads, false, null,
        seed -> SimulationOptions.swarm(seed).with("records", "1000").with("encoder", encoder));
    System.out.printf("sweep of %d swarm seeds of 1,000 records each on %d threads: %.1f s,"
        + " %d failed, %.0f records/s, %d events%n", seeds, threads, fixed.wallNanos() / 1e9,
        fixed.seedsFailed(), fixed.recordsPerSecond(), fixed.events());
    SweepSummary s = Sweep.run(1, seeds, threads, false, null,
        seed -> SimulationOptions.swarm(seed).with("encoder", encoder));
    double secs = s.wallNanos() / 1e9;
    System.out.printf("sweep of %d swarm seeds on %d threads: %.1f s, %d failed, %d records,"
        + " %.0f records/s, %d events%n", seeds, threads, secs, s.seedsFailed(), s.records(),
        s.recordsPerSecond(), s.events());
    System.out.println("faults over the sweep: " + s.faultsInjected());
    s.failures().stream().limit(5).forEach(f -> System.out.println("  " + f));
  }

  private static void report(String what, SimulationResult r) {
    System.out.printf("%s: %s in %.2f s, %.0f records/s, %.0f events/s, %d events, hash %016x%n",
        what, r.passed() ? "passed" : "FAILED", r.report().wallNanos() / 1e9,
        r.report().recordsPerSecond(), r.report().eventsPerSecond(), r.report().events(),
        r.report().eventLogHash());
    if (!r.passed()) {
      System.out.println(r.failureText());
    }
  }
}
