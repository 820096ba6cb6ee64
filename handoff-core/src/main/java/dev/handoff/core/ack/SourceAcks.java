package dev.handoff.core.ack;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The batches of one source and its checkpoint: the highest batch id such that it and every
 * earlier batch were delivered.
 *
 * <p>Batch ids are consecutive, starting at the id given to the constructor (after a restart:
 * the checkpoint plus one). See the {@linkplain dev.handoff.core.ack package documentation} for
 * the model.
 */
public final class SourceAcks {

  private final String source;
  private final BatchListener listener;
  /** Batches not yet passed by the checkpoint, in id order; guarded by {@code this}. */
  private final ArrayDeque<SourceBatch> window = new ArrayDeque<>();
  private final List<Long> failed = new ArrayList<>();
  private long nextBatchId;
  private long checkpoint;
  private long delivered;
  private int pending;
  /** Set once a failed batch reaches the head of the window: the checkpoint can never move again. */
  private boolean frozen;

  /** Creates a tracker whose first batch is {@code 0}. */
  public SourceAcks(String source) {
    this(source, 0L, BatchListener.NONE);
  }

  /**
   * Creates a tracker.
   *
   * @param source the source's name, used in messages
   * @param firstBatchId the id of the first batch; a source resuming from checkpoint {@code c}
   *     passes {@code c + 1}
   * @param listener hears about every resolved batch
   */
  public SourceAcks(String source, long firstBatchId, BatchListener listener) {
    this.source = Objects.requireNonNull(source, "source");
    this.listener = Objects.requireNonNull(listener, "listener");
    if (firstBatchId < 0) {
      throw new IllegalArgumentException("firstBatchId : " + firstBatchId + " (expected: >= 0)");
    }
    this.nextBatchId = firstBatchId;
    this.checkpoint = firstBatchId - 1;
  }

  /** Returns the source's name. */
  public String source() {
    return source;
  }

  /** Opens the next batch, held by the source until {@link SourceBatch#complete()}. */
  public synchronized SourceBatch begin() {
    SourceBatch batch = new SourceBatch(this, nextBatchId++);
    pending++;
    if (!frozen) {
      window.addLast(batch); // a frozen checkpoint needs no window: nothing can pass the failure
    }
    return batch;
  }

  /**
   * Returns the checkpoint: the highest batch id such that it and all before it were delivered,
   * or the first batch id minus one when there is none yet.
   */
  public synchronized long checkpoint() {
    return checkpoint;
  }

  /** Returns how many batches are still pending (not resolved). */
  public synchronized int pendingBatches() {
    return pending;
  }

  /** Returns the ids of the batches that failed, in the order they resolved. */
  public synchronized List<Long> failedBatchIds() {
    return List.copyOf(failed);
  }

  /** Returns how many batches were delivered. */
  public synchronized long deliveredBatches() {
    return delivered;
  }

  /** Returns the id the next {@link #begin()} will use. */
  public synchronized long nextBatchId() {
    return nextBatchId;
  }

  /** Returns how many batches the checkpoint window holds (for tests). */
  synchronized int windowSize() {
    return window.size();
  }

  void resolved(SourceBatch batch, SourceBatch.State finalState) {
    long cp;
    synchronized (this) {
      // The state changes under this lock: another batch resolving now must not see this one
      // delivered (and pass the checkpoint over it) before it has left the pending count.
      batch.resolve(finalState);
      pending--;
      if (batch.state() == SourceBatch.State.FAILED) {
        failed.add(batch.batchId());
      } else {
        delivered++;
      }
      // The checkpoint passes delivered batches at the head only; a failed one stops it for good.
      SourceBatch head;
      while ((head = window.peekFirst()) != null && head.state() == SourceBatch.State.DELIVERED) {
        window.pollFirst();
        checkpoint = head.batchId();
      }
      if (head != null && head.state() == SourceBatch.State.FAILED) {
        // Keeping later batches would only grow memory while the pipeline runs on; the source
        // replays from the checkpoint after its restart anyway.
        frozen = true;
        window.clear();
      }
      cp = checkpoint;
    }
    listener.onResolved(batch, cp);
  }

  @Override
  public synchronized String toString() {
    return "SourceAcks{" + source + ", checkpoint=" + checkpoint + ", next=" + nextBatchId
        + ", failed=" + failed + '}';
  }
}
