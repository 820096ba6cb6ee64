package dev.handoff.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of chunks that were sealed but not yet written or abandoned.
 *
 * <p>It grows when the stage seals a chunk ({@link #add}), whether the chunk was queued or
 * parked, and shrinks when a worker writes or abandons a chunk, or when teardown abandons a parked
 * chunk ({@link #release}). Every path that ends a chunk's life releases its bytes exactly once,
 * so after teardown and drain the budget is exactly zero.
 *
 * <p>The {@linkplain #limitBytes() limit} does not make anything block or fail: the driver checks
 * {@link #hasRoom()} before it pulls the next payload and waits while there is none. The stage
 * may go past the limit by at most the chunks it seals while finishing a payload.
 *
 * <p><b>Concurrency contract:</b> thread-safe and lock-free; the pipeline thread adds, workers
 * release. A release that would drive the value below zero is a bug in the caller: it throws
 * with the numbers and leaves the value unchanged.
 */
public final class InflightBudget {
  private final long limitBytes;
  private final AtomicLong inflight = new AtomicLong();

  /**
   * Creates a budget.
   *
   * @param limitBytes the level at which the driver stops pulling; must be {@code > 0}
   */
  public InflightBudget(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("limitBytes : " + limitBytes + " (expected: > 0)");
    }
    this.limitBytes = limitBytes;
  }

  /** Returns a budget with no practical limit. */
  public static InflightBudget unlimited() {
    return new InflightBudget(Long.MAX_VALUE);
  }

  /**
   * Adds the bytes of a sealed chunk.
   *
   * @throws IllegalArgumentException if {@code bytes} is negative
   */
  public void add(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot add " + bytes + " bytes to the in-flight budget");
    }
    inflight.addAndGet(bytes);
  }

  /**
   * Releases the bytes of a chunk that was written or abandoned.
   *
   * @throws IllegalArgumentException if {@code bytes} is negative
   * @throws IllegalStateException if the budget holds fewer than {@code bytes} (a chunk released
   *     twice, or released without being added); the budget is left unchanged
   */
  public void release(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException(
          "cannot release " + bytes + " bytes from the in-flight budget");
    }
    long current;
    do {
      current = inflight.get();
      if (current < bytes) {
        throw new IllegalStateException(
            "in-flight budget would go negative: releasing " + bytes + " bytes with only "
                + current + " in flight (limit " + limitBytes
                + "); a chunk was released twice or never added");
      }
    } while (!inflight.compareAndSet(current, current - bytes));
  }

  /** Returns the bytes in flight now. */
  public long inflightBytes() {
    return inflight.get();
  }

  /** Returns the limit. */
  public long limitBytes() {
    return limitBytes;
  }

  /** Returns whether the bytes in flight are below the limit, so the driver may pull more. */
  public boolean hasRoom() {
    return inflight.get() < limitBytes;
  }

  @Override
  public String toString() {
    return "InflightBudget{inflight=" + inflight.get() + ", limit=" + limitBytes + '}';
  }
}
