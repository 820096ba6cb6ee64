package dev.handoff.testkit;

import dev.handoff.api.Ack;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An {@link Ack} that records what happened to it: how many holders it has, whether it was
 * failed, and how often it resolved. It starts with no holder (the test plays the source).
 * Thread-safe.
 */
public final class RecordingAck implements Ack {
  private final long batchId;
  private final AtomicInteger holders = new AtomicInteger();
  private final AtomicInteger retains = new AtomicInteger();
  private final AtomicInteger releases = new AtomicInteger();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** Creates a handle for batch {@code batchId}. */
  public RecordingAck(long batchId) {
    this.batchId = batchId;
  }

  @Override
  public long batchId() {
    return batchId;
  }

  @Override
  public void retain() {
    retains.incrementAndGet();
    holders.incrementAndGet();
  }

  @Override
  public void release() {
    releases.incrementAndGet();
    if (holders.decrementAndGet() < 0) {
      throw new IllegalStateException("batch " + batchId + " released more often than retained");
    }
  }

  @Override
  public void fail(Throwable cause) {
    failure.compareAndSet(null, cause);
  }

  /** Returns the number of holders not yet released. */
  public int holders() {
    return holders.get();
  }

  /** Returns how many times the batch was retained. */
  public int retains() {
    return retains.get();
  }

  /** Returns how many times the batch was released. */
  public int releases() {
    return releases.get();
  }

  /** Returns whether {@link #fail} was called. */
  public boolean failed() {
    return failure.get() != null;
  }

  /** Returns the first failure cause, or {@code null}. */
  public Throwable failure() {
    return failure.get();
  }

  /** Returns whether the batch is fully released and never failed. */
  public boolean delivered() {
    return retains.get() > 0 && holders.get() == 0 && failure.get() == null;
  }

  @Override
  public String toString() {
    return "RecordingAck{batch=" + batchId + ", holders=" + holders + ", failed=" + failed() + '}';
  }
}
