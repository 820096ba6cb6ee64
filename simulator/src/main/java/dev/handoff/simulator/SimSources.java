package dev.handoff.simulator;

import dev.handoff.api.Envelope;
import dev.handoff.api.FlowControl;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.stage.Collector;
import dev.handoff.core.Source;

/**
 * The simulated sources behind the one {@link Source} the driver pulls from: each pull pushes one
 * batch of one source (drawn from the seed among the sources with batches left), exactly as the
 * {@link Workload} laid it out, so a restarted source replays the same batches. Also checks the
 * {@code backpressure} oracle as it is asked for a payload, and injects {@code source-error}.
 */
final class SimSources {
  private final Engine e;
  /** The source and batch of the last pull, for the event log. */
  int lastSource;
  long lastBatch;

  SimSources(Engine engine) {
    this.e = engine;
  }

  /**
   * The simulated sources, behind one {@link Source}: with {@code interleave=1} each pull pushes
   * one whole batch of one source; with more, each pull pushes 1 to {@code batch-records}
   * records drawn from the open batches of up to that many sources, and batches span pulls.
   */
  Source<SimRow> source() {
    return out -> {
      Life l = e.cur;
      int active = 0;
      for (int s = 0; s < e.sources; s++) {
        if (hasWork(l, s)) {
          active++;
        }
      }
      if (active == 0) {
        if (l.drainStartTick < 0) {
          l.drainStartTick = e.clock.tick; // the chain drains from this step on
        }
        return false;
      }
      checkBackpressure(l);
      if (e.interleave > 1) {
        pushInterleaved(l, out);
        l.pulls++;
        return true;
      }
      int pick = e.rng.nextInt(active);
      int s = 0;
      for (; ; s++) {
        if (l.nextBatch[s] < e.w.batches(s) && pick-- == 0) {
          break;
        }
      }
      pushBatch(l, s, out);
      l.pulls++;
      return true;
    };
  }

  /** The driver may pull only when nothing is parked and the budget has room (B8). */
  private void checkBackpressure(Life l) {
    e.book.checks[OracleBook.BACKPRESSURE]++;
    // From the engine's own books, not from the stage or the budget it judges: chunks sealed and
    // not handed to a queue are parked; bytes sealed and not settled are in flight.
    long parked = 0;
    for (int sh = 0; sh < e.shards; sh++) {
      parked += l.sealedIds.get(sh).size() - l.arrived(sh);
    }
    if (parked > 0 || l.expectedBytes >= e.budgetLimit) {
      e.book.fail(OracleBook.BACKPRESSURE, "the driver pulled a payload with " + parked
          + " chunk(s) parked and " + l.expectedBytes + " bytes in flight (limit "
          + e.budgetLimit + ")");
    }
  }

  private void pushBatch(Life l, int s, Collector<SimRow> out) {
    int b = (int) l.nextBatch[s]++;
    ShadowAck batch = l.begin(s);
    if (batch.batchId() != b) {
      throw new IllegalStateException("source " + s + " opened batch " + batch.batchId()
          + " but replays batch " + b);
    }
    long now = e.clock.tick;
    int first = e.w.batchStart[s][b];
    int end = e.w.batchStart[s][b + 1];
    if (l.faulty && e.rng.chance(e.sourceErrorRate)) {
      // The source fails part-way: a well-behaved source fails and completes its batch (so it
      // replays) before the exception leaves pushNext.
      end = first + e.rng.nextInt(end - first);
      lastSource = s;
      lastBatch = b;
      pushRecords(l, s, first, end, batch, out, now);
      e.fault(Faults.SOURCE_ERROR, "source " + s + " batch " + b + " after " + (end - first)
          + " record(s)");
      batch.fail(new SourceFailure());
      batch.batch.complete();
      throw new SourceFailure();
    }
    pushRecords(l, s, first, end, batch, out, now);
    e.book.checks[OracleBook.GAUGES_EXACT]++;
    if (batch.batch.holders() < 1) { // the source's own hold, until it completes the batch
      e.book.fail(OracleBook.GAUGES_EXACT, "batch " + b + " of source " + s + " says "
          + batch.batch.holders() + " holders before its source completed it");
    }
    batch.batch.complete();
    lastSource = s;
    lastBatch = b;
  }

  private boolean hasWork(Life l, int s) {
    return l.openBatch[s] != null || l.nextBatch[s] < e.w.batches(s);
  }

  /** One interleaved pull: records of several sources' open batches, in a seeded order. */
  private void pushInterleaved(Life l, Collector<SimRow> out) {
    int[] chosen = new int[Math.min(e.interleave, e.sources)];
    int c = 0;
    int start = e.rng.nextInt(e.sources);
    for (int i = 0; i < e.sources && c < chosen.length; i++) {
      int s = (start + i) % e.sources;
      if (hasWork(l, s)) {
        chosen[c++] = s;
      }
    }
    int records = 1 + e.rng.nextInt(e.batchRecords);
    int failAt = l.faulty && e.rng.chance(e.sourceErrorRate) ? e.rng.nextInt(records) : -1;
    long now = e.clock.tick;
    for (int r = 0; r < records; r++) {
      if (r == failAt) {
        e.fault(Faults.SOURCE_ERROR, "interleaved pull after " + r + " record(s)");
        closeOpenBatches(l, new SourceFailure());
        throw new SourceFailure();
      }
      int live = 0;
      for (int i = 0; i < c; i++) {
        live += hasWork(l, chosen[i]) ? 1 : 0;
      }
      if (live == 0) {
        return;
      }
      int pick = e.rng.nextInt(live);
      int s = -1;
      for (int i = 0; i < c; i++) {
        if (hasWork(l, chosen[i]) && pick-- == 0) {
          s = chosen[i];
          break;
        }
      }
      if (l.openBatch[s] == null) {
        int b = (int) l.nextBatch[s]++;
        ShadowAck opened = l.begin(s);
        if (opened.batchId() != b) {
          throw new IllegalStateException("source " + s + " opened batch " + opened.batchId()
              + " but replays batch " + b);
        }
        l.openBatch[s] = opened;
        l.openNext[s] = e.w.batchStart[s][b];
      }
      ShadowAck batch = l.openBatch[s];
      int b = (int) batch.batchId();
      int n = l.openNext[s]++;
      pushRecords(l, s, n, n + 1, batch, out, now);
      lastSource = s;
      lastBatch = b;
      if (l.openNext[s] == e.w.batchStart[s][b + 1]) {
        l.openBatch[s] = null;
        batch.batch.complete();
      }
    }
  }

  /**
   * The sources go away (the lifetime ends, or one failed): like a well-behaved source, each
   * fails and completes the batch it has begun, so that batch resolves and replays.
   */
  void closeOpenBatches(Life l, Throwable cause) {
    for (int s = 0; s < l.openBatch.length; s++) {
      ShadowAck open = l.openBatch[s];
      if (open != null) {
        l.openBatch[s] = null;
        open.fail(cause);
        open.batch.complete();
      }
    }
  }

  private void pushRecords(Life l, int s, int first, int end, ShadowAck batch,
      Collector<SimRow> out, long now) {
    int base = e.w.base[s];
    boolean rejects = l.faulty && e.policy == dev.handoff.api.ErrorPolicy.SKIP
        && e.recordErrorRate > 0;
    for (int n = first; n < end; n++) {
      int id = base + n;
      e.ledger.pushed(id);
      l.pushedToStage++;
      if (rejects && (id + e.clock.tick) % 61 == 0) {
        reject(l, s, n, id, batch);
        continue;
      }
      int k = e.w.key[id];
      // B1: push never rejects nor blocks; pressure shows between payloads.
      if (out.push(new Envelope<>(new SimRow(id, s, n, k, e.w.keySeq[id], e.w.pad[id]),
          new RecordMeta(eventTime(now, id), Workload.routingKey(s, k)), batch))
          != FlowControl.CONTINUE) {
        e.book.fail(OracleBook.BACKPRESSURE, "the stage's push answered other than CONTINUE"
            + " for record #" + n + " of source " + s + " (push never rejects)");
      }
      e.afterRecord(l);
    }
  }

  /**
   * A record the source cannot prepare for push (say its routing key cannot be computed): it hands
   * it to the stage's {@code reject}, which under {@code skip} counts it as an encode error and
   * skipped, or, once the stage stopped, fails its batch (chosen by record and tick under {@code
   * skip} with record errors on: no extra draw).
   */
  private void reject(Life l, int s, int n, int id, ShadowAck batch) {
    if (!l.stopInjected) {
      e.fault(Faults.RECORD_ERROR_SKIP, "record #" + n + " of source " + s + " rejected");
      l.injectedEncodeErrors++;
      l.injectedSkips++;
      e.ledger.skipped(l, id);
    }
    if (l.stage.inner.reject(dev.handoff.api.HandoffException.data("injected: record #" + n
        + " of source " + s + " has no routing key"), batch) != FlowControl.CONTINUE) {
      e.book.fail(OracleBook.BACKPRESSURE, "the stage's reject answered other than CONTINUE");
    }
    e.afterRecord(l);
  }

  /** A record's event time: the tick it is pushed at, less up to 12 ms, so the oldest row of a
   * chunk is not always its first. */
  static long eventTime(long tick, int id) {
    return tick - (id * 7L % 13);
  }

  /** What a simulated source throws when the {@code source-error} fault hits it. */
  static final class SourceFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SourceFailure() {
      super("injected: the source failed part-way through a batch", null, false, false);
    }
  }
}
