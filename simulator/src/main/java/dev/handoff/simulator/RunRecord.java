package dev.handoff.simulator;

import dev.handoff.simulator.report.FaultMarker;
import dev.handoff.simulator.report.Lifetime;
import dev.handoff.simulator.report.SimulationReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run records for its report: the faults fired (counts, and markers when the run
 * records series), the lifetimes that ended, the series' samples, and the report made of them
 * with the oracles' results at the end. Runs on the simulation thread only.
 */
final class RunRecord {
  private static final int MAX_MARKERS = 500;

  private final Engine e;
  private final long[] faults = new long[Faults.NAMES.size()];
  private final List<FaultMarker> markers = new ArrayList<>();
  /** The lifetimes that ended, for the report (only when it records series). */
  private final List<Lifetime> lifetimes = new ArrayList<>();
  private final long[] sampleRow;

  RunRecord(Engine e) {
    this.e = e;
    this.sampleRow = e.series != null ? new long[e.series.width()] : null;
  }

  /** Counts fault {@code name}, and marks it on the charts when the run records series. */
  void fault(String name, String detail) {
    int i = Faults.NAMES.indexOf(name);
    faults[i]++;
    if (e.series != null && markers.size() < MAX_MARKERS) {
      markers.add(new FaultMarker(e.clock.tick, name, detail));
    }
  }

  /** Records lifetime {@code l}, which ended now, when the run records series. */
  void lifeEnded(Life l, String ending) {
    if (e.series != null) {
      lifetimes.add(lifetime(l, ending));
    }
  }

  /** Takes one sample of the series: queues, parked chunks, budget, checkpoints, the sink. */
  void sample(Life l) {
    int k = 0;
    for (int s = 0; s < e.shards; s++) {
      sampleRow[k++] = l.view.size(s);
    }
    for (int s = 0; s < e.shards; s++) {
      sampleRow[k++] = l.stage.parkedChunks(s);
    }
    sampleRow[k++] = l.budget.inflightBytes();
    for (int s = 0; s < e.sources; s++) {
      sampleRow[k++] = e.w.batchStart[s][(int) (e.ledger.checkpoint[s] + 1)];
    }
    sampleRow[k++] = e.ledger.insertAttempts;
    sampleRow[k++] = e.ledger.insertRetries;
    sampleRow[k++] = e.ledger.deadLetteredRows();
    e.series.sample(e.clock.tick, sampleRow);
  }

  /** What the report says about a lifetime: its span, teardown, shutdown and the sink's work. */
  private Lifetime lifetime(Life l, String ending) {
    Map<String, Long> sink = new LinkedHashMap<>();
    sink.put("insert-attempts", l.insertAttempts);
    dev.handoff.core.sink.WorkersReport r = l.workersReport;
    if (r != null) {
      long inserts = 0;
      long failedAtShutdown = 0;
      long stuck = 0;
      for (dev.handoff.core.sink.WorkersReport.PerShard s : r.shards()) {
        inserts += s.inserts();
        failedAtShutdown += s.failedAtShutdownChunks();
        stuck += s.writerStuck() ? 1 : 0;
      }
      sink.put("inserts", inserts);
      sink.put("retries", r.retries());
      sink.put("dead-lettered-rows", r.deadLetteredRows());
      sink.put("abandoned-chunks", r.abandonedChunks());
      sink.put("failed-at-shutdown", failedAtShutdown);
      sink.put("writers-stuck", stuck);
    }
    return new Lifetime(l.epoch, l.faulty, l.startTick, e.clock.tick, ending, l.teardownTick,
        l.shutdownStart, l.shutdownDeadline, r != null && r.drained(), sink);
  }

  /** The run's report; {@code cur} is the lifetime still running, if any. */
  SimulationReport report(Life cur, long wallNanos) {
    List<Lifetime> lives = new ArrayList<>(lifetimes);
    if (e.series != null && cur != null && !cur.dead) {
      lives.add(lifetime(cur, "stopped"));
    }
    Map<String, Long> f = new LinkedHashMap<>();
    for (int i = 0; i < faults.length; i++) {
      f.put(Faults.NAMES.get(i), faults[i]);
    }
    double secs = wallNanos / 1e9;
    return new SimulationReport(e.o.seed(), e.o.describe(), e.o.replayCommand(), e.log.hash(),
        e.log.count(), e.clock.tick, wallNanos, e.log.count() / secs, e.w.records / secs, f,
        e.book.results(), e.ledger.recordCounts(cur == null ? 0 : cur.epoch + 1),
        e.series != null ? e.series.series() : List.of(), markers,
        e.book.anyFailed() ? e.log.lastEvents() : List.of(), lives);
  }
}
