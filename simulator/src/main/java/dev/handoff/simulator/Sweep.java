package dev.handoff.simulator;

import dev.handoff.simulator.report.OracleResult;
import dev.handoff.simulator.report.SweepSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * Runs a range of swarm seeds ({@link SimulationOptions#swarm(long)} for each) and summarises
 * them. Seeds are independent runs, so a small pool runs several at once; the summary lists them
 * in seed order whatever the thread count, and equals the summary of a one-thread sweep apart
 * from the wall time.
 */
public final class Sweep {

  /** Hears about each finished seed, from the pool's threads: implementations are thread-safe. */
  public interface Progress {
    /**
     * Called once per seed as it finishes.
     *
     * @param seed the seed that finished
     * @param passed whether every oracle passed
     * @param seedsDone how many seeds finished so far
     * @param seedsTotal how many seeds the sweep runs
     */
    void seedDone(long seed, boolean passed, long seedsDone, long seedsTotal);
  }

  private Sweep() {}

  /**
   * Runs every seed from {@code fromSeed} to {@code toSeed} inclusive.
   *
   * @param threads how many seeds run at once ({@code >= 1})
   * @param shrink whether each failure is shrunk before it is reported
   * @param progress told about each finished seed; may be null
   * @return the summary; its failures carry the (shrunk, if asked) replay command
   */
  public static SweepSummary run(long fromSeed, long toSeed, int threads, boolean shrink,
      Progress progress) {
    return run(fromSeed, toSeed, threads, shrink, progress, SimulationOptions::swarm);
  }

  /**
   * Runs every seed from {@code fromSeed} to {@code toSeed} inclusive with the options {@code
   * optionsOfSeed} gives for it (for example the swarm draw with some knobs pinned: {@code s ->
   * SimulationOptions.swarm(s).with("records", "1000")}).
   *
   * @param optionsOfSeed the options of each seed; must be a pure function of the seed
   * @see #run(long, long, int, boolean, Progress)
   */
  public static SweepSummary run(long fromSeed, long toSeed, int threads, boolean shrink,
      Progress progress, LongFunction<SimulationOptions> optionsOfSeed) {
    Objects.requireNonNull(optionsOfSeed, "optionsOfSeed");
    if (toSeed < fromSeed) {
      throw new IllegalArgumentException("seeds " + fromSeed + ".." + toSeed
          + " (expected: from <= to)");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads : " + threads + " (expected: >= 1)");
    }
    long total = toSeed - fromSeed + 1;
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("at most " + Integer.MAX_VALUE + " seeds per sweep");
    }
    Progress p = progress == null ? (s, ok, d, t) -> { } : progress;
    long start = WallClock.nanoTime();
    Map<String, Long> faults = new LinkedHashMap<>();
    Map<String, Long> oracleFailures = new LinkedHashMap<>();
    for (String o : Oracles.NAMES) {
      oracleFailures.put(o, 0L);
    }
    for (String f : Faults.NAMES) {
      faults.put(f, 0L);
    }
    List<SweepSummary.Failure> failures = new ArrayList<>();
    long[] totals = new long[3]; // seeds failed, records, events
    AtomicLong done = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "handoff-sweep");
      t.setDaemon(true);
      return t;
    });
    try {
      // Submit in windows so a long sweep does not hold every result at once.
      int window = Math.max(64, threads * 16);
      for (long base = fromSeed; base <= toSeed; base += window) {
        long last = Math.min(toSeed, base + window - 1);
        List<Future<SimulationResult>> futures = new ArrayList<>();
        for (long s = base; s <= last; s++) {
          long seed = s;
          futures.add(pool.submit(() -> {
            SimulationResult r = Simulation.run(optionsOfSeed.apply(seed), false);
            p.seedDone(seed, r.passed(), done.incrementAndGet(), total);
            return r;
          }));
        }
        for (Future<SimulationResult> f : futures) {
          SimulationResult r = get(f);
          collect(r, shrink, totals, faults, oracleFailures, failures);
        }
        if (last == Long.MAX_VALUE) {
          break;
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return new SweepSummary(fromSeed, toSeed, total, totals[0], totals[1], totals[2],
        WallClock.nanoTime() - start, faults, oracleFailures, failures);
  }

  private static void collect(SimulationResult r, boolean shrink, long[] totals,
      Map<String, Long> faults, Map<String, Long> oracleFailures,
      List<SweepSummary.Failure> failures) {
    totals[1] += r.report().records().getOrDefault("generated", 0L);
    totals[2] += r.report().events();
    r.report().faultsInjected().forEach((k, v) -> faults.merge(k, v, Long::sum));
    if (r.passed()) {
      return;
    }
    totals[0]++;
    for (OracleResult o : r.report().oracles()) {
      if (!o.passed()) {
        oracleFailures.merge(o.name(), 1L, Long::sum);
      }
    }
    OracleResult first = r.firstFailure();
    SimulationResult shown = shrink ? Shrinker.shrink(r) : r;
    OracleResult shownFailure = shown.firstFailure();
    failures.add(new SweepSummary.Failure(r.options().seed(), first.name(),
        shownFailure != null ? shownFailure.failure() : first.failure(),
        shown.options().replayCommand()));
  }

  private static SimulationResult get(Future<SimulationResult> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("sweep interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }
}
