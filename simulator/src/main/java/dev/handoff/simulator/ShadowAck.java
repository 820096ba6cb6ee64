package dev.handoff.simulator;

import dev.handoff.api.Ack;
import dev.handoff.core.ack.SourceBatch;

/**
 * A source batch as the stage and the workers hold it: every call goes on to the real {@link
 * SourceBatch}, and the first cause the batch is failed with is remembered here, so that the
 * failure the batch reports when it resolves is judged against what it was told, not against
 * its own bookkeeping ({@code acks-resolved}).
 */
final class ShadowAck implements Ack {
  final SourceBatch batch;
  /** Whether {@link #fail} was called, and the cause of its first call. */
  boolean failed;
  Throwable firstCause;

  ShadowAck(SourceBatch batch) {
    this.batch = batch;
  }

  @Override
  public long batchId() {
    return batch.batchId();
  }

  @Override
  public void retain() {
    batch.retain();
  }

  @Override
  public void release() {
    batch.release();
  }

  @Override
  public void fail(Throwable cause) {
    if (!failed) {
      failed = true;
      firstCause = cause;
    }
    batch.fail(cause);
  }
}
