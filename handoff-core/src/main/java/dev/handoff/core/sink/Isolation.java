package dev.handoff.core.sink;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Isolates the rows the sink rejects in an insert that failed permanently, under {@link
 * PermanentPolicy#DEAD_LETTER}.
 *
 * <p>It bisects the insert by chunk; a single chunk that fails is bisected by the frames {@link
 * dev.handoff.api.spi.InsertWriter#split} makes of it (recursively, while the writer can split and
 * a part holds more than one row). Every part that succeeds is written in order; a failing part
 * that cannot be split further goes to {@link DeadLetters}. A group known to fail is never sent
 * again as a whole: only its halves are. Each attempt retries transient failures under the retry
 * policy; when one runs out of retries (or shutdown stops it), isolation stops and the caller
 * fails every chunk not yet settled.
 */
final class Isolation {
  private static final Logger LOG = LoggerFactory.getLogger(Isolation.class);

  private final ShardWorker worker;
  /** Set when an attempt was abandoned: isolation stops. */
  private ShardWorker.Attempt abandoned;

  Isolation(ShardWorker worker) {
    this.worker = worker;
  }

  /** Returns the attempt that stopped isolation (retries exhausted, shutdown), or null. */
  ShardWorker.Attempt abandoned() {
    return abandoned;
  }

  /**
   * Isolates within {@code chunks}, whose write together failed permanently ({@code failure}). Settles every
   * chunk it finishes; leaves the rest unsettled when it stops early.
   */
  void chunks(List<Held> chunks, ShardWorker.Attempt failure) {
    if (chunks.size() == 1) {
      chunk(chunks.get(0), failure);
      return;
    }
    int mid = chunks.size() / 2;
    for (List<Held> half : List.of(chunks.subList(0, mid), chunks.subList(mid, chunks.size()))) {
      ShardWorker.Attempt r = worker.write(worker.insertOf(half));
      switch (r.outcome()) {
        case OK -> worker.succeed(half);
        case PERMANENT -> chunks(half, r);
        default -> abandoned = r;
      }
      if (abandoned != null) {
        return;
      }
    }
  }

  /** Isolates the rows of one chunk that failed with {@code failure}, then settles it. */
  private void chunk(Held h, ShardWorker.Attempt failure) {
    Part whole = new Part(h.chunk.frame(), h.chunk.rows());
    Throwable[] lostDeadLetter = new Throwable[1];
    parts(h, List.of(whole), failure, lostDeadLetter);
    if (abandoned != null) {
      return; // the caller fails it
    }
    if (lostDeadLetter[0] != null) {
      worker.fail(List.of(h), lostDeadLetter[0], false);
    } else {
      worker.succeed(List.of(h)); // every row written or set aside: handled
    }
  }

  /** {@code parts} of one chunk failed together with {@code failure}. */
  private void parts(Held h, List<Part> parts, ShardWorker.Attempt failure, Throwable[] lost) {
    if (parts.size() > 1) {
      int mid = parts.size() / 2;
      for (List<Part> half : List.of(parts.subList(0, mid), parts.subList(mid, parts.size()))) {
        ShardWorker.Attempt r = worker.write(insertOf(h, half));
        switch (r.outcome()) {
          case OK -> { }
          case PERMANENT -> parts(h, half, r, lost);
          default -> abandoned = r;
        }
        if (abandoned != null) {
          return;
        }
      }
      return;
    }
    Part part = parts.get(0);
    List<Part> smaller = part.rows > 1 ? split(part) : List.of();
    if (!smaller.isEmpty()) {
      parts(h, smaller, failure, lost);
    } else {
      deadLetter(insertOf(h, parts).withAttempt(Math.max(1, failure.attempts())), failure.error(),
          lost);
    }
  }

  /** The writer's split of a part, with rows spread over the frames; empty when it cannot. */
  private List<Part> split(Part part) {
    Optional<List<Frame>> frames;
    try {
      frames = worker.writer.split(part.frame);
    } catch (RuntimeException e) {
      LOG.warn("writer.split threw on shard {}; the part is dead-lettered whole", worker.shard, e);
      return List.of();
    }
    if (frames == null || frames.isEmpty() || frames.get().size() < 2) {
      return List.of();
    }
    List<Frame> fs = frames.get();
    for (Frame f : fs) {
      if (f == null || f.length() >= part.frame.length()) {
        LOG.warn("writer.split on shard {} returned a part not smaller than the frame; the part"
            + " is dead-lettered whole", worker.shard);
        return List.of();
      }
    }
    // One frame per row is the normal case; otherwise the rows are spread evenly (an estimate).
    int k = fs.size();
    List<Part> out = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      int rows = part.rows / k + (i < part.rows % k ? 1 : 0);
      out.add(new Part(fs.get(i), rows));
    }
    return out;
  }

  private void deadLetter(Insert insert, WriteException failure, Throwable[] lost) {
    try {
      worker.deadLetters.write(insert, failure);
    } catch (Exception e) {
      LOG.error("could not dead-letter {} of shard {}; its chunk fails and replays", insert,
          worker.shard, e);
      if (lost[0] == null) {
        lost[0] = e;
      } else {
        lost[0].addSuppressed(e);
      }
      return;
    }
    worker.counters.deadLetteredInserts.incrementAndGet();
    worker.counters.deadLetteredRows.addAndGet(insert.rows());
    worker.warn("sink worker of shard {}: {} rows rejected by the server and dead-lettered: {}{}",
        insert.rows(), ShardWorker.describe(failure));
    worker.notify(() -> worker.listener().deadLettered(worker.shard, insert, failure));
  }

  private Insert insertOf(Held h, List<Part> parts) {
    List<Frame> frames = new ArrayList<>(parts.size());
    long bytes = 0;
    int rows = 0;
    for (Part p : parts) {
      frames.add(p.frame);
      bytes += p.frame.length();
      rows += p.rows;
    }
    long seq = h.chunk.sequence();
    return new Insert(worker.shard, seq, seq, frames, rows, bytes, 1);
  }

  /** A frame of one chunk and the rows it holds. */
  private record Part(Frame frame, int rows) {}
}
