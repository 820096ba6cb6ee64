package dev.handoff.simulator;

import dev.handoff.api.Record;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.Collector;
import dev.handoff.core.Source;
import dev.handoff.core.ack.SourceBatch;

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

  /** The simulated e.sources, behind one {@link Source}: each pull pushes one batch of one. */
  Source<SimRow> source() {
    return out -> {
      Life l = e.cur;
      int active = 0;
      for (int s = 0; s < e.sources; s++) {
        if (l.nextBatch[s] < e.w.batches(s)) {
          active++;
        }
      }
      if (active == 0) {
        return false;
      }
      checkBackpressure(l);
      int pick = e.rng.nextInt(active);
      int s = 0;
      for (; ; s++) {
        if (l.nextBatch[s] < e.w.batches(s) && pick-- == 0) {
          break;
        }
      }
      pushBatch(l, s, out);
      return true;
    };
  }

  /** The driver may pull only when nothing is parked and the budget has room (B8). */
  private void checkBackpressure(Life l) {
    e.book.checks[OracleBook.BACKPRESSURE]++;
    int parked = l.stage.parkedChunks();
    if (parked > 0 || !l.budget.hasRoom()) {
      e.book.fail(OracleBook.BACKPRESSURE, "the driver pulled a payload with " + parked
          + " chunk(s) parked and " + l.budget.inflightBytes() + " bytes in flight (limit "
          + l.budget.limitBytes() + ")");
    }
  }

  private void pushBatch(Life l, int s, Collector<SimRow> out) {
    int b = (int) l.nextBatch[s]++;
    SourceBatch batch = l.acks[s].begin();
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
      batch.complete();
      throw new SourceFailure();
    }
    pushRecords(l, s, first, end, batch, out, now);
    batch.complete();
    lastSource = s;
    lastBatch = b;
  }

  private void pushRecords(Life l, int s, int first, int end, SourceBatch batch,
      Collector<SimRow> out, long now) {
    int base = e.w.base[s];
    for (int n = first; n < end; n++) {
      int id = base + n;
      e.ledger.pushed(id);
      l.pushedToStage++;
      int k = e.w.key[id];
      out.push(new Record<>(new SimRow(id, s, n, k, e.w.keySeq[id]),
          new RecordMeta(now, Workload.routingKey(s, k)), batch));
      e.workers.afterRecord(l);
    }
  }

  /** What a simulated source throws when the {@code source-error} fault hits it. */
  static final class SourceFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SourceFailure() {
      super("injected: the source failed part-way through a batch", null, false, false);
    }
  }
}
