package dev.handoff.core;

import dev.handoff.api.ByteArrayPool;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

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
 * <p>{@link #allocatingAhead} makes a pool that allocates on another thread: the first arrays of
 * a run are new, and a new array costs its zeroing and, the first time the heap's memory is
 * touched, the kernel's page faults (as much as the encoding of the rows that fill it on a
 * virtual machine). Whenever a take leaves fewer than {@code ahead} arrays free, one task on the
 * given executor allocates arrays until {@code ahead} are free, so the pipeline thread takes
 * arrays that are made and touched already. Arrays made ahead and never taken are at most {@code
 * ahead}; the budget never charges them (it charges arrays on loan).
 *
 * <p>{@link #checked} makes a pool for tests and debugging: it remembers each array on loan, so a
 * foreign or repeated return throws, and fills every array given back with {@link #POISON}, so a
 * frame read after its release sends visibly wrong bytes.
 *
 * <p><b>Threading:</b> thread-safe; every method takes the pool's monitor (one take per seal and
 * one give per settled chunk, never per row). The task that allocates ahead holds the monitor only
 * to add each array, never while it allocates; at most one such task is submitted at a time.
 */
public final class ChunkPool implements ByteArrayPool {
  /** The byte a checked pool writes over every array given back. */
  public static final byte POISON = (byte) 0xA5;

  private final int arrayLength;
  private final int maxFree;
  private final ArrayDeque<byte[]> free = new ArrayDeque<>();
  private final Set<byte[]> lent; // checked pools only
  private final Executor allocator; // null: takes allocate themselves
  private final int ahead;
  private final Runnable allocateAhead = this::allocateAhead;
  private boolean allocating;
  private long taken;
  private long given;
  private long allocated;
  private long refused;

  private ChunkPool(int arrayLength, int maxFree, boolean checked, Executor allocator,
      int ahead) {
    if (arrayLength <= 0) {
      throw new IllegalArgumentException("arrayLength : " + arrayLength + " (expected: > 0)");
    }
    if (maxFree < 0) {
      throw new IllegalArgumentException("maxFree : " + maxFree + " (expected: >= 0)");
    }
    this.arrayLength = arrayLength;
    this.maxFree = maxFree;
    this.lent = checked ? Collections.newSetFromMap(new IdentityHashMap<>()) : null;
    this.allocator = allocator;
    this.ahead = ahead;
  }

  /**
   * Creates a pool of arrays of {@code arrayLength} bytes that keeps up to {@code maxFree} of them
   * when they come back.
   */
  public ChunkPool(int arrayLength, int maxFree) {
    this(arrayLength, maxFree, false, null, 0);
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
   * Returns a new pool with this one's array length and capacity that keeps up to {@code ahead}
   * arrays allocated ahead of the takes, by tasks on {@code executor} (see the class comment).
   * This pool is left as it is; use the new one in its place. A task the executor rejects is
   * dropped: takes then allocate for themselves, as in a pool without an executor, and the next
   * take that finds too few free arrays submits again.
   *
   * @throws NullPointerException if {@code executor} is null
   * @throws IllegalArgumentException if {@code ahead} is not between 1 and the arrays this pool
   *     keeps, or this pool is {@link #checked} (its arrays are tracked from their take)
   */
  public ChunkPool allocatingAhead(Executor executor, int ahead) {
    if (executor == null) {
      throw new NullPointerException("executor");
    }
    if (ahead < 1 || ahead > maxFree) {
      throw new IllegalArgumentException("ahead : " + ahead + " (expected: 1 to " + maxFree
          + ", the arrays the pool keeps)");
    }
    if (lent != null) {
      throw new IllegalArgumentException("a checked pool does not allocate ahead");
    }
    return new ChunkPool(arrayLength, maxFree, false, executor, ahead);
  }

  /**
   * Creates a checked pool: a foreign or repeated return throws, and every array given back is
   * overwritten with {@link #POISON}.
   */
  public static ChunkPool checked(int arrayLength, int maxFree) {
    return new ChunkPool(arrayLength, maxFree, true, null, 0);
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
  public byte[] take() {
    byte[] a;
    boolean submit = false;
    synchronized (this) {
      a = free.pollFirst();
      if (a == null) {
        a = new byte[arrayLength];
        allocated++;
      }
      taken++;
      if (lent != null) {
        lent.add(a);
      }
      if (allocator != null && !allocating && free.size() < ahead) {
        allocating = true;
        submit = true;
      }
    }
    if (submit) {
      // Outside the monitor: an executor that runs the task at once must not hold it.
      try {
        allocator.execute(allocateAhead);
      } catch (RejectedExecutionException e) {
        synchronized (this) {
          allocating = false;
        }
      }
    }
    return a;
  }

  /** The task on the executor: allocates until {@code ahead} arrays are free. */
  private void allocateAhead() {
    boolean done = false;
    try {
      while (true) {
        synchronized (this) {
          if (free.size() >= ahead) {
            allocating = false;
            done = true;
            return;
          }
        }
        byte[] a = new byte[arrayLength]; // the zeroing and the page faults, off the monitor
        synchronized (this) {
          allocated++;
          free.addLast(a); // behind the given-back arrays, which are likelier to be in cache
        }
      }
    } finally {
      if (!done) { // an OutOfMemoryError: takes allocate for themselves, and may submit again
        synchronized (this) {
          allocating = false;
        }
      }
    }
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

  /** Returns how many free arrays the pool keeps at most (given back or allocated ahead). */
  public int maxFree() {
    return maxFree;
  }

  /** Returns how many given-back arrays wait to be taken again. */
  public synchronized int free() {
    return free.size();
  }

  @Override
  public synchronized String toString() {
    return "ChunkPool{" + arrayLength + " bytes, on loan " + (taken - given) + ", free "
        + free.size() + ", allocated " + allocated + (lent != null ? ", checked" : "")
        + (allocator != null ? ", " + ahead + " ahead" : "") + '}';
  }
}
