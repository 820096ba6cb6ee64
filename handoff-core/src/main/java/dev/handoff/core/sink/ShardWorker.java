package dev.handoff.core.sink;

import dev.handoff.api.HandoffClock;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.sink.InsertWrite.Attempt;
import dev.handoff.core.sink.InsertWrite.Outcome;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.internal.WarnLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard's worker: the loop that takes, merges and writes, and the settling of chunks. The
 * contracts are in the package documentation; {@link Isolation} handles permanent failures under
 * {@link PermanentPolicy#DEAD_LETTER}.
 */
final class ShardWorker implements WorkerRuntime.Loop {
  private static final Logger LOG = LoggerFactory.getLogger(ShardWorker.class);

  final int shard;
  final Counters counters = new Counters();
  private final ShardQueues queues;
  private final InflightBudget budget;
  final InsertWriter writer;
  final HandoffClock clock;
  final RetryPolicy retry;
  private final PermanentPolicy onPermanent;
  final DeadLetters deadLetters;
  final WorkerListener listener;
  private final long maxInsertBytes;
  private final int maxInsertRows;
  private static final long LINGER_SLICE_NANOS = 1_000_000L;

  private final long lingerNanos;
  private final long pollNanos;
  /** The jitter of this shard's backoffs. */
  final SplittableRandom random;
  /** Where this worker waits for chunks. */
  private final WorkerRuntime runtime;
  /** Shared by every shard's worker; guarded by itself. */
  private final WarnLimiter warnings;

  /* The loop's state between steps; read and written only by the step that runs. */
  private static final int TAKE = 0;
  private static final int GATHER = 1;
  private static final int WRITE = 2;
  private static final int ISOLATE = 3;
  private int state = TAKE;
  /** A chunk taken that did not fit the last insert: it starts the next one. */
  private Held carry;
  /** The insert being gathered, written or isolated, with its bytes, rows and linger start. */
  private List<Held> batch;
  private long batchBytes;
  private long batchRows;
  private long lingerStart;
  private InsertWrite writing;
  private Isolation isolation;

  /** Chunks taken and not settled, in take (= seal) order. */
  private final ConcurrentLinkedDeque<Held> held = new ConcurrentLinkedDeque<>();

  /** Shutdown began: write what is queued without lingering, then end. */
  volatile boolean draining;
  /**
   * Set by {@link SinkWorkers#endLinger()}: the insert being gathered goes out as soon as the
   * queue is empty; cleared by the worker when it does so.
   */
  volatile boolean endLinger;
  /** Shutdown's deadline passed: start no new attempt, take nothing more. */
  volatile boolean aborting;
  /** Shutdown gave up on this worker and failed its chunks; anything it takes now it fails. */
  private volatile boolean forced;
  /** The loop ended (its last step returned or it was killed): it reads no frame any more. */
  private volatile boolean exited;
  /**
   * Chunks shutdown failed while this worker may still be reading them (a writer stuck past the
   * grace period): their bytes left the budget, but their frames are released only once the
   * loop has ended, so a pooled array is never lent again under a reader.
   */
  private final ConcurrentLinkedQueue<EncodedChunk> owedFrames = new ConcurrentLinkedQueue<>();

  ShardWorker(int shard, SinkWorkers.Builder b, WarnLimiter warnings, WorkerRuntime runtime) {
    this.runtime = runtime;
    this.shard = shard;
    this.warnings = warnings;
    this.queues = b.queues;
    this.budget = b.budget;
    this.writer = b.writer;
    this.clock = b.clock;
    this.retry = b.retry;
    this.onPermanent = b.onPermanent;
    this.deadLetters = b.deadLetters;
    this.listener = b.listener;
    this.maxInsertBytes = b.maxInsertBytes;
    this.maxInsertRows = b.maxInsertRows;
    this.lingerNanos = b.linger.toNanos();
    this.pollNanos = b.pollInterval.toNanos();
    // Each shard draws its own jitter from the seed, so shards do not depend on each other's order.
    this.random = new SplittableRandom(b.seed ^ (0x9E3779B97F4A7C15L * (shard + 1)));
  }

  /* ------------------------------------------------------------------ the loop, in steps */

  /**
   * Runs the loop until it waits or ends (see {@link WorkerRuntime.Loop#step()}). The handling of
   * an interrupt, an exception or an {@link Error} is the one of a worker thread's loop: what the
   * worker holds is failed, and an {@code Error} is rethrown after that.
   */
  @Override
  public boolean step() {
    boolean more = false;
    Throwable cause = null;
    try {
      more = advance();
      return more;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cause = e;
      if (!aborting) {
        LOG.error("sink worker of shard {} interrupted outside shutdown; it ends", shard);
      }
      return false;
    } catch (Throwable t) { // an Error, or a bug here: fail what we hold, then let it go
      cause = t;
      LOG.error("sink worker of shard {} failed; it ends", shard, t);
      if (t instanceof Error) {
        abandonHeld(t, false);
        throw (Error) t;
      }
      return false;
    } finally {
      if (!more) {
        ended(cause);
      }
    }
  }

  @Override
  public void kill(Error cause) {
    LOG.error("sink worker of shard {} failed; it ends", shard, cause);
    try {
      abandonHeld(cause, false);
    } finally {
      ended(cause);
    }
  }

  /** The loop ended: fail what is still held, then the frames shutdown left to this worker. */
  private void ended(Throwable cause) {
    if (!held.isEmpty()) {
      abandonHeld(cause != null ? cause : shutdownCause(), aborting);
    }
    exited = true;
    releaseOwedFrames(); // the loop reads no frame any more
  }

  /** Releases the frames of chunks shutdown failed on this worker's behalf; each once. */
  private void releaseOwedFrames() {
    EncodedChunk c;
    while ((c = owedFrames.poll()) != null) {
      c.frame().release();
    }
  }

  /**
   * The loop: take a first chunk, gather more into the insert while linger and the limits allow,
   * write it with retries, settle it (isolating rows under {@code DEAD_LETTER}), again until the
   * deadline aborts or the drained queue is closed and empty. Returns false when it ended, true
   * when the step ends because the worker waited (or, on a runtime that does not block, would
   * wait): a timed poll that found nothing, an attempt at the writer, a backoff.
   */
  private boolean advance() throws InterruptedException {
    for (;;) {
      switch (state) {
        case TAKE -> {
          if (aborting) {
            return false;
          }
          Held first = carry;
          carry = null;
          if (first == null) {
            EncodedChunk c = runtime.poll(queues, shard, pollNanos);
            if (c == null) {
              return !(draining && queues.isClosed() && queues.size(shard) == 0);
            }
            first = hold(c);
          }
          batch = new ArrayList<>();
          batch.add(first);
          batchBytes = first.chunk.sizeBytes();
          batchRows = first.chunk.rows();
          lingerStart = clock.nanoTime();
          state = GATHER;
        }
        case GATHER -> {
          if (!gather()) {
            return true;
          }
          writing = new InsertWrite(this, insertOf(batch));
          state = WRITE;
        }
        case WRITE -> {
          Attempt result = writing.step();
          if (result == null) {
            return true;
          }
          writing = null;
          settle(result);
        }
        default -> { // ISOLATE
          if (!isolation.step()) {
            return true;
          }
          isolated();
        }
      }
    }
  }

  /**
   * Adds the queue's next chunks to the insert while the limits and linger allow. Returns true
   * when the insert is complete, false when the step ends on a timed poll that found nothing (the
   * next step goes on gathering).
   */
  private boolean gather() throws InterruptedException {
    while (batchBytes < maxInsertBytes && batchRows < maxInsertRows && !aborting) {
      EncodedChunk next = runtime.poll(queues, shard, 0);
      if (next == null) {
        if (endLinger) {
          endLinger = false; // every chunk queued before the request is in this insert
          return true;
        }
        long remaining = lingerNanos - (clock.nanoTime() - lingerStart);
        // A full budget blocks the producer until chunks are written: waiting for more
        // to merge would only stall both sides.
        if (remaining <= 0 || draining || !budget.hasRoom()) {
          return true;
        }
        // Short slices while lingering, so a request to end it is seen within a millisecond.
        next = runtime.poll(queues, shard,
            Math.min(remaining, Math.min(pollNanos, LINGER_SLICE_NANOS)));
        if (next == null) {
          return false;
        }
      }
      Held h = hold(next);
      if (batchBytes + h.chunk.sizeBytes() > maxInsertBytes
          || batchRows + h.chunk.rows() > maxInsertRows) {
        carry = h; // starts the next insert
        return true;
      }
      batch.add(h);
      batchBytes += h.chunk.sizeBytes();
      batchRows += h.chunk.rows();
    }
    return true;
  }

  private Held hold(EncodedChunk chunk) {
    Held h = new Held(chunk);
    held.addLast(h);
    if (forced) { // shutdown already failed what we held; it may have missed this one
      fail(List.of(h), shutdownCause(), true);
    }
    return h;
  }

  /** Settles the insert after its write: written, abandoned, failed, or on to isolation. */
  private void settle(Attempt result) throws InterruptedException {
    if (result.outcome() == Outcome.OK) {
      succeed(batch);
    } else if (result.outcome() == Outcome.ABANDONED) {
      fail(batch, result.error(), aborting); // shutdown's deadline counts it as failed at shutdown
    } else if (onPermanent == PermanentPolicy.FAIL_ACKS) {
      fail(batch, result.error(), false);
    } else {
      isolation = new Isolation(this, batch, result);
      state = ISOLATE;
      return;
    }
    inserted(result);
  }

  /** Isolation ended: fails what it left unsettled (it stopped early), then the insert is done. */
  private void isolated() throws InterruptedException {
    Attempt result = isolation.failure();
    Attempt stopped = isolation.abandoned();
    isolation = null;
    List<Held> left = new ArrayList<>();
    for (Held h : batch) {
      if (!h.isSettled()) {
        left.add(h);
      }
    }
    if (!left.isEmpty()) {
      fail(left, stopped != null ? stopped.error() : result.error(), stopped != null && aborting);
    }
    inserted(stopped != null ? stopped : result);
  }

  /** The insert is settled: the next one starts, unless the write was interrupted. */
  private void inserted(Attempt result) throws InterruptedException {
    batch = null;
    state = TAKE;
    if (result.interrupted()) {
      throw new InterruptedException("interrupted while writing shard " + shard);
    }
  }

  Insert insertOf(List<Held> chunks) {
    List<Frame> frames = new ArrayList<>(chunks.size());
    long bytes = 0;
    long rows = 0;
    for (Held h : chunks) {
      frames.add(h.chunk.frame());
      bytes += h.chunk.sizeBytes();
      rows += h.chunk.rows();
    }
    return new Insert(shard, chunks.get(0).chunk.sequence(),
        chunks.get(chunks.size() - 1).chunk.sequence(), frames,
        (int) Math.min(Integer.MAX_VALUE, rows), bytes, 1);
  }

  /* ------------------------------------------------------------------ settling */

  /** Releases the chunks' bytes, then succeeds their acknowledgements; each once. */
  void succeed(List<Held> chunks) {
    for (Held h : chunks) {
      if (h.claim()) {
        held.remove(h);
        release(h.chunk);
        h.chunk.acks().succeed();
      }
    }
  }

  /** Releases the chunks' bytes, then fails their acknowledgements; each once. */
  void fail(List<Held> chunks, Throwable cause, boolean atShutdown) {
    fail(chunks, cause, atShutdown, true);
  }

  /**
   * As {@link #fail(List, Throwable, boolean)}; {@code frames} false leaves the frames to the
   * worker's loop (see {@link #owedFrames}).
   */
  private void fail(List<Held> chunks, Throwable cause, boolean atShutdown, boolean frames) {
    int n = 0;
    int rows = 0;
    for (Held h : chunks) {
      if (h.claim()) {
        held.remove(h);
        n++;
        rows += h.chunk.rows();
        try {
          release(h.chunk, frames);
        } finally {
          h.chunk.acks().fail(cause);
        }
      }
    }
    if (n > 0) {
      recordAbandoned(n, rows, cause, atShutdown);
    }
  }

  /** Fails chunks that shutdown took out of the queue (never held by the worker). */
  void failQueued(List<EncodedChunk> chunks, Throwable cause) {
    List<Held> hs = new ArrayList<>(chunks.size());
    for (EncodedChunk c : chunks) {
      hs.add(new Held(c));
    }
    fail(hs, cause, true);
  }

  /** Fails every held chunk; called by the worker as it ends and by shutdown when it gives up. */
  void abandonHeld(Throwable cause, boolean atShutdown) {
    List<Held> all = new ArrayList<>(held);
    fail(all, cause, atShutdown);
  }

  /** Shutdown gave up waiting: fail what the worker holds, and whatever it takes later. */
  void force(Throwable cause) {
    forced = true;
    fail(new ArrayList<>(held), cause, true, false); // the worker may be reading them still
    if (exited) {
      releaseOwedFrames(); // it left meanwhile: nobody else will
    }
  }

  private void recordAbandoned(int chunks, int rows, Throwable cause, boolean atShutdown) {
    counters.abandonedChunks.addAndGet(chunks);
    counters.abandonedRows.addAndGet(rows);
    if (atShutdown) {
      counters.failedAtShutdownChunks.addAndGet(chunks);
      counters.failedAtShutdownRows.addAndGet(rows);
    }
    warn("sink worker of shard {}: {} rows ({} chunks) not delivered; their batches fail and"
        + " replay: {}{}", rows, chunks, describe(cause));
    notify(() -> listener.abandoned(shard, chunks, rows, cause));
  }

  /**
   * Logs a warning at most 5 times per 10 s over all shards (on the injected clock), saying how
   * many were suppressed since the last one; {@code format} has a placeholder for the shard first
   * and for that count last.
   */
  void warn(String format, Object... args) {
    long suppressed;
    synchronized (warnings) {
      if (!warnings.tryAcquire()) {
        return;
      }
      suppressed = warnings.takeSuppressed();
    }
    Object[] all = new Object[args.length + 2];
    all[0] = shard;
    System.arraycopy(args, 0, all, 1, args.length);
    all[all.length - 1] = suppressed > 0 ? " (" + suppressed + " similar warnings suppressed)" : "";
    LOG.warn(format, all);
  }

  /** A failure as a log line: the server's code (when it sent one) and the message. */
  static String describe(Throwable cause) {
    if (cause instanceof WriteException) {
      WriteException e = (WriteException) cause;
      return (e.serverCode() > 0 ? "server code " + e.serverCode() + ": " : "") + e.getMessage();
    }
    return String.valueOf(cause);
  }

  /** Returns the chunk's bytes to the budget, then its frame's array to its pool: last use. */
  private void release(EncodedChunk chunk) {
    release(chunk, true);
  }

  private void release(EncodedChunk chunk, boolean frame) {
    try {
      budget.release(chunk.chargedBytes());
      if (frame) {
        chunk.frame().release();
      } else {
        owedFrames.add(chunk);
      }
    } catch (RuntimeException e) { // a double release elsewhere: the acks still resolve
      LOG.error("releasing {} of shard {} failed", chunk, shard, e);
    }
  }

  void notify(Runnable event) {
    try {
      event.run();
    } catch (RuntimeException e) {
      LOG.warn("sink worker listener threw on shard {}", shard, e);
    }
  }

  WriteException shutdownCause() {
    return new WriteException(WriteException.Kind.TRANSIENT, -1,
        "sink workers shut down before this chunk of shard " + shard + " was written", null);
  }

  /* ------------------------------------------------------------------ gauges */

  /** The first-ingest time of the oldest chunk held or queued, or {@link Long#MAX_VALUE}. */
  long oldestUnackedIngestNanos() {
    long oldest = Long.MAX_VALUE;
    for (Held h : held) {
      if (!h.isSettled()) {
        oldest = h.chunk.oldestIngestNanos();
        break;
      }
    }
    EncodedChunk head = queues.peek(shard);
    if (head != null) {
      oldest = Math.min(oldest, head.oldestIngestNanos());
    }
    return oldest;
  }

  WorkerListener listener() {
    return listener;
  }
}
