import dev.handoff.simulator.Sweep;
import dev.handoff.simulator.report.SweepSummary;

/**
 * Runs swarm seeds {@code from..to} against whatever core classes come first on the class path
 * and prints one line: the seeds that failed and the first failure's oracle and seed. Launched as
 * a single-file program by {@code run-mutants.py}.
 */
public final class MutantSweep {
  public static void main(String[] args) {
    long from = Long.parseLong(args[0]);
    long to = Long.parseLong(args[1]);
    SweepSummary s = Sweep.run(from, to, 1, false, null);
    if (s.failures().isEmpty()) {
      System.out.println("RESULT survived 0 " + s.seedsRun());
    } else {
      SweepSummary.Failure f = s.failures().get(0);
      System.out.println("RESULT caught " + s.seedsFailed() + " " + s.seedsRun() + " " + f.oracle()
          + " seed " + f.seed() + " :: " + f.failure().replace('\n', ' '));
    }
  }
}
