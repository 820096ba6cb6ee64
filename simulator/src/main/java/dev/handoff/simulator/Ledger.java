package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.api.spi.Insert;
import dev.handoff.core.ack.BatchListener;
import dev.handoff.core.ack.SourceBatch;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The in-memory table and the books: every row the sink workers wrote, every record skipped,
 * pushed or replayed, the sources' durable checkpoints, and the oracles that judge them (those
 * over the stage's own books in {@link StageChecks}).
 */
final class Ledger {
  private final Engine e;
  private final Workload w;
  private final OracleBook book;

  /** Per source: the durable checkpoint (highest batch id committed); survives restarts. */
  final long[] checkpoint;
  /** Per record: how often a worker wrote it. */
  private final int[] written;
  /** Per record: 1 + the epoch of its last write, 0 if never written. */
  private final int[] writtenEpoch;
  /** Per record: 1 + the epoch in which the stage last skipped it, 0 if never. */
  private final int[] skippedEpoch;
  /** Per record: 1 + the epoch in which the workers dead-lettered it, 0 if never. */
  private final int[] deadEpoch;
  /** Per record: 1 + the epoch in which a lost answer allows it to be written again. */
  private final int[] repeatEpoch;
  /**
   * Per record: 1 + the epoch in which the sink answered a write of it as written, or stored it
   * as a dead letter (its chunk is handled once every row of it is).
   */
  private final int[] handledEpoch;
  private long duplicatesExplained;
  private long deadLetters;
  private long chunksTaken;
  /** Write attempts the sink saw, and those of them that were retries (attempt 2 or later). */
  long insertAttempts;
  long insertRetries;
  /** What the workers' shutdown reports said, summed over the lifetimes that shut down. */
  final long[] workerTotals = new long[6];
  private final RowDecoder decoder;
  private final boolean[] pushedEver;
  private final short[] sourceOf;
  private long pushes;
  private long replayed;
  private long rowsWritten;
  private long skips;
  private long lost;
  private long unexpected;
  private long batchesFailed;
  Thread simThread;
  private volatile String foreignResolution;

  Ledger(Engine engine) {
    this.e = engine;
    this.w = engine.w;
    this.book = engine.book;
    this.checkpoint = new long[w.sources];
    java.util.Arrays.fill(checkpoint, -1);
    this.written = new int[w.records];
    this.writtenEpoch = new int[w.records];
    this.skippedEpoch = new int[w.records];
    this.deadEpoch = new int[w.records];
    this.repeatEpoch = new int[w.records];
    this.handledEpoch = new int[w.records];
    this.pushedEver = new boolean[w.records];
    this.sourceOf = new short[w.records];
    for (int s = 0; s < w.sources; s++) {
      for (int id = w.base[s]; id < w.base[s + 1]; id++) {
        sourceOf[id] = (short) s;
      }
    }
    this.decoder = new RowDecoder(engine, sourceOf);
  }

  void pushed(int id) {
    pushes++;
    if (pushedEver[id]) {
      replayed++;
    } else {
      pushedEver[id] = true;
    }
  }

  void skipped(Life l, int id) {
    skips++;
    skippedEpoch[id] = l.epoch + 1;
  }

  /* ------------------------------------------------------------------ the sink's side */

  /** Decodes the rows an insert carries and checks them against the shadow ({@link RowDecoder}). */
  int[] decode(Life l, Insert insert) {
    return decoder.decode(l, insert);
  }

  /** The sink sees a write attempt (before its fate is drawn): counted for the report. */
  void attempted(Life l, Insert insert) {
    insertAttempts++;
    l.insertAttempts++;
    if (insert.attempt() > 1) {
      insertRetries++;
    }
  }

  /** Returns the rows dead-lettered so far. */
  long deadLetteredRows() {
    return deadLetters;
  }

  /** The sink wrote {@code rows} (decoded from {@code insert}) to the table. */
  void written(Life l, Insert insert, int[] rows) {
    int shard = insert.shard();
    int epoch = l.epoch + 1;
    int sources = w.sources;
    for (int id : rows) {
      int s = sourceOf[id];
      int n = id - w.base[s];
      int slot = shard * sources + s;
      boolean repeat = writtenEpoch[id] == epoch;
      if (repeat) {
        book.checks[OracleBook.NO_LOSS]++;
        if (repeatEpoch[id] != epoch) {
          book.fail(OracleBook.NO_LOSS, "record #" + n + " of source " + s + " written twice"
              + " within process lifetime " + l.epoch + " with no lost answer to explain it"
              + " (chunks " + insert.firstSequence() + ".." + insert.lastSequence() + ")");
        }
        duplicatesExplained++;
      } else {
        book.checks[OracleBook.PER_SHARD_ORDER]++;
        if (n <= l.lastN[slot]) {
          book.fail(OracleBook.PER_SHARD_ORDER, "shard " + shard + " wrote record #" + n
              + " of source " + s + " (key " + w.key[id] + " seq " + w.keySeq[id] + ") after #"
              + l.lastN[slot] + " (chunks " + insert.firstSequence() + ".."
              + insert.lastSequence() + ")");
        }
        l.lastN[slot] = n;
      }
      writtenEpoch[id] = epoch;
      written[id]++;
      rowsWritten++;
    }
  }

  /** The sink answered the write of {@code rows} as written, or stored them as a dead letter. */
  void handled(Life l, int[] rows) {
    int epoch = l.epoch + 1;
    for (int id : rows) {
      handledEpoch[id] = epoch;
    }
  }

  /** Whether the sink answered every row of {@code ids} as written or dead-lettered in {@code l}. */
  boolean allHandled(Life l, int[] ids) {
    int epoch = l.epoch + 1;
    for (int id : ids) {
      if (handledEpoch[id] != epoch) {
        return false;
      }
    }
    return true;
  }

  /** The answer to an insert that the server wrote was lost: its rows may come again. */
  void mayRepeat(Life l, int[] rows) {
    for (int id : rows) {
      repeatEpoch[id] = l.epoch + 1;
    }
  }

  /** The workers set {@code rows} aside as dead letters: handled, not written. */
  void deadLettered(Life l, Insert insert, int[] rows, Exception cause) {
    int epoch = l.epoch + 1;
    if (!l.faulty) {
      // In the fault-free phase the sink refuses only poison pills: a dead letter holds one, and
      // (when the writer never refuses to split: its splits end at single rows) nothing else.
      boolean poison = false;
      for (int id : rows) {
        poison |= e.sinkPoison && w.poison[id];
      }
      book.checks[OracleBook.NO_LOSS]++;
      if (!poison || e.rowBinary && e.splitRefuseRate == 0 && rows.length != 1) {
        book.fail(OracleBook.NO_LOSS, "records " + RowDecoder.describe(rows) + " dead-lettered in the"
            + " fault-free phase, where only poison pills are refused and the writer splits"
            + " row by row: " + cause);
      }
    }
    for (int id : rows) {
      deadEpoch[id] = epoch;
      deadLetters++;
    }
  }

  /** A worker took chunk {@code c} from its queue: watch its frame for the release. */
  void taken(Life l, EncodedChunk c) {
    l.inWorker.add(c);
    chunksTaken++;
    int s = c.shard();
    int seq = (int) c.sequence();
    // Seal order: a shard's worker takes its chunks in the order the shard sealed them.
    book.checks[OracleBook.PER_SHARD_ORDER]++;
    long before = l.taken[s].length() - 1; // the latest chunk taken so far, -1 if none
    if (seq != l.polled[s] - 1 || before > seq) {
      book.fail(OracleBook.PER_SHARD_ORDER, "shard " + s + "'s worker took chunk " + seq
          + " as its chunk #" + (l.polled[s] - 1) + " (seal order), after chunk " + before);
    }
    book.checks[OracleBook.CHUNK_METADATA]++;
    if (seq >= l.sealedIds.get(s).size()) {
      book.fail(OracleBook.CHUNK_METADATA, "shard " + s + " handed its worker chunk " + seq
          + " but the encoder sealed only " + l.sealedIds.get(s).size());
      return;
    }
    int rows = l.sealedIds.get(s).get(seq).length;
    long ingest = l.sealedFirstTick.get(s).get(seq) * VirtualClock.NANOS_PER_TICK;
    long oldest = l.sealedOldestEvent.get(s).get(seq);
    if (c.rows() != rows || c.oldestIngestNanos() != ingest || c.oldestEventTimeMs() != oldest) {
      book.fail(OracleBook.CHUNK_METADATA, "shard " + s + " chunk " + seq + " says " + c.rows()
          + " rows, first ingest " + c.oldestIngestNanos() + " ns, oldest event "
          + c.oldestEventTimeMs() + " ms; the engine saw " + rows + " rows, the first encoded"
          + " at " + ingest + " ns, the oldest event at " + oldest + " ms");
    }
  }

  /** The chunk whose frame the workers released: its bytes left the budget by the shadow's count. */
  void settledChunks(Life l) {
    java.util.Iterator<EncodedChunk> it = l.inWorker.iterator();
    while (it.hasNext()) {
      EncodedChunk c = it.next();
      if (c.frame().isReleased()) {
        it.remove();
        int s = c.shard();
        int seq = (int) c.sequence();
        l.expectedBytes -= e.charged(l.sealedBytes.get(s).get(seq));
        // Settled: abandoned unless the sink wrote or dead-lettered every row of it.
        int[] ids = l.sealedIds.get(s).get(seq);
        if (!allHandled(l, ids)) {
          l.abandoned[s][0]++;
          l.abandoned[s][1] += ids.length;
        }
      }
    }
  }

  /** Hears every batch of source {@code s} resolve in lifetime {@code l}. */
  BatchListener listener(Life l, int s) {
    return (batch, cp) -> {
      if (l.dead) {
        return; // a batch of a process that is gone (the leak detector may fail it later)
      }
      if (Thread.currentThread() != simThread) {
        foreignResolution = "batch " + batch.batchId() + " of source " + s
            + " was resolved by " + Thread.currentThread().getName()
            + " (the ack leak detector): an ack set was dropped unresolved";
        return;
      }
      resolved(l, s, batch, cp);
    };
  }

  private void resolved(Life l, int s, SourceBatch batch, long cp) {
    int b = (int) batch.batchId();
    book.checks[OracleBook.GAUGES_EXACT]++;
    boolean failedState = batch.state() == SourceBatch.State.FAILED;
    if (batch.holders() != 0 || (batch.failure() != null) != failedState
        || !batch.source().equals("source-" + s)) {
      book.fail(OracleBook.GAUGES_EXACT, "batch " + b + " of source " + s + " resolved "
          + batch.state() + " says " + batch.holders() + " holder(s), failure " + batch.failure()
          + ", source " + batch.source());
    }
    // The failure a batch reports is the first cause it was failed with, as its holders told
    // it (the shadow saw every call): not another cause, not a generic one; a delivered batch was
    // never failed.
    ShadowAck told = b < l.shadowAcks[s].length ? l.shadowAcks[s][b] : null;
    book.checks[OracleBook.ACKS_RESOLVED]++;
    if (told == null ? failedState : failedState != told.failed
        || failedState && told.firstCause != null && batch.failure() != told.firstCause) {
      book.fail(OracleBook.ACKS_RESOLVED, "batch " + b + " of source " + s + " resolved "
          + batch.state() + " with failure " + batch.failure() + "; its holders "
          + (told == null || !told.failed ? "never failed it" : "failed it first with "
          + told.firstCause));
    }
    l.resolvedBatches[s]++;
    if (batch.state() == SourceBatch.State.DELIVERED) {
      l.deliveredBatches[s]++;
    } else {
      l.failedBatches.get(s).add(batch.batchId());
    }
    if (batch.state() == SourceBatch.State.DELIVERED) {
      boolean[] delivered = l.deliveredBatch[s];
      delivered[b] = true;
      long next = l.expectedCheckpoint[s] + 1;
      while (next < delivered.length && delivered[(int) next]) {
        next++;
      }
      l.expectedCheckpoint[s] = next - 1;
    }
    book.checks[OracleBook.CHECKPOINT_EXACT]++;
    if (cp != l.expectedCheckpoint[s]) {
      book.fail(OracleBook.CHECKPOINT_EXACT, "source " + s + " reports checkpoint " + cp
          + " after batch " + b + " resolved " + batch.state() + ", but the batches delivered"
          + " since the last restart put it at " + l.expectedCheckpoint[s]);
    }
    checkpoint[s] = cp;
    if (batch.state() != SourceBatch.State.DELIVERED) {
      batchesFailed++;
      return;
    }
    int epoch = l.epoch + 1;
    book.checks[OracleBook.NO_LOSS]++;
    for (int n = w.batchStart[s][b], end = w.batchStart[s][b + 1]; n < end; n++) {
      int id = w.base[s] + n;
      if (writtenEpoch[id] != epoch && skippedEpoch[id] != epoch && deadEpoch[id] != epoch) {
        lost++;
        book.fail(OracleBook.NO_LOSS, "batch " + b + " of source " + s
            + " was acknowledged as delivered but record #" + n + " (key " + w.key[id]
            + " seq " + w.keySeq[id] + ") was neither written, dead-lettered nor counted as"
            + " skipped");
      }
    }
  }

  /**
   * The oracles checked after a worker ran outside a payload: those whose books a worker moves
   * (the budget, the acknowledgements) and liveness. The stage's own books (parked chunks, chunk
   * ages, metrics, arrivals) move only in driver and timer events, after which {@link #afterEvent}
   * checks them all.
   */
  void afterWorker(Life l) {
    if (l.dead) {
      return;
    }
    e.stageChecks.checkBudget(l);
    book.checks[OracleBook.ACKS_RESOLVED]++;
    if (foreignResolution != null) {
      book.fail(OracleBook.ACKS_RESOLVED, foreignResolution);
    }
    e.stageChecks.checkLiveness(l);
  }

  /** The oracles checked after every event. */
  void afterEvent(Life l) {
    if (l.dead) {
      return;
    }
    long[] checks = book.checks;
    e.stageChecks.checkBudget(l);
    e.stageChecks.checkCounters(l);
    if (l.fatalSnapshot == null && l.stage.isStopped()) {
      l.fatalSnapshot = new long[e.shards];
      for (int s = 0; s < e.shards; s++) {
        l.fatalSnapshot[s] = l.arrived(s);
      }
    }
    if (l.fatalSnapshot != null) {
      checks[OracleBook.NOTHING_AFTER_FATAL]++;
      for (int s = 0; s < e.shards; s++) {
        long now = l.arrived(s);
        if (now > l.fatalSnapshot[s]) {
          book.fail(OracleBook.NOTHING_AFTER_FATAL, "shard " + s + "'s queue got "
              + (now - l.fatalSnapshot[s]) + " chunk(s) after the stage stopped on a fatal"
              + " error");
        }
      }
    }
    e.stageChecks.checkChunkAge(l);
    e.stageChecks.checkParked(l);
    e.gauges.checkSources(l);
    e.gauges.checkWorkers(l);
    checks[OracleBook.ACKS_RESOLVED]++;
    if (foreignResolution != null) {
      book.fail(OracleBook.ACKS_RESOLVED, foreignResolution);
    }
    e.stageChecks.checkLiveness(l);
  }

  /** The checks when a lifetime ends: every batch resolved, the budget back to zero. */
  void lifeEnded(Life l) {
    e.gauges.checkFailedBatches(l);
    l.listener.checkJitter();
    for (int s = 0; s < w.sources; s++) {
      book.checks[OracleBook.ACKS_RESOLVED]++;
      int pending = l.acks[s].pendingBatches();
      if (pending != 0) {
        book.fail(OracleBook.ACKS_RESOLVED, pending + " batch(es) of source " + s
            + " never resolved when process lifetime " + l.epoch + " ended (checkpoint "
            + l.acks[s].checkpoint() + ")");
      }
    }
    book.checks[OracleBook.BUDGET_EXACT]++;
    if (l.budget.inflightBytes() != 0 || l.expectedBytes != 0) {
      book.fail(OracleBook.BUDGET_EXACT, "process lifetime " + l.epoch + " ended with "
          + l.budget.inflightBytes() + " bytes in the budget (expected 0; the engine counts "
          + l.expectedBytes + " bytes not yet written or abandoned)");
    }
    book.checks[OracleBook.SETTLED_ONCE]++;
    if (l.pool.onLoan() != 0 || l.pool.refusedGives() != 0) {
      book.fail(OracleBook.SETTLED_ONCE, "process lifetime " + l.epoch + " ended with "
          + l.pool.onLoan() + " chunk array(s) not given back to the pool and "
          + l.pool.refusedGives() + " given back twice or foreign (" + l.pool + ")");
    }
    book.checks[OracleBook.SETTLED_ONCE]++;
    if (!l.inWorker.isEmpty()) {
      EncodedChunk c = l.inWorker.get(0);
      book.fail(OracleBook.SETTLED_ONCE, l.inWorker.size() + " chunk(s) the workers took were"
          + " never settled when process lifetime " + l.epoch + " ended, the first shard "
          + c.shard() + " chunk " + c.sequence());
    }
  }

  boolean allCommitted() {
    for (int s = 0; s < w.sources; s++) {
      if (checkpoint[s] != w.batches(s) - 1) {
        return false;
      }
    }
    return true;
  }

  /** The end of a finished run: every record delivered or skipped, none unexpected. */
  void atEnd() {
    book.checks[OracleBook.NO_LOSS]++;
    long missing = 0;
    int first = -1;
    for (int id = 0; id < w.records; id++) {
      if (written[id] == 0 && skippedEpoch[id] == 0 && deadEpoch[id] == 0) {
        missing++;
        if (first < 0) {
          first = id;
        }
      }
    }
    if (missing > 0) {
      lost += missing;
      book.fail(OracleBook.NO_LOSS, missing + " record(s) committed but never written nor"
          + " skipped, the first record id " + first);
    }
    unexpected += decoder.unexpected;
    decoder.unexpected = 0;
    if (unexpected > 0) {
      book.fail(OracleBook.NO_LOSS, unexpected + " unexpected row(s) written");
    }
    book.checks[OracleBook.LIVENESS]++;
  }

  Map<String, Long> recordCounts(int epochs) {
    long delivered = 0;
    long duplicated = 0;
    long skippedOnly = 0;
    for (int id = 0; id < w.records; id++) {
      if (written[id] > 0) {
        delivered++;
        duplicated += written[id] - 1;
      } else if (skippedEpoch[id] != 0) {
        skippedOnly++;
      }
    }
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("generated", (long) w.records);
    m.put("pushed", pushes);
    m.put("replayed", replayed);
    m.put("delivered", delivered);
    m.put("written", rowsWritten);
    m.put("duplicated", duplicated);
    m.put("skipped", skippedOnly);
    m.put("skip-events", skips);
    m.put("lost", lost);
    m.put("unexpected", unexpected);
    m.put("batches-failed", batchesFailed);
    m.put("duplicates-explained", duplicatesExplained);
    m.put("dead-lettered", deadLetters);
    m.put("chunks-taken", chunksTaken);
    m.put("insert-attempts", insertAttempts);
    m.put("worker-inserts", workerTotals[0]);
    m.put("worker-retries", workerTotals[1]);
    m.put("worker-dead-lettered-rows", workerTotals[2]);
    m.put("worker-abandoned-chunks", workerTotals[3]);
    m.put("worker-failed-at-shutdown", workerTotals[4]);
    m.put("worker-writers-stuck", workerTotals[5]);
    m.put("process-lifetimes", (long) epochs);
    return m;
  }
}
