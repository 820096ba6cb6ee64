package dev.handoff.core.sink;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.ShardQueues;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * How the sink workers run and wait: what drives their loops, the waits on a shard's queue, and
 * the joins of shutdown. Together with the {@link dev.handoff.api.HandoffClock} (linger, backoff,
 * deadlines) and the {@link dev.handoff.api.spi.InsertWriter} it is every place a worker waits, so
 * a runtime that steps the loops one at a time on virtual time makes the workers deterministic:
 * the simulator supplies such a runtime, production uses {@link #threads(ThreadFactory)}.
 *
 * <h2>The concurrency contract</h2>
 *
 * <p>A worker's loop is a {@link Loop}: {@link Loop#step()} runs it until it waits, then returns.
 * The production runtime calls {@code step()} in a loop on the worker's own thread, where every
 * wait blocks inside the step as a thread's wait does, so the steps are invisible there. A runtime
 * that does not block (the simulator's, which steps every worker on its own thread) lets each wait
 * return at once and steps the worker again when the wait would have ended. That works because a
 * step ends right after each call that may wait:
 *
 * <ul>
 *   <li>{@link #poll} with a timeout that returned {@code null}: a non-blocking runtime may return
 *       {@code null} at once (a spurious wake-up, which the worker must tolerate anyway), and steps
 *       the worker again once a chunk arrived, the timeout passed, or it was interrupted;
 *   <li>{@link dev.handoff.api.HandoffClock#sleep} (a retry's backoff): the next step makes the
 *       next attempt, so the runtime steps it again only once the time passed (or at an
 *       interrupt, which the next step reads from the interrupt flag);
 *   <li>{@link dev.handoff.api.spi.InsertWriter#write}: the next step reads the attempt's answer,
 *       so a simulated writer may decide the answer at once and let the runtime step the worker
 *       again when the write would have returned.
 * </ul>
 *
 * <p>Rules for a runtime: a loop's steps never run concurrently with each other, and each step
 * happens-after the previous one (the same thread, or a hand-over that publishes its writes); the
 * worker's interrupt flag is the interrupt flag of the thread running its step, for the length of
 * the step; {@code step()} is never called again once it returned {@code false} or {@link
 * Loop#kill} was called. Shutdown ({@link SinkWorkers#shutdown}) may run on another thread while a
 * step runs: it talks to the worker through volatile flags and settles chunks through the claim
 * that only one caller wins, never through the loop's own state.
 */
public interface WorkerRuntime {

  /**
   * Starts {@code loop}, the worker of shard {@code shard}, and returns its handle.
   *
   * @throws IllegalStateException if the runtime cannot start it
   */
  Handle start(int shard, Loop loop);

  /**
   * Takes the oldest chunk of {@code shard}, waiting up to {@code timeoutNanos} for one; {@code 0}
   * does not wait. Called only by that shard's worker. A runtime that does not block may return
   * {@code null} at once when the queue is empty (see the contract above).
   *
   * @return the chunk, or {@code null} if none arrived in time
   * @throws InterruptedException if the worker is interrupted while waiting
   */
  EncodedChunk poll(ShardQueues queues, int shard, long timeoutNanos) throws InterruptedException;

  /** A sink worker's loop, cut into steps (see the contract of {@link WorkerRuntime}). */
  interface Loop {
    /**
     * Runs the loop until it waits or ends: takes, merges, writes, retries, isolates and settles
     * until a timed poll found nothing, an attempt at the writer was made or a backoff was slept.
     * A worker that is interrupted outside a wait, or whose writer throws an {@link Error}, ends
     * as a worker thread does: it fails what it holds (and rethrows the {@code Error}).
     *
     * @return false once the loop has ended (the runtime never calls it again), else true
     */
    boolean step();

    /**
     * Ends the loop without another step, as an {@link Error} thrown from its wait would: fails
     * the chunks it holds and releases the frames it owes. For a runtime whose process dies while
     * the worker waits.
     */
    void kill(Error cause);
  }

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
   * Returns the runtime of real threads: each worker's loop stepped on a thread from {@code
   * factory} (null: daemon threads named {@code handoff-sink-<shard>}), queue waits on the queue
   * itself.
   */
  static WorkerRuntime threads(ThreadFactory factory) {
    return new ThreadRuntime(factory);
  }
}

/** The production runtime: one platform thread per worker, stepping its loop until it ends. */
final class ThreadRuntime implements WorkerRuntime {
  private final ThreadFactory factory;

  ThreadRuntime(ThreadFactory factory) {
    this.factory = factory;
  }

  @Override
  public Handle start(int shard, Loop loop) {
    Runnable worker = () -> {
      while (loop.step()) {
        // every wait blocks inside the step: the loop goes on at once
      }
    };
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
