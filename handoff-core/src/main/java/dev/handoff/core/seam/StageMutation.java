package dev.handoff.core.seam;

/**
 * Deliberately broken variants of {@link dev.handoff.core.SinkHandoff} and its driver {@link
 * dev.handoff.core.Chain}, for the simulator's negative controls: each breaks one promise so that
 * a test can prove the oracle guarding that promise fails. {@link #NONE} is the real code.
 */
public enum StageMutation {
  /** The real stage. */
  NONE,
  /** A new chunk is offered to its queue even while older chunks of its shard are parked (B7). */
  SEND_PAST_PARKED,
  /** {@code close()} leaves the acks of a partial (open) buffer unresolved (B13). */
  KEEP_PARTIAL_ACKS,
  /** Every 97th record pushed is dropped without being encoded or counted as skipped. */
  DROP_RECORD,
  /** After a fatal error the stage keeps encoding, sealing and sending (B11, B14). */
  SEND_AFTER_FATAL,
  /** A record skipped under {@code SKIP} is not counted as skipped (B10). */
  UNCOUNTED_SKIP,
  /** An encode error is not counted as an error in the metrics (B10, B12). */
  UNCOUNTED_ERROR,
  /** {@code close()} does not count the parked chunks it fails back in the shard report. */
  UNCOUNTED_FAILBACK,
  /** {@code relieve()} reports parked chunks without ever trying to send them (B6, B8). */
  RELIEVE_NEVER_DRAINS,
  /** The driver pulls the next payload even while the stage is blocked or the budget is full. */
  IGNORE_BACKPRESSURE,
  /** {@code SourceAcks} reports a checkpoint one batch behind the batches delivered. */
  CHECKPOINT_LAGS,
  /** A sealed chunk claims one row more than it holds. */
  MISCOUNT_ROWS,
  /** Every 101st {@code push} throws, though push never throws (B1). */
  THROW_ON_PUSH
}
