package dev.handoff.core.sink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;

/**
 * Events of the sink workers, for logs, progress bars and tests. Called on the worker thread of
 * the shard (and on the thread calling {@code shutdown} for what shutdown fails); must be quick.
 * An exception thrown by a listener is logged and ignored.
 */
public interface WorkerListener {

  /** A listener that ignores everything. */
  WorkerListener NONE = new WorkerListener() {};

  /**
   * An insert (or a part of one, while isolating a rejected row) was acknowledged by the sink.
   *
   * @param nanos how long the successful attempt took, on the injected clock
   */
  default void inserted(int shard, int rows, long bytes, long nanos) {}

  /**
   * An attempt to write {@code insert} failed transiently; the worker waits {@code backoffNanos}
   * and tries it again. Its rows ({@code insert.rows()}) may still have been written when the
   * failure was a lost answer (a timeout or a reset after the server read the body).
   *
   * @param attempt the attempt that failed, starting at 1
   */
  default void retried(int shard, Insert insert, WriteException e, int attempt,
      long backoffNanos) {}

  /** A part of an insert was rejected permanently and handed to {@link DeadLetters}. */
  default void deadLettered(int shard, Insert insert, WriteException e) {}

  /**
   * Chunks were given up: their bytes left the budget and their acknowledgements failed, so their
   * batches replay.
   */
  default void abandoned(int shard, int chunks, int rows, Throwable cause) {}
}
