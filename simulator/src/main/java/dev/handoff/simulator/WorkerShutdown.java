package dev.handoff.simulator;

import dev.handoff.core.sink.WorkersReport;
import java.time.Duration;

/**
 * Shuts the real sink workers of a lifetime down once its driver closed the stage, as the
 * ClickHouse sink facade does, and judges the shutdown: it ends within its deadline plus one poll
 * interval plus the two grace periods, it leaves every queue empty, and the budget, by the
 * engine's own count of the chunks shutdown drained unwritten, is exact.
 */
final class WorkerShutdown {
  private WorkerShutdown() {}

  static void run(Engine e, Life l) {
    long deadline = l.teardownTick >= 0 && e.drainDeadline >= 0
        ? Math.max(0, l.teardownTick + e.drainDeadline - e.clock.tick) : Engine.SHUTDOWN_TICKS;
    long[] sent = new long[e.shards];
    for (int s = 0; s < e.shards; s++) {
      sent[s] = l.arrived(s);
    }
    l.shuttingDown = true;
    long start = e.clock.tick;
    e.log.add(start, l.epoch, EventLog.SHUTDOWN, -1, deadline, 0);
    WorkersReport report = l.workers.shutdown(Duration.ofMillis(deadline));
    long took = e.clock.tick - start;
    // A worker still stuck in the writer unwinds now, as its thread would once the writer gave
    // up: its frames go back to the pool then.
    l.threads.killAll();
    e.ledger.settledChunks(l);
    long bound = deadline + e.pollTicks + 2 * e.graceTicks;
    e.book.checks[OracleBook.DRAIN_BOUNDED]++;
    if (took > bound) {
      e.book.fail(OracleBook.DRAIN_BOUNDED, "the workers' shutdown took " + took + " ticks;"
          + " its deadline " + deadline + " plus one poll interval " + e.pollTicks + " plus two"
          + " grace periods of " + e.graceTicks + " allow " + bound);
    }
    boolean anyStuck = false;
    long[] t = e.ledger.workerTotals;
    for (WorkersReport.PerShard r : report.shards()) {
      anyStuck |= r.writerStuck();
      t[0] += r.inserts();
      t[1] += r.retries();
      t[2] += r.deadLetteredRows();
      t[3] += r.abandonedChunks();
      t[4] += r.failedAtShutdownChunks();
      t[5] += r.writerStuck() ? 1 : 0;
    }
    if (took < deadline && !anyStuck && !report.drained()) {
      e.book.fail(OracleBook.DRAIN_BOUNDED, "the workers ended " + (deadline - took) + " ticks"
          + " before their deadline yet report the drain unfinished: " + report);
    }
    for (int s = 0; s < e.shards; s++) {
      e.book.checks[OracleBook.DRAIN_BOUNDED]++;
      if (l.view.size(s) != 0) {
        e.book.fail(OracleBook.DRAIN_BOUNDED, "shard " + s + "'s queue still holds "
            + l.view.size(s) + " chunk(s) after the workers shut down");
      }
      // What shutdown drained unwritten: every chunk sent to the queue that no worker took.
      long drainedNow = sent[s] - l.polled[s] - l.drained[s];
      l.drained[s] += drainedNow;
      for (int seq = 0; seq < sent[s]; seq++) {
        if (!l.taken[s].get(seq)) {
          l.expectedBytes -= e.charged(l.sealedBytes.get(s).get(seq));
        }
      }
    }
    e.log.add(e.clock.tick, l.epoch, EventLog.SHUT_DOWN, -1, took, report.drained() ? 1 : 0);
    e.endLife("shut down");
  }
}
