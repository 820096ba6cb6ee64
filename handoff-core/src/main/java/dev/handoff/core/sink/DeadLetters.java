package dev.handoff.core.sink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import java.io.IOException;

/**
 * Where a sink worker sets aside rows the sink rejected permanently, under {@link
 * PermanentPolicy#DEAD_LETTER}.
 *
 * <p>Called by worker threads, one per shard, so implementations are thread-safe across shards.
 * When {@link #write} returns the dead letter is durable enough for the rows to count as handled:
 * the worker then succeeds the chunk's acknowledgements.
 */
@FunctionalInterface
public interface DeadLetters {

  /**
   * Sets {@code insert} aside with the reason the sink gave.
   *
   * @param insert the smallest part of an insert that the sink rejected (one row when the writer
   *     could split it that far)
   * @param cause the permanent failure the writer reported for it
   * @throws IOException if the dead letter could not be stored; the worker then fails the chunk's
   *     acknowledgements so its batches replay
   */
  void write(Insert insert, WriteException cause) throws IOException;
}
