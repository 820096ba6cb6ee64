package dev.handoff.benchmarks.stage;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Keeps the benchmark's input rows where they were allocated, in allocation order, for the whole
 * fork, so every benchmark of a run reads the same memory layout.
 *
 * <p>Why: the rows are made once per fork and read millions of times. A young collection copies
 * them with several GC threads, which scatters each row's boxed values over the heap; whether
 * and when that happens depended on how much a benchmark allocated (the stage allocates a frame
 * per chunk, the encoder alone nothing), and the scattered layout alone cost up to half of the
 * rows per second. With a young generation larger than the rows, generating them triggers no
 * collection; {@link #tenure} then runs a full collection, whose sliding compaction keeps the
 * allocation order, and moves them to the old generation, which no young collection touches.
 */
final class RowLayout {
  /** The fork's heap: room for the widest rows and an allocating contender's garbage. */
  static final String HEAP = "-Xmx6g";
  /** The heap is sized up front, so the young generation's size is what {@link #YOUNG} says. */
  static final String HEAP_MIN = "-Xms6g";
  /** A young generation larger than any schema's 100,000 rows. */
  static final String YOUNG = "-Xmn3g";

  private RowLayout() {}

  /**
   * Moves everything allocated so far (the rows) to the old generation in allocation order.
   *
   * @throws IllegalStateException if a collection ran before this one: the rows were copied while
   *     they were generated and may be scattered (the fork's heap flags were not applied)
   */
  static void tenure() {
    long before = collections();
    if (before != 0) {
      throw new IllegalStateException(before + " collections ran while the rows were generated:"
          + " run the fork with " + HEAP + " " + HEAP_MIN + " " + YOUNG);
    }
    System.gc();
  }

  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }
}
