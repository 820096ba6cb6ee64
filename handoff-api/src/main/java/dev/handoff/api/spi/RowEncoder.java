package dev.handoff.api.spi;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;

/**
 * Encodes rows into a wire format, one record at a time, on the pipeline thread.
 *
 * <p>A row format (RowBinary) writes each row straight into the chunk buffer in {@link #encode}.
 * A columnar format (Native) keeps rows in column buffers of its own, reports their size through
 * {@link #bufferedBytes()}, and writes them as one block in {@link #finishChunk}. Because a
 * columnar encoder holds rows, it must never be shared between shards: the stage calls {@link
 * #newInstance()} once per shard.
 *
 * <p><b>Errors:</b> {@code encode} throws {@link HandoffException} only: {@link
 * dev.handoff.api.ErrorClass#DATA} for a bad record (naming the column, the value and the reason),
 * {@link dev.handoff.api.ErrorClass#FATAL} when the encoder itself is broken. After a {@code DATA}
 * error the encoder has rolled back its own state for that row; the stage rolls the chunk buffer
 * back to the row's start. A {@code finishChunk} failure is always fatal for the stage.
 *
 * <p><b>Threading:</b> not thread-safe; one instance per shard, used by the pipeline thread.
 *
 * @param <T> the payload type
 */
public interface RowEncoder<T> {

  /**
   * Encodes one row. Writes into {@code buffer} (row formats) or into the encoder's own column
   * buffers (columnar formats).
   *
   * @throws HandoffException if the row cannot be encoded. The encoder's own state then holds
   *     nothing of the row; a row format may have left part of it in {@code buffer}, which the
   *     caller truncates back to the length it had before the call (the stage always does)
   */
  void encode(T row, ChunkBuffer buffer);

  /**
   * Writes the rows the encoder holds into {@code buffer} as one complete frame, and empties
   * them. Called by the stage before it seals a chunk. Row formats do nothing.
   *
   * @throws HandoffException if the frame cannot be written; the stage stops
   */
  default void finishChunk(ChunkBuffer buffer) {}

  /**
   * Returns how many bytes the rows held inside the encoder will occupy once written by {@link
   * #finishChunk}: {@code 0} for row formats. Called after every record, so it must be O(1).
   */
  default int bufferedBytes() {
    return 0;
  }

  /**
   * Returns an independent encoder for the same schema and options, holding no rows. The stage
   * calls it once per shard.
   */
  RowEncoder<T> newInstance();
}
