package dev.handoff.core.ack;

import dev.handoff.api.Ack;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One source batch: the {@link Ack} of its records. Created by {@link SourceAcks#begin()} with one
 * holder, the source, which releases it through {@link #complete()}.
 */
public final class SourceBatch implements Ack {

  /** Where a batch is in its life. */
  public enum State {
    /** Some holder has not released it yet. */
    PENDING,
    /** Every holder released it and nobody failed it. */
    DELIVERED,
    /** Every holder released it and at least one failed it: its records replay. */
    FAILED
  }

  private final SourceAcks owner;
  private final long batchId;
  private final AtomicInteger holders = new AtomicInteger(1);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile State state = State.PENDING;
  private volatile boolean completed;

  SourceBatch(SourceAcks owner, long batchId) {
    this.owner = owner;
    this.batchId = batchId;
  }

  @Override
  public long batchId() {
    return batchId;
  }

  /** Returns the name of the source the batch belongs to. */
  public String source() {
    return owner.source();
  }

  /**
   * Adds a holder.
   *
   * @throws IllegalStateException if the batch already resolved: a chunk may not take records of
   *     a batch whose fate is sealed
   */
  @Override
  public void retain() {
    int h;
    do {
      h = holders.get();
      if (h <= 0) {
        throw new IllegalStateException(
            "batch " + batchId + " of source " + owner.source() + " already resolved as " + state
                + "; it cannot be retained again");
      }
    } while (!holders.compareAndSet(h, h + 1));
  }

  /**
   * Removes a holder; the last release resolves the batch.
   *
   * @throws IllegalStateException if every holder already released it
   */
  @Override
  public void release() {
    int h;
    do {
      h = holders.get();
      if (h <= 0) {
        throw new IllegalStateException(
            "batch " + batchId + " of source " + owner.source()
                + " released more often than retained (already " + state + ")");
      }
    } while (!holders.compareAndSet(h, h - 1));
    if (h == 1) {
      owner.resolved(this, failure.get() == null ? State.DELIVERED : State.FAILED);
    }
  }

  @Override
  public void fail(Throwable cause) {
    failure.compareAndSet(null, cause == null ? new IllegalStateException("failed") : cause);
  }

  /**
   * Tells the batch that the source has pushed all its records: releases the source's hold.
   *
   * @throws IllegalStateException if called twice
   */
  public void complete() {
    if (completed) {
      throw new IllegalStateException("batch " + batchId + " completed twice");
    }
    completed = true;
    release();
  }

  /** Sets the final state; called by the owner under its lock, so counts and state agree. */
  void resolve(State finalState) {
    state = finalState;
  }

  /** Returns the batch's state. */
  public State state() {
    return state;
  }

  /** Returns the number of holders that have not released it. */
  public int holders() {
    return Math.max(0, holders.get());
  }

  /** Returns the first failure cause, or {@code null}. */
  public Throwable failure() {
    return failure.get();
  }

  @Override
  public String toString() {
    return "SourceBatch{" + owner.source() + "#" + batchId + ", " + state + ", holders="
        + holders() + '}';
  }
}
