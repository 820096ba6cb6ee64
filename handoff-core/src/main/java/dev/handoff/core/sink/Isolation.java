package dev.handoff.core.sink;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import java.util.ArrayDeque;
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
 *
 * <p>It runs in the worker's steps: {@link #step()} returns at each attempt at the writer and each
 * backoff, and the next step goes on where it stopped (the bisection's recursion is a stack of
 * tasks), so a runtime that steps the workers on one thread never blocks in it.
 */
final class Isolation {
  private static final Logger LOG = LoggerFactory.getLogger(Isolation.class);

  /* What is left to do, as tasks on a stack: the recursion of the bisection made explicit, so
   * that isolation can stop after each attempt at the writer and go on at the next step. */
  private static final int CHUNKS = 0;       // chunks that failed together: bisect them
  private static final int WRITE_CHUNKS = 1; // write a group of chunks
  private static final int CHUNK_END = 2;    // every part of a chunk handled: settle it
  private static final int PARTS = 3;        // parts of one chunk that failed together: bisect
  private static final int WRITE_PARTS = 4;  // write a group of parts of one chunk

  private final ShardWorker worker;
  private final InsertWrite.Attempt failure;
  private final ArrayDeque<Task> tasks = new ArrayDeque<>();
  /** Set when an attempt was abandoned: isolation stops. */
  private InsertWrite.Attempt abandoned;

  /**
   * Isolates within {@code chunks}, whose write together failed permanently ({@code failure}).
   * {@link #step()} settles every chunk it finishes and leaves the rest unsettled when it stops
   * early.
   */
  Isolation(ShardWorker worker, List<Held> chunks, InsertWrite.Attempt failure) {
    this.worker = worker;
    this.failure = failure;
    tasks.push(new Task(CHUNKS, chunks, null, null, failure, null));
  }

  /** Returns the permanent failure isolation started from. */
  InsertWrite.Attempt failure() {
    return failure;
  }

  /** Returns the attempt that stopped isolation (retries exhausted, shutdown), or null. */
  InsertWrite.Attempt abandoned() {
    return abandoned;
  }

  /**
   * Goes on isolating: returns true when isolation ended (done, or stopped by an abandoned
   * attempt), false when the step ends at an attempt at the writer or a backoff.
   */
  boolean step() {
    while (!tasks.isEmpty()) {
      Task t = tasks.peek();
      switch (t.kind) {
        case CHUNKS -> {
          tasks.pop();
          if (t.chunks.size() == 1) {
            Held h = t.chunks.get(0);
            Throwable[] lost = new Throwable[1]; // a dead letter of this chunk that failed
            tasks.push(new Task(CHUNK_END, null, h, null, t.failure, lost));
            tasks.push(new Task(PARTS, null, h, List.of(new Part(h.chunk.frame(), h.chunk.rows())),
                t.failure, lost));
          } else {
            int mid = t.chunks.size() / 2;
            tasks.push(new Task(WRITE_CHUNKS, t.chunks.subList(mid, t.chunks.size()), null, null,
                null, null));
            tasks.push(new Task(WRITE_CHUNKS, t.chunks.subList(0, mid), null, null, null, null));
          }
        }
        case WRITE_CHUNKS, WRITE_PARTS -> {
          if (t.write == null) {
            t.write = new InsertWrite(worker, t.kind == WRITE_CHUNKS ? worker.insertOf(t.chunks)
                : insertOf(t.held, t.parts));
          }
          InsertWrite.Attempt r = t.write.step();
          if (r == null) {
            return false;
          }
          tasks.pop();
          switch (r.outcome()) {
            case OK -> {
              if (t.kind == WRITE_CHUNKS) {
                worker.succeed(t.chunks);
              }
            }
            case PERMANENT -> tasks.push(t.kind == WRITE_CHUNKS
                ? new Task(CHUNKS, t.chunks, null, null, r, null)
                : new Task(PARTS, null, t.held, t.parts, r, t.lost));
            default -> {
              abandoned = r;
              tasks.clear(); // the caller fails every chunk not settled yet
              return true;
            }
          }
        }
        case CHUNK_END -> {
          tasks.pop();
          if (t.lost[0] != null) {
            worker.fail(List.of(t.held), t.lost[0], false);
          } else {
            worker.succeed(List.of(t.held)); // every row written or set aside: handled
          }
        }
        default -> { // PARTS
          tasks.pop();
          if (t.parts.size() > 1) {
            int mid = t.parts.size() / 2;
            tasks.push(new Task(WRITE_PARTS, null, t.held, t.parts.subList(mid, t.parts.size()),
                null, t.lost));
            tasks.push(new Task(WRITE_PARTS, null, t.held, t.parts.subList(0, mid), null, t.lost));
          } else {
            Part part = t.parts.get(0);
            List<Part> smaller = part.rows > 1 ? split(part) : List.of();
            if (!smaller.isEmpty()) {
              tasks.push(new Task(PARTS, null, t.held, smaller, t.failure, t.lost));
            } else {
              deadLetter(insertOf(t.held, t.parts).withAttempt(Math.max(1, t.failure.attempts())),
                  t.failure.error(), t.lost);
            }
          }
        }
      }
    }
    return true;
  }

  /**
   * One task: {@code chunks} (a group of the insert's chunks) or {@code held} and {@code parts}
   * (a group of one chunk's parts), the permanent failure they met, and the chunk's lost dead
   * letter.
   */
  private static final class Task {
    final int kind;
    final List<Held> chunks;
    final Held held;
    final List<Part> parts;
    final InsertWrite.Attempt failure;
    final Throwable[] lost;
    /** The write in progress, for the write tasks. */
    InsertWrite write;

    Task(int kind, List<Held> chunks, Held held, List<Part> parts, InsertWrite.Attempt failure,
        Throwable[] lost) {
      this.kind = kind;
      this.chunks = chunks;
      this.held = held;
      this.parts = parts;
      this.failure = failure;
      this.lost = lost;
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
