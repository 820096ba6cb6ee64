package dev.handoff.core;

import dev.handoff.api.ByteArrayPool;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The chunk arrays of a stage, reused (as Kafka's {@code BufferPool} backs its batches): each
 * shard's buffer fills an array lent here, a seal hands it to the chunk's frame, and the sink
 * worker gives it back when it releases the frame after the chunk was written or given up. The
 * owner of the in-flight budget owns the pool; with it the budget charges each chunk its whole
 * array, so the budget's bytes in flight are the bytes of the arrays on loan in sealed chunks.
 *
 * <p>Arrays have one size: the chunk target plus headroom for the row that crosses it. A chunk
 * whose row did not fit grew out of its array (which came back at once) and is not pooled. The
 * pool keeps up to {@code maxFree} given-back arrays and allocates when none is free, so it
 * never blocks and never fails a take.
 *
 * <p>{@link #checked} makes a pool for tests and debugging: it remembers each array on loan, so a
 * foreign or repeated return throws, and fills every array given back with {@link #POISON}, so a
 * frame read after its release sends visibly wrong bytes.
 *
 * <p><b>Threading:</b> thread-safe; every method takes the pool's monitor (one take per seal and
 * one give per settled chunk, never per row).
 */
public final class ChunkPool implements ByteArrayPool {
  /** The byte a checked pool writes over every array given back. */
  public static final byte POISON = (byte) 0xA5;

  private final int arrayLength;
  private final int maxFree;
  private final ArrayDeque<byte[]> free = new ArrayDeque<>();
  private final Set<byte[]> lent; // checked pools only
  private long taken;
  private long given;
  private long allocated;
  private long refused;

  private ChunkPool(int arrayLength, int maxFree, boolean checked) {
    if (arrayLength <= 0) {
      throw new IllegalArgumentException("arrayLength : " + arrayLength + " (expected: > 0)");
    }
    if (maxFree < 0) {
      throw new IllegalArgumentException("maxFree : " + maxFree + " (expected: >= 0)");
    }
    this.arrayLength = arrayLength;
    this.maxFree = maxFree;
    this.lent = checked ? Collections.newSetFromMap(new IdentityHashMap<>()) : null;
  }

  /**
   * Creates a pool of arrays of {@code arrayLength} bytes that keeps up to {@code maxFree} of them
   * when they come back.
   */
  public ChunkPool(int arrayLength, int maxFree) {
    this(arrayLength, maxFree, false);
  }

  /**
   * Creates the pool of a stage of {@code shards} shards whose chunks target {@code targetBytes}
   * under a budget of {@code budgetBytes}: arrays of {@link #arrayLengthFor}{@code (targetBytes)},
   * keeping as many as the budget holds in sealed chunks plus an open one and one over the limit
   * per shard (at most 1,024), so a steady flow allocates none.
   *
   * @throws IllegalArgumentException if {@code targetBytes} or {@code shards} is not positive, or
   *     {@code budgetBytes} is negative
   */
  public static ChunkPool forBudget(int targetBytes, long budgetBytes, int shards) {
    if (targetBytes <= 0 || shards <= 0 || budgetBytes < 0) {
      throw new IllegalArgumentException("targetBytes " + targetBytes + ", budgetBytes "
          + budgetBytes + ", shards " + shards + " (expected: > 0, >= 0, > 0)");
    }
    int length = arrayLengthFor(targetBytes);
    long keep = budgetBytes / length + 2L * shards;
    return new ChunkPool(length, (int) Math.min(1024, keep));
  }

  /**
   * Creates a checked pool: a foreign or repeated return throws, and every array given back is
   * overwritten with {@link #POISON}.
   */
  public static ChunkPool checked(int arrayLength, int maxFree) {
    return new ChunkPool(arrayLength, maxFree, true);
  }

  /**
   * Returns the array size for chunks of {@code targetBytes}: the target plus an eighth (at least
   * 4 KiB), since a chunk seals only after the row (or Native block) that crosses the target.
   */
  public static int arrayLengthFor(int targetBytes) {
    long headroom = Math.max(4096L, targetBytes / 8L);
    return (int) Math.min(Integer.MAX_VALUE - 8L, targetBytes + headroom);
  }

  @Override
  public int arrayLength() {
    return arrayLength;
  }

  @Override
  public synchronized byte[] take() {
    byte[] a = free.pollFirst();
    if (a == null) {
      a = new byte[arrayLength];
      allocated++;
    }
    taken++;
    if (lent != null) {
      lent.add(a);
    }
    return a;
  }

  @Override
  public synchronized void give(byte[] array) {
    if (array.length != arrayLength) {
      throw new IllegalArgumentException("an array of " + array.length + " bytes given back to a"
          + " pool of " + arrayLength + "-byte arrays");
    }
    if (lent != null && !lent.remove(array)) {
      refused++;
      throw new IllegalStateException("an array given back that is not on loan: returned twice,"
          + " or never taken from this pool");
    }
    if (given == taken) {
      throw new IllegalStateException("more arrays given back (" + (given + 1) + ") than taken ("
          + taken + ")");
    }
    given++;
    if (lent != null) {
      Arrays.fill(array, POISON);
    }
    if (free.size() < maxFree) {
      free.addFirst(array); // the most recently used array is the likeliest to be in cache
    }
  }

  /** Returns the arrays on loan now: taken and not given back. */
  public synchronized long onLoan() {
    return taken - given;
  }

  /** Returns the bytes of the arrays on loan now. */
  public synchronized long bytesOnLoan() {
    return (taken - given) * arrayLength;
  }

  /** Returns how many arrays the pool allocated over its life (a take that found none free). */
  public synchronized long allocated() {
    return allocated;
  }

  /**
   * Returns how many gives a checked pool refused (an array returned twice, or never taken from
   * it); always 0 for an unchecked pool. A caller that logs and goes on after the exception still
   * leaves the count for a test or an audit to read.
   */
  public synchronized long refusedGives() {
    return refused;
  }

  /** Returns how many given-back arrays wait to be taken again. */
  public synchronized int free() {
    return free.size();
  }

  @Override
  public synchronized String toString() {
    return "ChunkPool{" + arrayLength + " bytes, on loan " + (taken - given) + ", free "
        + free.size() + ", allocated " + allocated + (lent != null ? ", checked" : "") + '}';
  }
}
