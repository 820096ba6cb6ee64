package dev.handoff.api;

/**
 * Arrays of one size, lent to {@link ChunkBuffer}s and given back when the {@link Frame} split
 * from them is released, so a stage fills the same few arrays over and over instead of
 * allocating one per chunk.
 *
 * <p><b>Threading:</b> implementations are thread-safe: a shard's pipeline thread takes arrays
 * and the sink workers give them back.
 */
public interface ByteArrayPool {

  /** Returns the size of every array this pool lends. */
  int arrayLength();

  /** Lends an array of {@link #arrayLength()} bytes (a fresh one when none is free). Never null. */
  byte[] take();

  /**
   * Takes back an array lent by {@link #take()}. The caller must not touch it again.
   *
   * @throws IllegalArgumentException if the array is not of {@link #arrayLength()} bytes
   * @throws IllegalStateException if more arrays come back than were lent (a double return)
   */
  void give(byte[] array);
}
