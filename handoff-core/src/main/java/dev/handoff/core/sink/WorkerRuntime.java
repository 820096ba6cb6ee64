package dev.handoff.core.sink;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.ShardQueues;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * How the sink workers run and wait: the threads their loops run on, the waits on a shard's queue,
 * and the joins of shutdown. Together with the {@link dev.handoff.api.HandoffClock} (linger,
 * backoff, deadlines) it is every place a worker waits, so a runtime that runs the loops one at a
 * time on virtual time makes the workers deterministic: the simulator supplies such a runtime,
 * production uses {@link #threads(ThreadFactory)}.
 *
 * <p>A runtime's waits may return early (a spurious wake-up) but never late by more than the
 * runtime's own scheduling; the workers re-check their state after every wait.
 */
public interface WorkerRuntime {

  /**
   * Starts {@code worker}, the loop of shard {@code shard}, and returns its handle.
   *
   * @throws IllegalStateException if the runtime cannot start it
   */
  Handle start(int shard, Runnable worker);

  /**
   * Takes the oldest chunk of {@code shard}, waiting up to {@code timeoutNanos} for one; {@code 0}
   * does not wait. Called only by that shard's worker.
   *
   * @return the chunk, or {@code null} if none arrived in time
   * @throws InterruptedException if the worker is interrupted while waiting
   */
  EncodedChunk poll(ShardQueues queues, int shard, long timeoutNanos) throws InterruptedException;

  /** A started worker, for shutdown: whether it still runs, waiting for it to end, stopping it. */
  interface Handle {
    /** Returns whether the worker's loop has not returned yet. */
    boolean isAlive();

    /**
     * Waits up to {@code nanos} for the worker to end ({@code nanos <= 0} returns at once).
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    void join(long nanos) throws InterruptedException;

    /** Interrupts the worker: its waits throw {@link InterruptedException}. */
    void interrupt();
  }

  /**
   * Returns the runtime of real threads: each worker on a thread from {@code factory} (null: daemon
   * threads named {@code handoff-sink-<shard>}), queue waits on the queue itself.
   */
  static WorkerRuntime threads(ThreadFactory factory) {
    return new ThreadRuntime(factory);
  }
}

/** The production runtime: one platform thread per worker. */
final class ThreadRuntime implements WorkerRuntime {
  private final ThreadFactory factory;

  ThreadRuntime(ThreadFactory factory) {
    this.factory = factory;
  }

  @Override
  public Handle start(int shard, Runnable worker) {
    Thread t;
    if (factory == null) {
      t = new Thread(worker, "handoff-sink-" + shard);
      t.setDaemon(true);
    } else {
      t = factory.newThread(worker);
      if (t == null) {
        throw new IllegalStateException("thread factory returned null for shard " + shard);
      }
    }
    t.start();
    return new Handle() {
      @Override
      public boolean isAlive() {
        return t.isAlive();
      }

      @Override
      public void join(long nanos) throws InterruptedException {
        if (nanos > 0) { // join(0) would wait forever
          t.join(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
        }
      }

      @Override
      public void interrupt() {
        t.interrupt();
      }
    };
  }

  @Override
  public EncodedChunk poll(ShardQueues queues, int shard, long timeoutNanos)
      throws InterruptedException {
    return timeoutNanos <= 0 ? queues.poll(shard)
        : queues.poll(shard, timeoutNanos, TimeUnit.NANOSECONDS);
  }
}
