package dev.handoff.cli;

import dev.handoff.api.Ack;
import dev.handoff.core.ack.SourceBatch;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The acknowledgement handle of one attempt at a batch, wrapped around its {@link SourceBatch}:
 * besides delegating, it learns which of the batch's rows the server acknowledged, so that a
 * batch that failed after part of it was written is not counted as wholly lost.
 *
 * <p>Every row of a batch goes to one shard (the source routes by batch), so the batch's rows
 * form one run in that shard's chunk sequence, split by chunk boundaries into segments. The stage
 * retains the handle once per chunk, while it pushes the segment's first row: at that moment the
 * handle records the segment's first row (rows are numbered by the order the encoder took them:
 * {@link #accepted}). The shard's worker resolves chunks in seal order, each through {@code
 * fail} then {@code release} on the same thread when it failed, or {@code release} alone when it
 * was written; so the k-th release is the k-th segment's outcome. {@link #written(BitSet)} reads
 * the outcome once the batch resolved.
 */
final class BatchAck implements Ack {

  private final SourceBatch batch;
  /** Rows the encoder took so far; set by the pipeline thread after each push. */
  int accepted;
  private int[] segmentStart = new int[4];
  private boolean[] segmentWritten = new boolean[4];
  private int segments;
  private int released;
  /** The thread that failed the handle last, until its release. */
  private Thread failing;

  BatchAck(SourceBatch batch) {
    this.batch = batch;
  }

  /** Returns the wrapped batch. */
  SourceBatch batch() {
    return batch;
  }

  @Override
  public long batchId() {
    return batch.batchId();
  }

  @Override
  public void retain() {
    synchronized (this) {
      if (segments == segmentStart.length) {
        segmentStart = Arrays.copyOf(segmentStart, segments * 2);
        segmentWritten = Arrays.copyOf(segmentWritten, segments * 2);
      }
      segmentStart[segments++] = accepted;
    }
    batch.retain();
  }

  @Override
  public void fail(Throwable cause) {
    synchronized (this) {
      failing = Thread.currentThread();
    }
    batch.fail(cause);
  }

  @Override
  public void release() {
    synchronized (this) {
      boolean failed = failing == Thread.currentThread();
      failing = null;
      if (released < segments) {
        segmentWritten[released] = !failed;
      }
      released++;
    }
    batch.release();
  }

  /**
   * Adds to {@code into} the rows (by their number among the rows the encoder took) of the
   * segments that were acknowledged, and returns how many rows the batch's chunks held.
   */
  synchronized int written(BitSet into) {
    for (int k = 0; k < segments; k++) {
      int from = segmentStart[k];
      int to = k + 1 < segments ? segmentStart[k + 1] : accepted;
      if (segmentWritten[k] && k < released && to > from) {
        into.set(from, to);
      }
    }
    return accepted;
  }
}
