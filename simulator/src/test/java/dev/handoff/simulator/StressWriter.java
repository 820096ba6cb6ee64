package dev.handoff.simulator;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.sink.DeadLetters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The sink of the thread stress test, called by the real sink workers on their own threads: it
 * decodes every frame row by row ({@link RowDecoder#rowId}), keeps its own books of what was
 * written and dead-lettered, checks each shard's write order as the rows arrive, and injects the
 * round's faults: slow writes, transient failures before the write, a timeout after the write
 * (the retry duplicates the rows), writer bugs (a {@code RuntimeException}), permanent failures
 * of every insert that holds a poison pill, refused splits, dead letters that fail, and once
 * shutdown began a write that hangs and ignores interrupts past both grace periods.
 *
 * <p>Every book is guarded by {@code this}; the fault draws come from one generator per shard.
 */
final class StressWriter implements InsertWriter, DeadLetters {
  private final Workload w;
  private final short[] sourceOf;
  private final SplittableRandom[] rng;
  final double slowRate;
  final double transientRate;
  final double timeoutRate;
  final double runtimeRate;
  final double stuckRate;
  final double deadLetterErrorRate;
  final double splitRefuseRate;
  /** How long a stuck write hangs, ignoring interrupts. */
  final long stuckNanos;
  /** The workers' merge limits and attempts per insert, for the insert-limits check. */
  long maxInsertBytes = Long.MAX_VALUE;
  int maxInsertRows = Integer.MAX_VALUE;
  int maxAttempts = Integer.MAX_VALUE;
  /** Set by the closer just before the workers' shutdown: from then on a write may hang. */
  volatile boolean shuttingDown;
  private final AtomicBoolean stuckOnce = new AtomicBoolean();

  /** Per record id: rows written (a timed-out write included: the server has them). */
  final int[] written;
  /** Per record id: times dead-lettered. */
  final int[] dead;
  /** Per record id: writes of it whose answer was lost (each allows one more copy). */
  final int[] timedOut;
  /** Per shard and source: the last record number written, for the order check. */
  private final int[][] lastN;
  /** Per shard: the insert last failed permanently (only that shard's worker touches it). */
  private final Insert[] lastPermanent;
  /** Rows in writes that succeeded (answer received) and rows dead-lettered. */
  long rowsAcked;
  long rowsDeadLettered;
  long attempts;
  long transientFailures;
  long permanentFailures;
  long timeouts;
  long stuck;
  long deadLetterErrors;
  final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  /** Every chunk frame the writer was given (not the parts it split off itself). */
  private final Set<Frame> frames = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Frame> parts = Collections.newSetFromMap(new IdentityHashMap<>());

  StressWriter(Workload w, short[] sourceOf, int shards, SplittableRandom r, boolean faults,
      long graceNanos) {
    this.w = w;
    this.sourceOf = sourceOf;
    this.rng = new SplittableRandom[shards];
    for (int s = 0; s < shards; s++) {
      rng[s] = r.split();
    }
    this.slowRate = faults ? r.nextDouble() * 0.2 : 0;
    this.transientRate = faults && r.nextBoolean() ? r.nextDouble() * 0.2 : 0;
    this.timeoutRate = faults && r.nextBoolean() ? r.nextDouble() * 0.1 : 0;
    this.runtimeRate = faults && r.nextInt(3) == 0 ? r.nextDouble() * 0.05 : 0;
    this.stuckRate = faults && r.nextInt(3) == 0 ? 0.5 : 0;
    this.deadLetterErrorRate = faults && r.nextInt(3) == 0 ? r.nextDouble() * 0.3 : 0;
    this.splitRefuseRate = faults && r.nextBoolean() ? r.nextDouble() : 0;
    this.stuckNanos = 2 * graceNanos + TimeUnit.MILLISECONDS.toNanos(5 + r.nextInt(20));
    this.written = new int[w.records];
    this.dead = new int[w.records];
    this.timedOut = new int[w.records];
    this.lastN = new int[shards][w.sources];
    this.lastPermanent = new Insert[shards];
    for (int[] row : lastN) {
      Arrays.fill(row, -1);
    }
  }

  private double draw(int shard) {
    synchronized (rng[shard]) {
      return rng[shard].nextDouble();
    }
  }

  /** Decodes an insert's rows; records a failure and returns null when a row is not a record's. */
  private int[] decode(Insert insert, boolean track) {
    IntList ids = new IntList();
    for (Frame f : insert.frames()) {
      byte[] b;
      try {
        b = f.toByteArray();
      } catch (IllegalStateException released) {
        failures.add("shard " + insert.shard() + " chunks " + insert.firstSequence() + ".."
            + insert.lastSequence() + ": a frame was read after its release: " + released);
        return null;
      }
      synchronized (this) {
        if (track && !parts.contains(f)) {
          frames.add(f);
        }
      }
      int at = 0;
      while (at < b.length) {
        int end = RowDecoder.rowEnd(b, at);
        int id = end < 0 ? -1 : RowDecoder.rowId(w, sourceOf, b, at, end);
        if (id < 0) {
          failures.add("shard " + insert.shard() + " chunks " + insert.firstSequence() + ".."
              + insert.lastSequence() + ": the bytes at offset " + at + " of a frame of "
              + b.length + " are not a row of a pushed record (after " + ids.size()
              + " good rows)");
          return null;
        }
        ids.add(id);
        at = end;
      }
    }
    int[] rows = ids.toArray();
    if (rows.length != insert.rows()) {
      failures.add("shard " + insert.shard() + " chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + ": the insert claims " + insert.rows() + " rows, its frames"
          + " hold " + rows.length);
    }
    return rows;
  }

  @Override
  public void write(Insert insert) throws WriteException {
    int shard = insert.shard();
    int[] rows = decode(insert, true);
    synchronized (this) {
      attempts++;
    }
    // insert-limits: an insert of several chunks stays within the merge limits, and no insert is
    // tried more often than the retry policy allows.
    if (insert.lastSequence() > insert.firstSequence()
        && (insert.bytes() > maxInsertBytes || insert.rows() > maxInsertRows)) {
      failures.add("shard " + shard + " merged chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + " into one insert of " + insert.bytes() + " bytes and "
          + insert.rows() + " rows; the limits are " + maxInsertBytes + " bytes and "
          + maxInsertRows + " rows");
    }
    if (insert.attempt() > maxAttempts) {
      failures.add("shard " + shard + " tried chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + " an " + insert.attempt() + "th time; the retry policy"
          + " allows " + maxAttempts + " attempts");
    }
    Insert p = lastPermanent[shard];
    if (p != null && insert.attempt() > 1 && p.firstSequence() == insert.firstSequence()
        && p.lastSequence() == insert.lastSequence() && p.bytes() == insert.bytes()) {
      failures.add("shard " + shard + " retried chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + " (attempt " + insert.attempt() + ") after the sink failed"
          + " them permanently");
    }
    lastPermanent[shard] = null;
    if (rows == null) {
      throw new WriteException(WriteException.Kind.PERMANENT, 1, "undecodable insert", null);
    }
    if (shuttingDown && draw(shard) < stuckRate && stuckOnce.compareAndSet(false, true)) {
      synchronized (this) {
        stuck++;
      }
      hang(); // ignores interrupts, past both grace periods: shutdown gives up on this worker
      throw new WriteException(WriteException.Kind.TRANSIENT, -1,
          "injected: the write hung until its socket timed out", null);
    }
    if (draw(shard) < slowRate) {
      try {
        Thread.sleep(0, 1 + (int) (draw(shard) * 999_999));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // as an HTTP client would: nothing written
        throw new WriteException(WriteException.Kind.TRANSIENT, -1, "interrupted", e);
      }
    }
    for (int id : rows) {
      if (w.poison[id]) {
        lastPermanent[shard] = insert;
        synchronized (this) {
          permanentFailures++;
        }
        throw new WriteException(WriteException.Kind.PERMANENT, 53,
            "poison pill: record " + id + " is refused in every attempt", null);
      }
    }
    double x = draw(shard);
    if (x < transientRate) {
      synchronized (this) {
        transientFailures++;
      }
      throw new WriteException(WriteException.Kind.TRANSIENT, 210, "injected: refused", null);
    }
    if (x < transientRate + runtimeRate) {
      throw new IllegalStateException("injected: a writer bug");
    }
    boolean lost = draw(shard) < timeoutRate;
    synchronized (this) {
      for (int id : rows) {
        int s = sourceOf[id];
        int n = id - w.base[s];
        // A repeat is allowed only for a record whose earlier write lost its answer.
        if (n <= lastN[shard][s] && timedOut[id] == 0) {
          failures.add("shard " + shard + " wrote record " + id + " (source " + s + " #" + n
              + ") after source " + s + "'s #" + lastN[shard][s] + " (chunks "
              + insert.firstSequence() + ".." + insert.lastSequence() + ", attempt "
              + insert.attempt() + ")");
        }
        lastN[shard][s] = Math.max(lastN[shard][s], n);
        written[id]++;
        if (lost) {
          timedOut[id]++;
        }
      }
      if (lost) {
        timeouts++;
      } else {
        rowsAcked += rows.length;
      }
    }
    if (lost) {
      throw new WriteException(WriteException.Kind.TRANSIENT, -1,
          "injected: timeout after the server wrote the insert", null);
    }
  }

  private void hang() {
    long end = System.nanoTime() + stuckNanos;
    boolean interrupted = false;
    long left;
    while ((left = end - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        interrupted = true; // a writer that ignores interrupts
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Splits a RowBinary frame into one frame per row, unless this split is refused. */
  @Override
  public Optional<List<Frame>> split(Frame frame) {
    byte[] b;
    try {
      b = frame.toByteArray();
    } catch (IllegalStateException released) {
      failures.add("a frame was split after its release: " + released);
      return Optional.empty();
    }
    if (splitRefuseRate > 0
        && java.util.concurrent.ThreadLocalRandom.current().nextDouble() < splitRefuseRate) {
      return Optional.empty();
    }
    List<Frame> out = new ArrayList<>();
    int at = 0;
    while (at < b.length) {
      int end = RowDecoder.rowEnd(b, at);
      if (end < 0) {
        return Optional.empty();
      }
      out.add(Frame.copyOf(Arrays.copyOfRange(b, at, end)));
      at = end;
    }
    if (out.size() < 2) {
      return Optional.empty();
    }
    synchronized (this) {
      parts.addAll(out);
    }
    return Optional.of(out);
  }

  @Override
  public void write(Insert insert, WriteException cause) throws IOException {
    int[] rows = decode(insert, false);
    if (rows == null) {
      return;
    }
    if (draw(insert.shard()) < deadLetterErrorRate) {
      synchronized (this) {
        deadLetterErrors++;
      }
      throw new IOException("injected: the dead letter could not be stored");
    }
    synchronized (this) {
      for (int id : rows) {
        dead[id]++;
      }
      rowsDeadLettered += rows.length;
    }
  }

  /** Returns the chunk frames the writer saw that are not released. */
  synchronized int unreleasedFrames() {
    int n = 0;
    for (Frame f : frames) {
      if (!f.isReleased()) {
        n++;
      }
    }
    return n;
  }

  synchronized int framesSeen() {
    return frames.size();
  }

  synchronized String counts() {
    return "attempts " + attempts + ", rows acked " + rowsAcked + ", transient " + transientFailures
        + ", permanent " + permanentFailures + ", lost answers " + timeouts + ", stuck " + stuck
        + ", dead-lettered rows " + rowsDeadLettered + ", failed dead letters " + deadLetterErrors;
  }
}
