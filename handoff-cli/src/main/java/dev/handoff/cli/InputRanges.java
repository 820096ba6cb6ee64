package dev.handoff.cli;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The byte ranges of the input that source batches cover, and what became of them: the
 * checkpoint watermark (the offset before which every range was delivered) and the ranges to
 * replay.
 *
 * <p>First-pass batches cover the input without gaps, from the offset the run started at. A
 * range stays outstanding until one of its batches is delivered. When a batch fails, its range
 * goes to the replay queue, unless it has replayed {@code maxReplays} times already: then it is
 * lost for this run (the watermark never passes it, so a {@code --resume} reads it again). A
 * replay is a new batch over the same range.
 *
 * <p>Thread-safe: batches resolve on sink worker threads, the source runs on the pipeline thread
 * and the checkpoint writer on its own.
 */
final class InputRanges {

  /** One range of the input: lines {@code [start, end)} holding {@code rows} rows. */
  static final class Range {
    final long start;
    final long end;
    final int rows;
    /** Rows of the input before {@code start}, counted from the first run's start. */
    final long rowsBefore;
    /** The range's bytes when the input cannot be read again (stdin); else {@code null}. */
    final byte[] raw;
    int replays;
    boolean lost;

    Range(long start, long end, int rows, long rowsBefore, byte[] raw) {
      this.start = start;
      this.end = end;
      this.rows = rows;
      this.rowsBefore = rowsBefore;
      this.raw = raw;
    }

    @Override
    public String toString() {
      return "[" + start + ", " + end + ") " + rows + " rows";
    }
  }

  private final int maxReplays;
  private final TreeMap<Long, Range> outstanding = new TreeMap<>();
  private final Map<Long, Range> byBatch = new HashMap<>();
  private final ArrayDeque<Range> toReplay = new ArrayDeque<>();
  private long frontier;
  private long rowsAtFrontier;
  private long batchesReplayed;
  private long rowsReplayed;
  private long rangesLost;
  private long version;

  /**
   * Creates the tracker.
   *
   * @param startOffset where reading starts (0, or the checkpoint resumed from)
   * @param rowsBefore the rows before {@code startOffset}
   * @param maxReplays how often one range may be read again after its batch failed
   */
  InputRanges(long startOffset, long rowsBefore, int maxReplays) {
    this.frontier = startOffset;
    this.rowsAtFrontier = rowsBefore;
    this.maxReplays = maxReplays;
  }

  /**
   * Records a first-pass batch over the next range of the input, before any of its records is
   * pushed.
   *
   * @return the range
   */
  synchronized Range add(long batchId, long end, int rows, byte[] raw) {
    Range r = new Range(frontier, end, rows, rowsAtFrontier, raw);
    frontier = end;
    rowsAtFrontier += rows;
    outstanding.put(r.start, r);
    byBatch.put(batchId, r);
    return r;
  }

  /** Records that batch {@code batchId} reads {@code range} again, before it is pushed. */
  synchronized void addReplay(long batchId, Range range) {
    byBatch.put(batchId, range);
    batchesReplayed++;
    rowsReplayed += range.rows;
  }

  /** Records that a batch was delivered; its range is done. Unknown batches are ignored. */
  synchronized void delivered(long batchId) {
    Range r = byBatch.remove(batchId);
    if (r != null && outstanding.remove(r.start) != null) {
      version++;
    }
  }

  /**
   * Records that a batch failed: its range goes to the replay queue, or is lost when it has
   * replayed {@code maxReplays} times.
   */
  synchronized void failed(long batchId) {
    Range r = byBatch.remove(batchId);
    if (r == null || !outstanding.containsKey(r.start)) {
      return;
    }
    if (r.replays < maxReplays) {
      r.replays++;
      toReplay.addLast(r);
    } else if (!r.lost) {
      r.lost = true;
      rangesLost++;
    }
    version++;
  }

  /** Returns the next range to replay, or {@code null}. */
  synchronized Range pollReplay() {
    return toReplay.pollFirst();
  }

  /**
   * Returns whether some range is still waiting for a batch to resolve or to be replayed (lost
   * ranges wait for nothing).
   */
  synchronized boolean waiting() {
    if (!toReplay.isEmpty()) {
      return true;
    }
    for (Range r : outstanding.values()) {
      if (!r.lost) {
        return true;
      }
    }
    return false;
  }

  /** Returns the watermark: every range before this offset was delivered. */
  synchronized long watermark() {
    Map.Entry<Long, Range> first = outstanding.firstEntry();
    return first == null ? frontier : first.getKey();
  }

  /** Returns the rows of the input before {@link #watermark()}. */
  synchronized long rowsBeforeWatermark() {
    Map.Entry<Long, Range> first = outstanding.firstEntry();
    return first == null ? rowsAtFrontier : first.getValue().rowsBefore;
  }

  /** Returns a counter that changes whenever a range resolves (to skip unchanged checkpoints). */
  synchronized long version() {
    return version;
  }

  /** Returns how many batches re-read a failed range. */
  synchronized long batchesReplayed() {
    return batchesReplayed;
  }

  /** Returns how many rows replays read again (an upper bound of the duplicates). */
  synchronized long rowsReplayed() {
    return rowsReplayed;
  }

  /** Returns how many ranges failed more often than they may replay. */
  synchronized long rangesLost() {
    return rangesLost;
  }

  /**
   * Returns the rows of every range not delivered (lost, failed at shutdown, or cut off by a
   * deadline): read, but neither written nor accounted for.
   */
  synchronized long rowsLost() {
    long rows = 0;
    for (Range r : outstanding.values()) {
      rows += r.rows;
    }
    return rows;
  }

  /** Returns the ranges still outstanding (not delivered), lost ones included. */
  synchronized int outstanding() {
    return outstanding.size();
  }
}
