package dev.handoff.core.sink;

/** What a sink worker does with an insert the writer reports as permanently failed. */
public enum PermanentPolicy {
  /**
   * Fails the acknowledgements of every chunk of the insert and releases their bytes: the batches
   * replay from the source (and fail again until the data or the table is fixed).
   */
  FAIL_ACKS,
  /**
   * Isolates the rejected rows (bisecting the insert by chunk, then by {@link
   * dev.handoff.api.spi.InsertWriter#split frame}), writes the good parts in order, and hands the
   * smallest failing parts to {@link DeadLetters}. Dead-lettered rows count as handled: their
   * chunks' acknowledgements succeed. If the dead letter cannot be written, the chunk's
   * acknowledgements fail instead.
   */
  DEAD_LETTER
}
