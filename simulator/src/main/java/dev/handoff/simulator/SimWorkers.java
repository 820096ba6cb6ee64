package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.sink.WorkersReport;
import java.time.Duration;

/**
 * The real sink workers of a lifetime: {@link #start} builds them on the lifetime's queues and
 * budget with the seed's settings, {@link SimRuntime} as their runtime and {@link SimWriter} as
 * their sink; {@link #shutdown} shuts them down once its driver closed the stage, as the
 * ClickHouse sink facade does, and judges the shutdown: it ends within its deadline plus one poll
 * interval plus the two grace periods, it leaves every queue empty, and the budget, by the
 * engine's own count of the chunks shutdown drained unwritten, is exact.
 */
final class SimWorkers {
  private SimWorkers() {}

  /**
   * A source that keeps pushing after the stage closed: the closed stage takes nothing (the
   * record is neither encoded nor sealed, nothing reaches a queue) and fails its ack.
   */
  private static void pushAfterClose(Engine e, Life l) {
    long encoded = l.encodedOk;
    long[] arrived = new long[e.shards];
    for (int s = 0; s < e.shards; s++) {
      arrived[s] = l.arrived(s);
    }
    boolean[] failed = new boolean[1];
    dev.handoff.api.Ack probe = new dev.handoff.api.Ack() {
      @Override
      public long batchId() {
        return -1;
      }

      @Override
      public void retain() {}

      @Override
      public void release() {}

      @Override
      public void fail(Throwable cause) {
        failed[0] = true;
      }
    };
    int id = (int) (e.clock.tick % e.w.records);
    SimRow row = new SimRow(id, 0, 0, 0, 0, 0);
    e.book.checks[OracleBook.NOTHING_AFTER_FATAL]++;
    try {
      l.stage.inner.push(row, e.clock.tick, 0, probe);
    } catch (RuntimeException ex) {
      e.book.fail(OracleBook.NOTHING_AFTER_FATAL, "a push after close() threw " + ex);
      return;
    }
    boolean arrivedAny = false;
    for (int s = 0; s < e.shards; s++) {
      arrivedAny |= l.arrived(s) != arrived[s];
    }
    if (l.encodedOk != encoded || arrivedAny || !failed[0]) {
      e.book.fail(OracleBook.NOTHING_AFTER_FATAL, "a record pushed after close() was "
          + (l.encodedOk != encoded ? "encoded" : arrivedAny ? "sent to a queue"
          : "taken without failing its ack"));
    }
    failed[0] = false; // and one the source could not prepare, rejected after close()
    l.stage.inner.reject(dev.handoff.api.HandoffException.data("injected: late bad record"), probe);
    if (!failed[0]) {
      e.book.fail(OracleBook.NOTHING_AFTER_FATAL, "a record rejected after close() did not fail"
          + " its ack");
    }
  }

  /** After shutdown the queues are closed: a chunk offered now is refused and stays the sender's. */
  private static void sendAfterClose(Engine e, Life l) {
    dev.handoff.api.EncodedChunk late = new dev.handoff.api.EncodedChunk(0, Long.MAX_VALUE / 2,
        dev.handoff.api.Frame.copyOf(new byte[1]), 1, new dev.handoff.api.AckSet(), 0, 0);
    e.book.checks[OracleBook.NOTHING_AFTER_FATAL]++;
    if (l.queues.trySend(late)) {
      e.book.fail(OracleBook.NOTHING_AFTER_FATAL, "shard 0's queue took a chunk after the"
          + " workers shut down and closed the queues");
      l.queues.drain(0);
    }
  }

  /** Builds and starts the lifetime's real sink workers. */
  static void start(Engine e, Life l) {
    l.runtime = new SimRuntime(e, l, e.shards);
    e.clock.runtime = l.runtime;
    SimWriter writer = new SimWriter(e, l, l.runtime);
    l.writer = writer;
    l.listener = new SimListener(e, l);
    l.workers = dev.handoff.core.sink.SinkWorkers.builder(l.queues, l.budget, writer)
        .runtime(l.runtime)
        .clock(e.clock)
        .seed(e.rng.nextLong())
        .maxInsertBytes(e.maxInsertBytes)
        .maxInsertRows(e.maxInsertRows)
        .linger(Duration.ofMillis(e.lingerTicks))
        .pollInterval(Duration.ofMillis(e.pollTicks))
        .shutdownGrace(Duration.ofMillis(e.graceTicks))
        .retry(new dev.handoff.core.sink.RetryPolicy(e.retryAttempts,
            Duration.ofMillis(e.retryBackoffTicks), Duration.ofMillis(e.retryBackoffTicks * 16),
            0.5, Duration.ofMillis(e.retryMaxElapsedTicks)))
        .onPermanent(e.onPermanent)
        .deadLetters(writer)
        .listener(l.listener)
        .build();
    l.workers.start();
  }

  /**
   * Each shard's report says exactly the inserts, rows and bytes the sink answered as written and
   * the dead letters it stored, as the simulated sink counted them. A shard shutdown gave up on
   * is left out: its worker may not have read the answer of the write it was in.
   */
  private static void checkReport(Engine e, Life l, WorkersReport report, long[][] failedQueued) {
    e.gauges.checkReportTotals(report);
    for (WorkersReport.PerShard r : report.shards()) {
      if (r.writerStuck()) {
        continue;
      }
      long[] n = l.sinkCounts[r.shard()];
      // Abandoned: the chunks a worker settled without the sink writing or dead-lettering all of
      // their rows, and those shutdown took from the queue unwritten (the engine's own books).
      long[] q = failedQueued[r.shard()];
      long chunks = l.abandoned[r.shard()][0] + q[0];
      long rows = l.abandoned[r.shard()][1] + q[1];
      long[] heard = l.listener.abandoned(r.shard());
      e.book.checks[OracleBook.SHARD_REPORT_EXACT]++;
      // Failed at shutdown: at least what shutdown took from the queues, and at least what was
      // given up with a transient failure past the deadline plus a poll interval (the workers
      // abort by then; shutdown's failing of the queues is among those), at most what was
      // abandoned once shutdown had begun (before, no deadline had passed).
      if (r.abandonedChunks() != chunks || r.abandonedRows() != rows || heard[0] != chunks
          || heard[1] != rows || r.failedAtShutdownChunks() < Math.max(q[0], heard[4])
          || r.failedAtShutdownChunks() > chunks - heard[2]
          || r.failedAtShutdownRows() < Math.max(q[1], heard[5])
          || r.failedAtShutdownRows() > rows - heard[3]) {
        e.book.fail(OracleBook.SHARD_REPORT_EXACT, "the workers report for shard " + r.shard()
            + " " + r.abandonedChunks() + " chunks of " + r.abandonedRows() + " rows abandoned, "
            + r.failedAtShutdownChunks() + " of " + r.failedAtShutdownRows() + " rows at"
            + " shutdown, the listener heard " + heard[0] + " of " + heard[1] + " rows; the"
            + " engine counts " + chunks + " chunks of " + rows + " rows not written nor"
            + " dead-lettered whole, " + q[0] + " of " + q[1] + " rows taken from the queue by"
            + " shutdown, " + heard[2] + " of " + heard[3] + " rows abandoned before shutdown"
            + " began, " + heard[4] + " of " + heard[5] + " rows given up after its deadline");
      }
      e.book.checks[OracleBook.SHARD_REPORT_EXACT]++;
      if (r.inserts() != n[0] || r.rowsWritten() != n[1] || r.bytesWritten() != n[2]
          || r.deadLetteredInserts() != n[3] || r.deadLetteredRows() != n[4]) {
        e.book.fail(OracleBook.SHARD_REPORT_EXACT, "the workers report for shard " + r.shard()
            + " " + r.inserts() + " inserts, " + r.rowsWritten() + " rows, " + r.bytesWritten()
            + " bytes written and " + r.deadLetteredInserts() + " dead letters of "
            + r.deadLetteredRows() + " rows; the sink answered " + n[0] + " inserts, " + n[1]
            + " rows, " + n[2] + " bytes as written and stored " + n[3] + " dead letters of "
            + n[4] + " rows");
      }
      l.listener.check(r);
    }
  }

  /** Shuts the workers down once the driver closed the stage, and judges the shutdown. */
  static void shutdown(Engine e, Life l) {
    long deadline = l.teardownTick >= 0 && e.drainDeadline >= 0
        ? Math.max(0, l.teardownTick + e.drainDeadline - e.clock.tick) : Engine.SHUTDOWN_TICKS;
    long[] sent = new long[e.shards];
    long[][] failedQueued = new long[e.shards][2];
    for (int s = 0; s < e.shards; s++) {
      sent[s] = l.arrived(s);
    }
    pushAfterClose(e, l);
    l.shuttingDown = true;
    long start = e.clock.tick;
    l.shutdownStart = start;
    l.shutdownDeadline = deadline;
    e.log.add(start, l.epoch, EventLog.SHUTDOWN, -1, deadline, 0);
    WorkersReport report = l.workers.shutdown(Duration.ofMillis(deadline));
    l.workersReport = report;
    e.book.checks[OracleBook.DRAIN_BOUNDED]++;
    if (!report.equals(l.workers.shutdown(Duration.ZERO))) { // shutdown happens once
      e.book.fail(OracleBook.DRAIN_BOUNDED, "a second shutdown of the workers returned another"
          + " report than the first: " + report);
    }
    long took = e.clock.tick - start;
    // The stage is closed and the workers are shut down: every chunk is settled or failed, even
    // one a stuck writer still reads (its bytes left the budget, its frame waits for the thread).
    e.book.checks[OracleBook.SETTLED_ONCE]++;
    if (l.budget.inflightBytes() != 0) {
      e.book.fail(OracleBook.SETTLED_ONCE, "the workers' shutdown returned with "
          + l.budget.inflightBytes() + " bytes still in the budget: chunks neither written nor"
          + " failed");
    }
    for (int s = 0; s < e.shards; s++) {
      // What shutdown drained unwritten: every chunk sent to the queue that no worker took.
      long drainedNow = sent[s] - l.polled[s] - l.drained[s];
      l.drained[s] += drainedNow;
      e.book.checks[OracleBook.DRAIN_BOUNDED]++;
      if (drainedNow > 0 && report.drained()) {
        e.book.fail(OracleBook.DRAIN_BOUNDED, "the workers' shutdown failed " + drainedNow
            + " chunk(s) of shard " + s + " that no worker took, yet its report says drained");
      }
      for (int seq = 0; seq < sent[s]; seq++) {
        if (!l.taken[s].get(seq)) {
          l.expectedBytes -= e.charged(l.sealedBytes.get(s).get(seq));
          failedQueued[s][0]++;
          failedQueued[s][1] += l.sealedIds.get(s).get(seq).length;
        }
      }
    }
    // A writer still stuck reads its frames until it returns: shutdown failed its chunks, but
    // their pooled arrays must not be lent again before then.
    for (int s = 0; s < e.shards; s++) {
      dev.handoff.api.spi.Insert stuck = l.writer.stuckInsert[s];
      if (stuck == null || !l.runtime.anyStuck()) {
        continue;
      }
      for (EncodedChunk c : l.inWorker) {
        e.book.checks[OracleBook.SETTLED_ONCE]++;
        if (c.shard() == s && c.sequence() >= stuck.firstSequence()
            && c.sequence() <= stuck.lastSequence() && c.frame().isReleased()) {
          e.book.fail(OracleBook.SETTLED_ONCE, "shard " + s + "'s chunk " + c.sequence()
              + " went back to the pool while its writer was still stuck in it");
        }
      }
    }
    // A worker still stuck in the writer unwinds now, as its thread would once the writer gave
    // up: its frames go back to the pool then.
    l.runtime.killAll();
    e.ledger.settledChunks(l);
    long bound = deadline + e.pollTicks + 2 * e.graceTicks;
    e.book.checks[OracleBook.DRAIN_BOUNDED]++;
    if (took > bound) {
      e.book.fail(OracleBook.DRAIN_BOUNDED, "the workers' shutdown took " + took + " ticks;"
          + " its deadline " + deadline + " plus one poll interval " + e.pollTicks + " plus two"
          + " grace periods of " + e.graceTicks + " allow " + bound);
    }
    checkReport(e, l, report, failedQueued);
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
    // A writer stuck past the deadline: shutdown waited the deadline and both grace periods (each
    // as many whole poll intervals as it holds, at least one) before it gave up on the worker.
    long grace = e.graceTicks <= 0 ? 0
        : Math.min(e.graceTicks, Math.max(1, e.graceTicks / e.pollTicks) * e.pollTicks);
    e.book.checks[OracleBook.DRAIN_BOUNDED]++;
    if (anyStuck && took < deadline + 2 * grace) {
      e.book.fail(OracleBook.DRAIN_BOUNDED, "the workers' shutdown gave up on a stuck writer after "
          + took + " ticks; its deadline " + deadline + " and two grace periods of " + grace
          + " ticks come first");
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
    }
    sendAfterClose(e, l);
    e.log.add(e.clock.tick, l.epoch, EventLog.SHUT_DOWN, -1, took, report.drained() ? 1 : 0);
    e.endLife("shut down");
  }
}
