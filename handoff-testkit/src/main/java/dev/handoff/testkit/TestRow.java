package dev.handoff.testkit;

/**
 * A payload for tests and simulations: a sequence number, a routing key, an encoded size and a
 * fault to raise when it is encoded.
 *
 * @param seq a number unique among the rows of a test, written into the encoded row so a test can
 *     read back which rows a frame holds and in which order
 * @param key the routing key
 * @param bytes how many bytes the encoded row takes, at least {@link
 *     TestRowEncoder#MIN_ROW_BYTES}
 * @param fault what goes wrong when the row is encoded
 */
public record TestRow(long seq, long key, int bytes, Fault fault) {

  /** What goes wrong when a row is encoded. */
  public enum Fault {
    /** Nothing. */
    NONE,
    /** A {@code DATA} error after part of the row was written. */
    DATA,
    /** A {@code FATAL} error after part of the row was written. */
    FATAL,
    /** An unchecked exception that is not a {@code HandoffException} (a buggy encoder). */
    UNCHECKED
  }

  /** Validates the size. */
  public TestRow {
    if (bytes < TestRowEncoder.MIN_ROW_BYTES) {
      throw new IllegalArgumentException(
          "bytes : " + bytes + " (expected: >= " + TestRowEncoder.MIN_ROW_BYTES + ")");
    }
  }

  /** Returns a good row of {@code bytes} bytes with routing key {@code seq}. */
  public static TestRow of(long seq, int bytes) {
    return new TestRow(seq, seq, bytes, Fault.NONE);
  }
}
