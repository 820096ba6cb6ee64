package dev.handoff.core.sink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One insert being written by a shard's worker, retrying transient failures under the retry
 * policy, an attempt per step of the worker's loop: {@link #step()} makes an attempt and returns,
 * and the next step reads its answer and either finishes or sleeps the backoff and returns again.
 * A runtime that does not block in the writer or the clock thus steps the worker again when the
 * write or the backoff would have ended (see {@link WorkerRuntime}). Used by one worker's steps
 * only.
 */
final class InsertWrite {
  private static final Logger LOG = LoggerFactory.getLogger(InsertWrite.class);

  /** How a write with retries ended. */
  enum Outcome { OK, PERMANENT, ABANDONED }

  /** The result of writing one insert with retries. */
  record Attempt(Outcome outcome, WriteException error, boolean interrupted, int attempts) {}

  private final ShardWorker w;
  final Insert insert;
  private final long start;
  private WriteException last;
  private int attempt = 1;
  /** An attempt was made; its answer is read at the next step. */
  private boolean answered;
  private long t0;
  /** The attempt's answer: null when written, else what the writer threw. */
  private Exception answer;

  InsertWrite(ShardWorker worker, Insert insert) {
    this.w = worker;
    this.insert = insert;
    this.start = worker.clock.nanoTime();
  }

  /**
   * Makes an attempt and returns null (the step ends: the writer may have waited), or reads the
   * answer of the attempt just made and returns {@code OK}, the permanent failure, or the last
   * transient failure when retries ran out, shutdown's deadline passed or the worker was
   * interrupted (then {@code interrupted} is set and the interrupt flag cleared, for the caller to
   * settle before ending); or sleeps the backoff before the next attempt and returns null (the
   * step ends: the clock may have waited).
   */
  Attempt step() {
    if (!answered) {
      if (w.aborting || Thread.currentThread().isInterrupted()) {
        WriteException why = new WriteException(WriteException.Kind.TRANSIENT, -1,
            "sink workers shut down before " + insert + " was written", last);
        return new Attempt(Outcome.ABANDONED, why, Thread.interrupted(), attempt - 1);
      }
      t0 = w.clock.nanoTime();
      try {
        w.writer.write(insert.withAttempt(attempt));
        answer = null;
      } catch (WriteException | RuntimeException e) { // read at the next step
        answer = e;
      }
      answered = true;
      return null;
    }
    answered = false;
    Exception e = answer;
    answer = null;
    int shard = w.shard;
    int n = attempt;
    if (e == null) {
      long nanos = w.clock.nanoTime() - t0;
      w.counters.inserts.incrementAndGet();
      w.counters.rowsWritten.addAndGet(insert.rows());
      w.counters.bytesWritten.addAndGet(insert.bytes());
      w.notify(() -> w.listener.inserted(shard, insert.rows(), insert.bytes(), nanos));
      return new Attempt(Outcome.OK, null, false, n);
    }
    if (e instanceof WriteException) {
      WriteException we = (WriteException) e;
      if (!we.isTransient()) {
        return new Attempt(Outcome.PERMANENT, we, false, n);
      }
      last = we;
    } else {
      LOG.error("writer threw {} on shard {} ({}); treated as transient", e, shard, insert, e);
      last = new WriteException(WriteException.Kind.TRANSIENT, -1, "writer threw " + e, e);
    }
    WriteException failed = last;
    if (Thread.interrupted()) {
      return new Attempt(Outcome.ABANDONED, failed, true, n);
    }
    if (n >= w.retry.maxAttempts()) {
      return new Attempt(Outcome.ABANDONED, failed, false, n);
    }
    long backoff = w.retry.backoffNanos(n, w.random);
    if (w.clock.nanoTime() - start + backoff > w.retry.maxElapsed().toNanos()) {
      return new Attempt(Outcome.ABANDONED, failed, false, n);
    }
    w.counters.retries.incrementAndGet();
    w.notify(() -> w.listener.retried(shard, insert, failed, n, backoff));
    try {
      w.clock.sleep(backoff);
    } catch (InterruptedException ie) {
      return new Attempt(Outcome.ABANDONED, failed, true, n);
    }
    attempt++;
    return null;
  }
}
