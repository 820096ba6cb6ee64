package dev.handoff.api;

/**
 * The acknowledgement handle of one source batch.
 *
 * <p>A batch resolves when every holder has released it: the source holds it while it pushes the
 * batch's records, and every chunk that carries one of its records holds it until that chunk is
 * written or abandoned. The batch is <em>delivered</em> when all holders released it and nobody
 * called {@link #fail}; otherwise it is <em>failed</em> and its records replay.
 *
 * <p><b>Threading:</b> implementations are thread-safe. The pipeline thread calls {@link
 * #retain}; sink workers and teardown call {@link #release} and {@link #fail}.
 *
 * <p>Stages do not call these methods one by one: they collect handles in an {@link AckSet},
 * which retains each batch once and resolves all of them exactly once.
 */
public interface Ack {

  /** An ack that tracks nothing, for sources without checkpoints. */
  Ack NONE = NoAck.INSTANCE;

  /**
   * Returns the batch id: unique within its source and increasing in the order the source
   * produced its batches.
   */
  long batchId();

  /** Adds one holder. Each call must be matched by exactly one {@link #release}. */
  void retain();

  /** Removes one holder. The batch resolves when the last holder releases it. */
  void release();

  /**
   * Marks the batch failed: it resolves as failed once released, so the source replays it.
   * Calling it more than once keeps the first cause.
   *
   * @param cause why the batch cannot be delivered
   */
  void fail(Throwable cause);
}

/** The {@link Ack#NONE} singleton. */
enum NoAck implements Ack {
  INSTANCE;

  @Override
  public long batchId() {
    return -1L;
  }

  @Override
  public void retain() {}

  @Override
  public void release() {}

  @Override
  public void fail(Throwable cause) {}
}
