package dev.handoff.cli;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The byte ranges of the input that source batches cover, and what became of them: the
 * checkpoint watermark (the offset before which every range was delivered), the ranges to replay,
 * and exactly which rows of each range the server acknowledged.
 *
 * <p>First-pass batches cover the input without gaps, from the offset the run started at. A
 * range stays outstanding until one of its batches is delivered. When a batch fails, its range
 * goes to the replay queue, unless it has replayed {@code maxReplays} times already: then it is
 * lost for this run (the watermark never passes it, so a {@code --resume} reads it again). A
 * replay is a new batch over the same range.
 *
 * <p>Rows are numbered within a range by the order the encoder took them (rows it rejected are
 * skipped, and counted once). Each attempt's {@link BatchAck} says which of them were
 * acknowledged, even when the attempt failed as a whole; so the rows of a range written twice
 * (by a replay after a partly written attempt) are counted exactly in {@link #duplicates()}, the
 * rows not written in {@link #rowsLost()}, and the rows after the watermark that are already in
 * the table in {@link #rowsWrittenPastWatermark()}: a {@code --resume} writes those again.
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
    /** Rows the encoder took (rows minus those skipped). */
    final int accepted;
    /** Rows of the input before {@code start}, counted from the first run's start. */
    final long rowsBefore;
    /** Lines of the input before {@code start}. */
    final long linesBefore;
    /** The range's bytes when the input cannot be read again (stdin); else {@code null}. */
    final byte[] raw;
    int replays;
    boolean lost;
    boolean delivered;
    /** Rows acknowledged by some attempt; {@code null} while none was. */
    BitSet written;

    Range(long start, long end, int rows, int accepted, long rowsBefore, long linesBefore,
        byte[] raw) {
      this.start = start;
      this.end = end;
      this.rows = rows;
      this.accepted = accepted;
      this.rowsBefore = rowsBefore;
      this.linesBefore = linesBefore;
      this.raw = raw;
    }

    int writtenRows() {
      return delivered ? accepted : written == null ? 0 : written.cardinality();
    }

    @Override
    public String toString() {
      return "[" + start + ", " + end + ") " + rows + " rows";
    }
  }

  private record Attempt(Range range, BatchAck ack) {}

  private final int maxReplays;
  /** Ranges the watermark has not passed, delivered or not, by start offset. */
  private final TreeMap<Long, Range> open = new TreeMap<>();
  private final Map<Long, Attempt> byBatch = new HashMap<>();
  private final ArrayDeque<Range> toReplay = new ArrayDeque<>();
  private long frontier;
  private long rowsAtFrontier;
  private long linesAtFrontier;
  private long watermark;
  private long rowsAtWatermark;
  private long linesAtWatermark;
  private long batchesReplayed;
  private long rowsReplayed;
  private long rangesLost;
  private long duplicates;
  private long version;

  /**
   * Creates the tracker.
   *
   * @param startOffset where reading starts (0, or the checkpoint resumed from)
   * @param rowsBefore the rows before {@code startOffset}
   * @param linesBefore the lines before {@code startOffset}
   * @param maxReplays how often one range may be read again after its batch failed
   */
  InputRanges(long startOffset, long rowsBefore, long linesBefore, int maxReplays) {
    this.frontier = startOffset;
    this.rowsAtFrontier = rowsBefore;
    this.linesAtFrontier = linesBefore;
    this.watermark = startOffset;
    this.rowsAtWatermark = rowsBefore;
    this.linesAtWatermark = linesBefore;
    this.maxReplays = maxReplays;
  }

  /**
   * Records a first-pass batch over the next range of the input, {@code [frontier, end)}, before
   * the batch completes.
   *
   * @param rows the range's rows (non-blank lines)
   * @param accepted the rows the encoder took
   * @param lines the range's lines, blank ones included
   * @return the range
   */
  synchronized Range add(BatchAck ack, long end, int rows, int accepted, long lines,
      byte[] raw) {
    Range r = new Range(frontier, end, rows, accepted, rowsAtFrontier, linesAtFrontier, raw);
    frontier = end;
    rowsAtFrontier += rows;
    linesAtFrontier += lines;
    open.put(r.start, r);
    byBatch.put(ack.batchId(), new Attempt(r, ack));
    return r;
  }

  /**
   * Records the next range of the input, {@code [frontier, end)}, as lost from the start: the
   * row that stopped the run under {@code --on-error fail}. The watermark never passes it.
   */
  synchronized void addLost(long end, int rows, long lines) {
    Range r = new Range(frontier, end, rows, rows, rowsAtFrontier, linesAtFrontier, null);
    r.lost = true;
    frontier = end;
    rowsAtFrontier += rows;
    linesAtFrontier += lines;
    open.put(r.start, r);
    version++;
  }

  /** Records that batch {@code ack} reads {@code range} again, before it completes. */
  synchronized void addReplay(BatchAck ack, Range range) {
    byBatch.put(ack.batchId(), new Attempt(range, ack));
    batchesReplayed++;
    rowsReplayed += range.rows;
  }

  /**
   * Records how a batch resolved: which of its rows were written, and whether it was delivered
   * (its range is done) or failed (its range replays, or is lost after {@code maxReplays}).
   * Unknown batches are ignored.
   */
  synchronized void resolved(long batchId, boolean delivered) {
    Attempt a = byBatch.remove(batchId);
    if (a == null) {
      return;
    }
    Range r = a.range;
    if (r.delivered) {
      return;
    }
    BitSet now = new BitSet();
    a.ack.written(now);
    if (r.written != null) {
      BitSet again = (BitSet) r.written.clone();
      again.and(now);
      duplicates += again.cardinality();
    }
    if (delivered) {
      r.delivered = true;
      r.written = null;
      advance();
    } else {
      if (r.written == null) {
        r.written = now;
      } else {
        r.written.or(now);
      }
      if (r.replays < maxReplays) {
        r.replays++;
        toReplay.addLast(r);
      } else if (!r.lost) {
        r.lost = true;
        rangesLost++;
      }
    }
    version++;
  }

  private void advance() {
    Map.Entry<Long, Range> head;
    while ((head = open.firstEntry()) != null && head.getValue().delivered) {
      open.pollFirstEntry();
    }
    if (head != null) {
      watermark = head.getKey();
      rowsAtWatermark = head.getValue().rowsBefore;
      linesAtWatermark = head.getValue().linesBefore;
    } else {
      watermark = frontier;
      rowsAtWatermark = rowsAtFrontier;
      linesAtWatermark = linesAtFrontier;
    }
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
    for (Range r : open.values()) {
      if (!r.lost && !r.delivered) {
        return true;
      }
    }
    return false;
  }

  /** Returns the watermark: every range before this offset was delivered. */
  synchronized long watermark() {
    return watermark;
  }

  /** Returns the rows of the input before {@link #watermark()}. */
  synchronized long rowsBeforeWatermark() {
    return rowsAtWatermark;
  }

  /** Returns the lines of the input before {@link #watermark()}. */
  synchronized long linesBeforeWatermark() {
    return linesAtWatermark;
  }

  /** Returns a counter that changes whenever a range resolves (to skip unchanged checkpoints). */
  synchronized long version() {
    return version;
  }

  /** Returns how many batches re-read a failed range. */
  synchronized long batchesReplayed() {
    return batchesReplayed;
  }

  /** Returns how many rows replays read again. */
  synchronized long rowsReplayed() {
    return rowsReplayed;
  }

  /** Returns how many ranges failed more often than they may replay. */
  synchronized long rangesLost() {
    return rangesLost;
  }

  /** Returns the rows written more than once by replays of partly written batches. */
  synchronized long duplicates() {
    return duplicates;
  }

  /**
   * Returns the rows of every range not delivered (lost, failed at shutdown, or cut off by a
   * deadline) that no attempt wrote: read, but neither written nor skipped.
   */
  synchronized long rowsLost() {
    long rows = 0;
    for (Range r : open.values()) {
      if (!r.delivered) {
        rows += r.accepted - r.writtenRows();
      }
    }
    return rows;
  }

  /**
   * Returns the rows at or after the watermark that are in the table already (delivered ranges
   * after a lost one, and the written parts of failed ranges): a {@code --resume} from the
   * watermark writes them again.
   */
  synchronized long rowsWrittenPastWatermark() {
    long rows = 0;
    for (Range r : open.values()) {
      rows += r.writtenRows();
    }
    return rows;
  }

  /** Returns the end of the last range with written rows, or the watermark when there is none. */
  synchronized long writtenUntil() {
    long until = watermark;
    for (Range r : open.values()) {
      if (r.writtenRows() > 0) {
        until = Math.max(until, r.end);
      }
    }
    return until;
  }

  /** Returns the ranges not delivered, lost ones included. */
  synchronized int outstanding() {
    int n = 0;
    for (Range r : open.values()) {
      if (!r.delivered) {
        n++;
      }
    }
    return n;
  }
}
