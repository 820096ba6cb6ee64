package dev.handoff.api.spi;

import dev.handoff.api.Frame;
import java.util.List;
import java.util.Optional;

/**
 * Writes inserts into the sink (ClickHouse): the SPI between the sink workers and a transport.
 *
 * <p>A sink worker merges consecutive chunks of one shard into an {@link Insert} and hands it to
 * {@link #write}. The writer sends the frames, concatenated in order, as the body of one {@code
 * INSERT} and returns only when the server acknowledged it. It classifies every failure: {@link
 * WriteException.Kind#TRANSIENT} when the same insert may succeed if sent again (connection
 * refused or reset, timeouts, HTTP 5xx, retryable server error codes), {@link
 * WriteException.Kind#PERMANENT} when it never will (parse and type errors). The worker retries
 * transient failures and applies its policy to permanent ones.
 *
 * <p><b>Threading:</b> one worker thread per shard calls {@link #write} and {@link #split}, so
 * calls for different shards run concurrently; an implementation is thread-safe across shards.
 * Calls for one shard never overlap. {@link #close()} is called once, after every worker ended.
 *
 * <p>A writer may receive the same rows more than once: an insert whose acknowledgement was lost
 * is retried, and a batch whose chunks failed replays from the source. Delivery is at least once.
 */
public interface InsertWriter extends AutoCloseable {

  /**
   * Writes one insert (the frames concatenated, as one INSERT); returns when the server
   * acknowledged it. Called by one worker thread per shard; implementations are thread-safe
   * across shards.
   *
   * @param insert the frames to write and where they came from
   * @throws WriteException when the server did not acknowledge the insert, classified as
   *     transient (the worker may retry) or permanent (retrying cannot help)
   */
  void write(Insert insert) throws WriteException;

  /**
   * Splits one frame into smaller frames that can be inserted separately (row by row at best),
   * for isolating a row the server rejects; empty when this writer's format cannot split it.
   *
   * <p>The frames returned hold, in order and together, exactly the rows of {@code frame}; each
   * is shorter than {@code frame}. One frame per row is best: the worker then sets aside exactly
   * the rejected rows. The default cannot split anything.
   *
   * @param frame a frame the worker took from a chunk or from an earlier split
   * @return the smaller frames, or empty when the frame cannot be split
   */
  default Optional<List<Frame>> split(Frame frame) {
    return Optional.empty();
  }

  /**
   * Releases the writer's resources (connections, threads); does nothing by default. Idempotent: a
   * second call does nothing. The writer is not used afterwards: an implementation makes a later
   * {@link #write} throw {@link IllegalStateException} saying that it is closed, rather than send
   * anything (the TCK's {@code InsertWriterContract} checks it).
   */
  @Override
  default void close() {}
}
