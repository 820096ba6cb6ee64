package dev.handoff.api;

import java.util.Objects;

/**
 * A sealed chunk: one shard's encoded rows, ready for a sink worker.
 *
 * <p>Immutable once created. The chunk carries the acknowledgement handles of the batches whose
 * records it holds; whoever takes the chunk out of its queue must resolve {@link #acks()} exactly
 * once (succeed after the write, fail when abandoning it), release {@link #chargedBytes()} from
 * the in-flight budget, and then {@linkplain Frame#release() release the frame}, after its last
 * read (a pooled frame's array goes back to its pool).
 *
 * @param shard the shard the chunk belongs to
 * @param sequence the chunk's seal sequence within its shard, starting at 0; a shard's chunks
 *     reach its queue in increasing sequence order
 * @param frame the encoded bytes
 * @param rows how many rows the frame holds
 * @param acks the acknowledgement handles of the batches the rows came from
 * @param oldestIngestNanos the {@link HandoffClock#nanoTime()} at which the chunk's first row arrived
 * @param oldestEventTimeMs the smallest event time among the chunk's rows
 */
public record EncodedChunk(
    int shard,
    long sequence,
    Frame frame,
    int rows,
    AckSet acks,
    long oldestIngestNanos,
    long oldestEventTimeMs) {

  /** Validates the fields. */
  public EncodedChunk {
    Objects.requireNonNull(frame, "frame");
    Objects.requireNonNull(acks, "acks");
    if (shard < 0 || rows < 0 || sequence < 0) {
      throw new IllegalArgumentException(
          "shard " + shard + ", sequence " + sequence + ", rows " + rows + " (expected: >= 0)");
    }
  }

  /** Returns the frame's size in bytes: the encoded bytes an insert of this chunk sends. */
  public int sizeBytes() {
    return frame.length();
  }

  /**
   * Returns what the chunk weighs in the in-flight budget: its frame's {@linkplain
   * Frame#chargedBytes() charged bytes} (the whole pooled array, or the frame's length).
   */
  public int chargedBytes() {
    return frame.chargedBytes();
  }

  /**
   * Returns whether {@code o} is this very chunk: each seal makes a new chunk, and comparing
   * frames by content would read a frame that may have been released.
   */
  @Override
  public boolean equals(Object o) {
    return this == o;
  }

  /** Returns the identity hash code (see {@link #equals}). */
  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }

  @Override
  public String toString() {
    return "EncodedChunk{shard=" + shard + ", seq=" + sequence + ", bytes=" + frame.length()
        + ", rows=" + rows + ", acks=" + acks + '}';
  }
}
