package dev.handoff.simulator;

import dev.handoff.simulator.report.OracleResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Minimises a failing run: tries smaller options (faults dropped, stalls shortened, counts
 * lowered, fewer records, sources and shards) and keeps each change under which the run still
 * fails the same oracle, until no candidate helps or the attempt budget is spent.
 */
public final class Shrinker {

  private static final int[] FAULT_RATES = {KnobSpec.RESTART_RATE, KnobSpec.SOURCE_ERROR_RATE,
      KnobSpec.ROUTER_ERROR_RATE,
      KnobSpec.SINK_PERMANENT_RATE, KnobSpec.SINK_TRANSIENT_RATE, KnobSpec.STALL_RATE,
      KnobSpec.FATAL_FINISH_RATE, KnobSpec.FATAL_ENCODE_RATE, KnobSpec.RECORD_ERROR_RATE};

  /** The most candidate runs one shrink tries. */
  static final int MAX_ATTEMPTS = 300;

  private Shrinker() {}

  /**
   * Returns the smallest failing run found that fails the same oracle as {@code failed}; returns
   * {@code failed} itself when it passed or when nothing smaller fails that way.
   */
  public static SimulationResult shrink(SimulationResult failed) {
    Objects.requireNonNull(failed, "failed");
    OracleResult first = failed.firstFailure();
    if (first == null) {
      return failed;
    }
    String oracle = first.name();
    SimulationResult best = failed;
    int attempts = 0;
    boolean progress = true;
    while (progress && attempts < MAX_ATTEMPTS) {
      progress = false;
      for (SimulationOptions candidate : candidates(best.options())) {
        if (attempts++ >= MAX_ATTEMPTS) {
          break;
        }
        SimulationResult r = Simulation.run(candidate, false);
        OracleResult f = r.firstFailure();
        if (f != null && f.name().equals(oracle)) {
          best = r;
          progress = true;
          break; // restart from the smaller options
        }
      }
    }
    return best == failed ? failed : Simulation.run(best.options(), true);
  }

  /** Smaller variants of {@code o}, the most promising first. */
  static List<SimulationOptions> candidates(SimulationOptions o) {
    List<SimulationOptions> c = new ArrayList<>();
    // Drop whole faults first.
    for (int k : FAULT_RATES) {
      if (o.rate(k) > 0) {
        c.add(set(o, k, "0"));
      }
    }
    if (!o.value(KnobSpec.TEARDOWN_AT).equals("none")) {
      c.add(set(o, KnobSpec.TEARDOWN_AT, "none"));
      long at = o.longOrNone(KnobSpec.TEARDOWN_AT, 0);
      if (at > 0) {
        c.add(set(o, KnobSpec.TEARDOWN_AT, Long.toString(at / 2)));
      }
    }
    if (!o.value(KnobSpec.DRAIN_DEADLINE).equals("none")) {
      c.add(set(o, KnobSpec.DRAIN_DEADLINE, "none"));
    }
    if (!o.value(KnobSpec.BUDGET_BYTES).equals("none")) {
      c.add(set(o, KnobSpec.BUDGET_BYTES, "none"));
    }
    if (o.intValue(KnobSpec.MAX_CHUNK_AGE) != 1000) {
      c.add(set(o, KnobSpec.MAX_CHUNK_AGE, "1000")); // the core's default: ages rarely matter
    }
    // Then lower counts.
    halve(c, o, KnobSpec.RECORDS, 1);
    halve(c, o, KnobSpec.SHARDS, 1);
    halve(c, o, KnobSpec.SOURCES, 1);
    halve(c, o, KnobSpec.INTERLEAVE, 1);
    halve(c, o, KnobSpec.FAULT_EPOCHS, 1);
    halve(c, o, KnobSpec.STALL_TICKS, 1);
    halve(c, o, KnobSpec.BATCH_RECORDS, 1);
    halve(c, o, KnobSpec.KEYS, 1);
    halve(c, o, KnobSpec.WRITE_TICKS, 1);
    // Then lower the remaining rates.
    for (int k : FAULT_RATES) {
      double r = o.rate(k);
      if (r > 0.0001) {
        c.add(set(o, k, Double.toString(r / 2)));
      }
    }
    return c;
  }

  private static void halve(List<SimulationOptions> c, SimulationOptions o, int knob, long min) {
    long v = Long.parseLong(o.value(knob));
    if (v > min) {
      c.add(set(o, knob, Long.toString(min)));
      long half = Math.max(min, v / 2);
      if (half != min) {
        c.add(set(o, knob, Long.toString(half)));
      }
      if (v - 1 != half && v - 1 >= min) {
        c.add(set(o, knob, Long.toString(v - 1)));
      }
    }
  }

  private static SimulationOptions set(SimulationOptions o, int knob, String value) {
    return o.with(KnobSpec.ALL.get(knob).knob.name(), value);
  }
}
