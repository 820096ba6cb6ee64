package dev.handoff.simulator;

import dev.handoff.simulator.report.SimulationReport;
import java.util.Map;

/**
 * Finds showcase seeds for the README: swarm seeds whose run passes and shows faults of many
 * kinds, the workers retrying and dead-lettering, and several lifetimes. The README's seed (see
 * {@link ReadmeSeedReportTest}) was picked with it; when a change to the simulator or the core
 * changes what a seed draws, run it again:
 * {@code java -cp CLASSPATH dev.handoff.simulator.ShowcaseSeeds 1 3000}, with the class path
 * {@code simulator/mutants/run-mutants.py} uses (the built classes and test classes).
 */
public final class ShowcaseSeeds {
  private ShowcaseSeeds() {}

  /**
   * Prints each seed of {@code args[0]..args[1]} that passes with at least six fault kinds
   * injected (the conditions the engine only observes not counted), at least three retries, a
   * dead letter and three lifetimes, with what it shows.
   *
   * @param args the first and the last seed
   */
  public static void main(String[] args) {
    for (long seed = Long.parseLong(args[0]); seed <= Long.parseLong(args[1]); seed++) {
      SimulationReport r = Simulation.run(SimulationOptions.swarm(seed)).report();
      if (!r.passed()) {
        continue;
      }
      int kinds = 0;
      StringBuilder fired = new StringBuilder();
      for (Map.Entry<String, Long> e : r.faultsInjected().entrySet()) {
        if (e.getValue() > 0) {
          fired.append(' ').append(e.getKey()).append('=').append(e.getValue());
          if (!e.getKey().equals("queue-pressure") && !e.getKey().equals("budget-limit")) {
            kinds++;
          }
        }
      }
      Map<String, Long> rec = r.records();
      if (kinds >= 6 && rec.get("worker-retries") >= 3 && rec.get("worker-dead-lettered-rows") > 0
          && rec.get("process-lifetimes") >= 3) {
        System.out.println("seed " + seed + ": " + kinds + " kinds, retries "
            + rec.get("worker-retries") + ", dead-lettered rows "
            + rec.get("worker-dead-lettered-rows") + ", lifetimes "
            + rec.get("process-lifetimes") + ";" + fired);
      }
    }
  }
}
