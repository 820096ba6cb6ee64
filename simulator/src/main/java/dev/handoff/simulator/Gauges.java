package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.sink.WorkerMetrics;
import dev.handoff.core.sink.WorkersReport;
import java.util.List;

/**
 * The {@code gauges-exact} oracle: every gauge, counter and accessor the core classes offer their
 * operators, read while the simulation runs and compared with the engine's own books (never with
 * another reading of the same class). The stage's open and parked chunks and their first-ingest
 * times, the {@code StageMetrics} gauges of each flush, each source's checkpoint, delivered,
 * pending and failed batches, the workers' {@code metrics()} per shard and in total, and the
 * totals of the workers' report.
 */
final class Gauges {
  private static final long NPT = VirtualClock.NANOS_PER_TICK;

  private final Engine e;
  private final OracleBook book;
  /** Events since the workers' metrics were last read (they are read every few events). */
  private int sinceWorkers;
  /** Events since the sources' trackers were last read. */
  private int sinceSources;

  Gauges(Engine engine) {
    this.e = engine;
    this.book = engine.book;
  }

  /* ------------------------------------------------------------------ the stage */

  /**
   * While the stage runs: each shard's open rows and the oldest open chunk's first-ingest time, the
   * parked chunks over all shards, and each shard's oldest parked chunk's first-ingest time, from
   * what the engine saw encoded, sealed and handed to the queues.
   */
  void checkStage(Life l) {
    SinkHandoff<SimRow> stage = l.stage.inner;
    book.checks[OracleBook.GAUGES_EXACT]++;
    long oldestOpen = Long.MAX_VALUE;
    int parked = 0;
    for (int s = 0; s < e.shards; s++) {
      int open = l.open[s].size();
      if (open > 0) {
        oldestOpen = Math.min(oldestOpen, l.openSince[s] * NPT);
      }
      if (stage.openRows(s) != open) {
        book.fail(OracleBook.GAUGES_EXACT, "shard " + s + " says its open chunk holds "
            + stage.openRows(s) + " row(s); the engine saw " + open + " encoded since its last"
            + " seal");
      }
      int sealed = l.sealedIds.get(s).size();
      long sent = l.arrived(s);
      parked += (int) (sealed - sent);
      long oldestParked = sent < sealed ? l.sealedFirstTick.get(s).get((int) sent) * NPT
          : Long.MAX_VALUE;
      if (stage.oldestParkedIngestNanos(s) != oldestParked) {
        book.fail(OracleBook.GAUGES_EXACT, "shard " + s + " says its oldest parked chunk got"
            + " its first row at " + stage.oldestParkedIngestNanos(s) + " ns; the engine saw "
            + (oldestParked == Long.MAX_VALUE ? "none parked"
            : "chunk " + sent + "'s first row at " + oldestParked + " ns"));
      }
    }
    if (stage.oldestOpenIngestNanos() != oldestOpen) {
      book.fail(OracleBook.GAUGES_EXACT, "the stage says its oldest open chunk got its first row"
          + " at " + stage.oldestOpenIngestNanos() + " ns; the engine saw " + oldestOpen);
    }
    if (stage.numShards() != e.shards || !stage.name().equals("sim")
        || stage.fatalError().isPresent() || l.queues.capacity() != e.capacity
        || l.queues.isClosed() != l.shuttingDown
        || l.budget.limitBytes() != e.budgetLimit) {
      book.fail(OracleBook.GAUGES_EXACT, "the running stage says " + stage.numShards()
          + " shards, name " + stage.name() + ", fatal error " + stage.fatalError()
          + ", queues of " + l.queues.capacity() + " chunks (closed " + l.queues.isClosed()
          + "), a budget of " + l.budget.limitBytes()
          + " bytes; the engine built " + e.shards + " shards named sim, queues of " + e.capacity
          + " and a budget of " + e.budgetLimit);
    }
    if (stage.parkedChunks() != parked) {
      book.fail(OracleBook.GAUGES_EXACT, "the stage says " + stage.parkedChunks() + " chunk(s)"
          + " parked over all shards; the engine saw " + parked + " sealed and not handed on");
    }
  }

  /** After {@code close()}: nothing parked or open is left, and the gauges say so. */
  void checkClosed(Life l) {
    SinkHandoff<SimRow> stage = l.stage.inner;
    book.checks[OracleBook.GAUGES_EXACT]++;
    boolean left = stage.parkedChunks() != 0 || stage.parkedBytes() != 0
        || stage.oldestOpenIngestNanos() != Long.MAX_VALUE;
    for (int s = 0; s < e.shards; s++) {
      left |= stage.parkedChunks(s) != 0 || stage.openRows(s) != 0
          || stage.oldestParkedIngestNanos(s) != Long.MAX_VALUE;
    }
    left |= stage.fatalError().isPresent() != l.stopInjected;
    if (left) {
      book.fail(OracleBook.GAUGES_EXACT, "after close() the stage still says " + stage.parkedChunks()
          + " chunk(s) of " + stage.parkedBytes() + " bytes parked or rows open (oldest open at "
          + stage.oldestOpenIngestNanos() + " ns): " + stage);
    }
  }

  /**
   * The driver's report when it is done: the payloads the engine's sources pushed, a fatal error
   * exactly when the engine injected one that stops the stage, and totals that are the sums of
   * its shard reports (each of which {@code shard-report-exact} judges).
   */
  void checkChainReport(Life l, dev.handoff.core.ChainReport r) {
    book.checks[OracleBook.GAUGES_EXACT]++;
    long sent = 0;
    long failedBack = 0;
    long abandoned = 0;
    for (dev.handoff.core.ShardReport s : r.shards()) {
      sent += s.chunksSent();
      failedBack += s.chunksFailedBack();
      abandoned += s.bytesAbandoned();
    }
    boolean clean = !l.stopInjected && !r.drainTimedOut() && failedBack == 0;
    if (r.payloads() != l.pulls || l.chain.payloads() != l.pulls
        || r.fatal().isPresent() != l.stopInjected || r.chunksSent() != sent
        || r.chunksFailedBack() != failedBack || r.bytesAbandoned() != abandoned
        || r.clean() != clean || r.shards().size() != e.shards) {
      book.fail(OracleBook.GAUGES_EXACT, "the driver reports " + r + " (payloads() "
          + l.chain.payloads() + ", sent " + r.chunksSent() + ", failed back "
          + r.chunksFailedBack() + ", abandoned " + r.bytesAbandoned() + " bytes, clean "
          + r.clean() + "); the engine's sources pushed " + l.pulls + " payloads, "
          + (l.stopInjected ? "a fault that stops the stage was injected" : "no fault stopped"
          + " the stage") + ", and its shards sum to " + sent + " sent, " + failedBack
          + " failed back, " + abandoned + " bytes abandoned");
    }
  }

  /**
   * A flush of the stage's metrics: its gauges are the parked chunks and bytes the engine counts
   * now, and its elapsed time the virtual time since the driver's step began.
   */
  void checkFlush(Life l, StageMetrics m) {
    book.checks[OracleBook.GAUGES_EXACT]++;
    long chunks = 0;
    long bytes = 0;
    for (int s = 0; s < e.shards; s++) {
      int sealed = l.sealedIds.get(s).size();
      long sent = l.arrived(s);
      if (sent < sealed) {
        chunks += sealed - sent;
        bytes += l.sealedBytesBefore[s][sealed] - l.sealedBytesBefore[s][(int) sent];
      }
    }
    long elapsed = (e.clock.tick - l.driverTick) * NPT;
    if (m.parkedChunks() != chunks || m.parkedBytes() != bytes
        || m.elapsed().toNanos() != elapsed) {
      book.fail(OracleBook.GAUGES_EXACT, "the stage's metrics flush says " + m.parkedChunks()
          + " chunk(s) of " + m.parkedBytes() + " bytes parked after " + m.elapsed().toNanos()
          + " ns; the engine counts " + chunks + " chunk(s) of " + bytes + " bytes sealed and not"
          + " handed on, " + elapsed + " ns into the driver's step");
    }
  }

  /* ------------------------------------------------------------------ the sources */

  /**
   * Every fourth event, each source's tracker: its checkpoint, delivered and pending batches and
   * next batch id are what the engine counted from the batches it began and heard resolve.
   */
  void checkSources(Life l) {
    if (++sinceSources < 4) {
      return;
    }
    sinceSources = 0;
    book.checks[OracleBook.GAUGES_EXACT]++;
    for (int s = 0; s < e.sources; s++) {
      SourceAcks a = l.acks[s];
      long begun = l.nextBatch[s] - l.firstBatch[s];
      long pending = begun - l.resolvedBatches[s];
      if (a.checkpoint() != l.expectedCheckpoint[s] || a.deliveredBatches() != l.deliveredBatches[s]
          || a.pendingBatches() != pending || a.nextBatchId() != l.nextBatch[s]) {
        book.fail(OracleBook.GAUGES_EXACT, "source " + s + "'s tracker says checkpoint "
            + a.checkpoint() + ", " + a.deliveredBatches() + " delivered, " + a.pendingBatches()
            + " pending, next batch " + a.nextBatchId() + "; the engine began " + begun
            + " batch(es) from " + l.firstBatch[s] + ", heard " + l.deliveredBatches[s]
            + " delivered and " + l.resolvedBatches[s] + " resolved, and puts the checkpoint at "
            + l.expectedCheckpoint[s]);
      }
    }
  }

  /** When a lifetime ends: each source's failed batches are those the engine heard fail, in order. */
  void checkFailedBatches(Life l) {
    for (int s = 0; s < e.sources; s++) {
      book.checks[OracleBook.GAUGES_EXACT]++;
      List<Long> failed = l.acks[s].failedBatchIds();
      if (!failed.equals(l.failedBatches.get(s))) {
        book.fail(OracleBook.GAUGES_EXACT, "source " + s + "'s tracker says batches " + failed
            + " failed; the engine heard " + l.failedBatches.get(s) + " fail");
      }
    }
  }

  /* ------------------------------------------------------------------ the workers */

  /**
   * Every 16th event while the workers run: their {@code metrics()}, per shard, are what the sink
   * answered as written and stored as dead letters, the retries the listener heard, the chunks and
   * rows abandoned by the engine's count, the real queue's length, and the age of the oldest chunk
   * taken and not settled or queued; the total is the sum (and the largest age). A shard whose
   * worker is inside a write is left out of the counters: its answer is decided, not yet read.
   */
  void checkWorkers(Life l) {
    if (++sinceWorkers < 16 || l.shuttingDown) {
      return;
    }
    sinceWorkers = 0;
    e.ledger.settledChunks(l);
    book.checks[OracleBook.GAUGES_EXACT]++;
    WorkerMetrics m = l.workers.metrics();
    long now = e.clock.tick * NPT;
    long[] sum = new long[8];
    int queued = 0;
    long oldestAge = 0;
    for (int s = 0; s < e.shards; s++) {
      WorkerMetrics.PerShard p = m.shard(s);
      long[] v = {p.inserts(), p.rowsWritten(), p.bytesWritten(), p.retries(),
          p.deadLetteredRows(), p.deadLetteredInserts(), p.abandonedChunks(), p.abandonedRows()};
      for (int i = 0; i < v.length; i++) {
        sum[i] += v[i];
      }
      queued += p.queuedChunks();
      oldestAge = Math.max(oldestAge, p.oldestUnackedAgeNanos());
      long[] n = l.sinkCounts[s];
      int waiting = l.runtime.ws[s].waiting;
      boolean inWrite = waiting == SimRuntime.WRITE || waiting == SimRuntime.STUCK;
      long oldest = Long.MAX_VALUE;
      for (EncodedChunk c : l.inWorker) {
        if (c.shard() == s) {
          oldest = Math.min(oldest, l.sealedFirstTick.get(s).get((int) c.sequence()) * NPT);
        }
      }
      // The queue's head: the next chunk no worker took, by the engine's count (a negative
      // control's view may hold one aside: then the real queue's head is read).
      EncodedChunk head = e.mutation == Mutation.NONE ? null : l.queues.peek(s);
      long headSeq = l.queues.size(s) == 0 ? -1
          : head != null ? head.sequence() : l.polled[s] + l.drained[s];
      if (headSeq >= 0) {
        oldest = Math.min(oldest, l.sealedFirstTick.get(s).get((int) headSeq) * NPT);
      }
      long age = oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest);
      if (p.shard() != s || !inWrite && (v[0] != n[0] || v[1] != n[1] || v[2] != n[2])
          || v[3] != l.listener.retries(s) || v[4] != n[4] || v[5] != n[3]
          || v[6] != l.abandoned[s][0] || v[7] != l.abandoned[s][1]
          || p.queuedChunks() != l.queues.size(s) || p.oldestUnackedAgeNanos() != age) {
        book.fail(OracleBook.GAUGES_EXACT, "the workers' metrics for shard " + s + " say " + p
            + "; the sink answered " + n[0] + " inserts of " + n[1] + " rows and " + n[2]
            + " bytes as written" + (inWrite ? " (one more may be unread)" : "") + " and stored "
            + n[3] + " dead letters of " + n[4] + " rows, the listener heard "
            + l.listener.retries(s) + " retries, the engine counts " + l.abandoned[s][0]
            + " chunks of " + l.abandoned[s][1] + " rows abandoned, " + l.queues.size(s)
            + " queued, and the oldest chunk held or queued " + age + " ns old");
      }
    }
    WorkerMetrics.PerShard t = m.total();
    if (t.shard() != -1 || t.inserts() != sum[0] || t.rowsWritten() != sum[1]
        || t.bytesWritten() != sum[2] || t.retries() != sum[3] || t.deadLetteredRows() != sum[4]
        || t.deadLetteredInserts() != sum[5] || t.abandonedChunks() != sum[6]
        || t.abandonedRows() != sum[7] || t.queuedChunks() != queued
        || t.oldestUnackedAgeNanos() != oldestAge) {
      book.fail(OracleBook.GAUGES_EXACT, "the workers' metrics total " + t + " is not the sum"
          + " of its shards (the largest age): " + java.util.Arrays.toString(sum) + ", "
          + queued + " queued, age " + oldestAge);
    }
  }

  /** The totals of the workers' report are the sums over its shards. */
  void checkReportTotals(WorkersReport r) {
    long rows = 0;
    long dead = 0;
    long abandoned = 0;
    long retries = 0;
    for (WorkersReport.PerShard s : r.shards()) {
      rows += s.rowsWritten();
      dead += s.deadLetteredRows();
      abandoned += s.abandonedChunks();
      retries += s.retries();
    }
    book.checks[OracleBook.GAUGES_EXACT]++;
    if (r.rowsWritten() != rows || r.deadLetteredRows() != dead
        || r.abandonedChunks() != abandoned || r.retries() != retries
        || r.shards().size() != e.shards) {
      book.fail(OracleBook.GAUGES_EXACT, "the workers' report says " + r.rowsWritten()
          + " rows written, " + r.deadLetteredRows() + " dead-lettered, " + r.abandonedChunks()
          + " chunks abandoned and " + r.retries() + " retries in total over "
          + r.shards().size() + " shards; its " + e.shards + " shards sum to " + rows + ", "
          + dead + ", " + abandoned + " and " + retries);
    }
  }
}
