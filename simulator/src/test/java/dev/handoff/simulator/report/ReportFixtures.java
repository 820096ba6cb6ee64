package dev.handoff.simulator.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reports built directly from values, the way the engine builds them, for the writers' tests. */
final class ReportFixtures {

  private ReportFixtures() {}

  /** A small passing run with one series per chart group and a few fault markers. */
  static SimulationReport passing() {
    return report(42, true, 2, 200);
  }

  /** A failing run: the no-loss oracle failed, with the events leading to it. */
  static SimulationReport failing() {
    return report(7, false, 3, 300);
  }

  /**
   * A run with {@code shards} shards whose series have {@code samples} samples each, and one
   * fault marker every 50 ticks.
   */
  static SimulationReport report(long seed, boolean passed, int shards, int samples) {
    Map<String, String> configuration = new LinkedHashMap<>();
    configuration.put("shards", Integer.toString(shards));
    configuration.put("queue-capacity", "4");
    configuration.put("target-bytes", "4096");
    configuration.put("encoder", "rowbinary");
    configuration.put("mutation", passed ? "none" : "drop-unacked");

    Map<String, Long> faults = new LinkedHashMap<>();
    faults.put("queue-stall", 3L);
    faults.put("encode-error", 0L);
    faults.put("sink-transient", 12L);
    faults.put("teardown", 1L);

    List<OracleResult> oracles = new ArrayList<>();
    oracles.add(new OracleResult("per-shard-order", true, 1_000, null, -1));
    oracles.add(passed
        ? new OracleResult("no-loss", true, 1_000, null, -1)
        : new OracleResult("no-loss", false, 512, "lost = 3 (source s0, batches 4..6)", 511));
    oracles.add(new OracleResult("budget-exact", true, 1_000, null, -1));

    Map<String, Long> records = new LinkedHashMap<>();
    records.put("generated", 1_000L);
    records.put("delivered", passed ? 990L : 987L);
    records.put("skipped", 10L);
    records.put("replayed", 40L);
    records.put("duplicated", 4L);
    records.put("lost", passed ? 0L : 3L);
    records.put("unexpected", 0L);
    records.put("insert-attempts", 130L);
    records.put("worker-inserts", 118L);
    records.put("worker-retries", 12L);
    records.put("worker-dead-lettered-rows", 2L);
    records.put("worker-abandoned-chunks", 0L);
    records.put("worker-failed-at-shutdown", 1L);
    records.put("worker-writers-stuck", 0L);

    List<Series> series = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      series.add(series("shard " + shard, "queue depth", samples, shard, 4));
      series.add(series("shard " + shard, "parked chunks", samples, shard + 7, 3));
    }
    series.add(series("in flight", "budget bytes", samples, 3, 65_536));
    series.add(series("source s0", "checkpoint", samples, 0, -1));
    series.add(series("source s1", "checkpoint", samples, 1, -1));

    List<FaultMarker> markers = new ArrayList<>();
    long ticks = samples * 10L;
    for (long t = 25; t < ticks; t += 50) {
      markers.add(new FaultMarker(t, t % 100 == 25 ? "queue-stall" : "sink-transient",
          "shard " + (t % shards) + ", 40 ticks"));
    }
    List<String> lastEvents = passed ? List.of()
        : List.of("#509 t=2980 seal shard 1 chunk 17 (3 rows)",
            "#510 t=2990 worker 1 write chunk 17: permanent failure",
            "#511 t=3000 teardown, drain deadline 0");
    Map<String, Long> crashed = new LinkedHashMap<>();
    crashed.put("insert-attempts", 50L);
    Map<String, Long> shutDown = new LinkedHashMap<>();
    shutDown.put("insert-attempts", 80L);
    shutDown.put("inserts", 70L);
    shutDown.put("retries", 10L);
    shutDown.put("dead-lettered-rows", 2L);
    shutDown.put("abandoned-chunks", 0L);
    shutDown.put("failed-at-shutdown", 1L);
    shutDown.put("writers-stuck", 0L);
    List<Lifetime> lifetimes = List.of(
        new Lifetime(0, true, 0, ticks / 3, "crashed", -1, -1, -1, false, crashed),
        new Lifetime(1, false, ticks / 3 + 1, ticks, "shut down", ticks / 2, ticks - 40, 10_000,
            true, shutDown));
    return new SimulationReport(seed, configuration,
        "./handoff replay --seed " + seed + " --shards=" + shards + " --queue-capacity=4",
        0x9e3779b97f4a7c15L, 12_345, ticks, 40_000_000L, 308_625.0, 25_000.0,
        faults, oracles, records, series, markers, lastEvents, lifetimes);
  }

  /**
   * A series sampled every 10 ticks. {@code scale} &gt; 0 gives a saw-tooth up to it; -1 gives a
   * rising checkpoint watermark that starts at -1.
   */
  static Series series(String name, String group, int samples, int phase, long scale) {
    long[] ticks = new long[samples];
    long[] values = new long[samples];
    for (int i = 0; i < samples; i++) {
      ticks[i] = i * 10L;
      values[i] = scale < 0 ? i / 7 - 1 : (i + phase) % (scale + 1) * Math.max(1, scale / 8);
    }
    return new Series(name, group, ticks, values);
  }
}
