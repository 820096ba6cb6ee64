package dev.handoff.core.sink;

import dev.handoff.api.HandoffClock;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardQueues;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * The sink workers: one thread per shard that takes the shard's chunks in seal order, merges
 * consecutive chunks into inserts, writes them through an {@link InsertWriter}, retries transient
 * failures, applies a {@link PermanentPolicy} to permanent ones, releases the chunks' bytes from
 * the {@link InflightBudget} and resolves their acknowledgements.
 *
 * <p>The contracts (order, budget and acknowledgements exactly once on every path, shutdown) are
 * written in the {@linkplain dev.handoff.core.sink package documentation}.
 *
 * <pre>{@code
 * SinkWorkers workers = SinkWorkers.builder(queues, budget, writer)
 *     .maxInsertBytes(16L << 20).linger(Duration.ofMillis(200))
 *     .onPermanent(PermanentPolicy.DEAD_LETTER).deadLetters(new DeadLetterDirectory(dir))
 *     .build();
 * workers.start();
 * ChainReport report = chain.run();                  // the stage is closed when run() returns
 * WorkersReport written = workers.shutdown(Duration.ofSeconds(30));
 * }</pre>
 *
 * <p><b>Threading:</b> {@link #start}, {@link #shutdown} and {@link #close} may be called from
 * any thread (shutdown is serialized and idempotent); {@link #metrics()} from any thread at any
 * time.
 */
public final class SinkWorkers implements AutoCloseable {

  private final Workers workers;

  private SinkWorkers(Builder b) {
    this.workers = new Workers(b);
  }

  /**
   * Starts a builder.
   *
   * @param queues the shard queues to take chunks from; one worker per shard
   * @param budget the budget every chunk's bytes are released from, once
   * @param writer the writer of inserts, shared by every worker
   */
  public static Builder builder(ShardQueues queues, InflightBudget budget, InsertWriter writer) {
    return new Builder(queues, budget, writer);
  }

  /**
   * Starts one worker per shard, on the builder's {@link Builder#runtime runtime} (by default a
   * thread from its thread factory).
   *
   * @throws IllegalStateException if already started or shut down
   */
  public void start() {
    workers.start();
  }

  /**
   * Ends the linger of every shard: the chunks queued now go out in the next insert without
   * waiting for more to merge (a flush before a checkpoint wants them written, not merged with
   * chunks that may never come). Inserts after that linger as usual. Any thread; never blocks.
   */
  public void endLinger() {
    workers.endLinger();
  }

  /** Returns a snapshot of the counters and gauges, per shard and in total. */
  public WorkerMetrics metrics() {
    return workers.metrics();
  }

  /**
   * Drains and stops the workers, then fails what is left. Closes the queues (nothing new can be
   * sent), lets the workers write what is queued without waiting for linger until the queues are
   * empty or {@code deadline} passes, then stops them: an attempt in progress may finish within
   * the grace period ({@link Builder#shutdownGrace}), after which the worker is interrupted and,
   * if it still does not return, its chunks are failed on its behalf. Every chunk still queued is
   * failed ({@code acks.fail}) and released from the budget.
   *
   * <p>Idempotent: a second call returns the first call's report at once. Bounded: returns after
   * at most about {@code deadline} plus twice the grace period, whatever the writer does.
   *
   * @param deadline how long to keep writing what is queued
   * @return what every shard did, over the workers' whole life
   */
  public WorkersReport shutdown(Duration deadline) {
    return workers.shutdown(Objects.requireNonNull(deadline, "deadline"));
  }

  /** Shuts down with no time to drain: {@code shutdown(Duration.ZERO)}. */
  @Override
  public void close() {
    shutdown(Duration.ZERO);
  }

  @Override
  public String toString() {
    return "SinkWorkers{" + workers + '}';
  }

  /** Configures {@link SinkWorkers}; every setting has a default. Not thread-safe. */
  public static final class Builder {
    final ShardQueues queues;
    final InflightBudget budget;
    final InsertWriter writer;
    long maxInsertBytes = 64L << 20;
    int maxInsertRows = 1_000_000;
    Duration linger = Duration.ofMillis(200);
    RetryPolicy retry = RetryPolicy.defaults();
    PermanentPolicy onPermanent = PermanentPolicy.FAIL_ACKS;
    DeadLetters deadLetters;
    HandoffClock clock = HandoffClock.system();
    ThreadFactory threadFactory;
    WorkerRuntime runtime;
    long seed = 0x5EED_0F_5157L;
    WorkerListener listener = WorkerListener.NONE;
    Duration pollInterval = Duration.ofMillis(50);
    Duration shutdownGrace = Duration.ofSeconds(1);

    private Builder(ShardQueues queues, InflightBudget budget, InsertWriter writer) {
      this.queues = Objects.requireNonNull(queues, "queues");
      this.budget = Objects.requireNonNull(budget, "budget");
      this.writer = Objects.requireNonNull(writer, "writer");
    }

    /**
     * Sets the most bytes one insert merges (default 64 MiB). A chunk larger than this is written
     * alone.
     */
    public Builder maxInsertBytes(long maxInsertBytes) {
      if (maxInsertBytes < 1) {
        throw new IllegalArgumentException(
            "maxInsertBytes : " + maxInsertBytes + " (expected: >= 1)");
      }
      this.maxInsertBytes = maxInsertBytes;
      return this;
    }

    /**
     * Sets the most rows one insert merges (default 1,000,000). A chunk with more rows is written
     * alone.
     */
    public Builder maxInsertRows(int maxInsertRows) {
      if (maxInsertRows < 1) {
        throw new IllegalArgumentException(
            "maxInsertRows : " + maxInsertRows + " (expected: >= 1)");
      }
      this.maxInsertRows = maxInsertRows;
      return this;
    }

    /**
     * Sets how long, from taking an insert's first chunk, a worker waits for more chunks to merge
     * before writing (default 200 ms, on the injected clock). Zero merges only what is queued
     * already.
     */
    public Builder linger(Duration linger) {
      this.linger = nonNegative(linger, "linger");
      return this;
    }

    /** Sets the retry policy for transient failures (default {@link RetryPolicy#defaults()}). */
    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /**
     * Sets what happens to permanently failed inserts (default {@link
     * PermanentPolicy#FAIL_ACKS}); {@link PermanentPolicy#DEAD_LETTER} needs {@link
     * #deadLetters}.
     */
    public Builder onPermanent(PermanentPolicy onPermanent) {
      this.onPermanent = Objects.requireNonNull(onPermanent, "onPermanent");
      return this;
    }

    /** Sets where rejected rows go under {@link PermanentPolicy#DEAD_LETTER}. */
    public Builder deadLetters(DeadLetters deadLetters) {
      this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
      return this;
    }

    /** Sets the clock for linger, backoff waits, ages and deadlines (default the system clock). */
    public Builder clock(HandoffClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets the factory of the worker threads (default: daemon threads named {@code
     * handoff-sink-<shard>}).
     */
    public Builder threadFactory(ThreadFactory threadFactory) {
      this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
      return this;
    }

    /**
     * Sets how the workers run and wait (default {@link WorkerRuntime#threads} of the {@link
     * #threadFactory}): a simulator runs them one at a time on virtual time with its own runtime.
     * Overrides {@link #threadFactory}.
     */
    public Builder runtime(WorkerRuntime runtime) {
      this.runtime = Objects.requireNonNull(runtime, "runtime");
      return this;
    }

    /** Sets the seed of the backoff jitter; each shard derives its own generator from it. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Sets the listener of worker events (default none). */
    public Builder listener(WorkerListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Sets the longest single wait of a worker on its queue (default 50 ms of real time): how
     * quickly an idle worker notices shutdown and linger expiry.
     */
    public Builder pollInterval(Duration pollInterval) {
      this.pollInterval = nonNegative(pollInterval, "pollInterval");
      if (pollInterval.isZero()) {
        throw new IllegalArgumentException("pollInterval : 0 (expected: > 0)");
      }
      return this;
    }

    /**
     * Sets how long shutdown waits, past its deadline, for an attempt in progress to finish before
     * it interrupts the worker, and again after the interrupt before it fails the worker's chunks
     * on its behalf (default 1 s).
     */
    public Builder shutdownGrace(Duration shutdownGrace) {
      this.shutdownGrace = nonNegative(shutdownGrace, "shutdownGrace");
      return this;
    }

    /**
     * Builds the workers (not started).
     *
     * @throws IllegalStateException if the policy is {@link PermanentPolicy#DEAD_LETTER} and no
     *     {@link DeadLetters} was set
     */
    public SinkWorkers build() {
      if (onPermanent == PermanentPolicy.DEAD_LETTER && deadLetters == null) {
        throw new IllegalStateException("PermanentPolicy.DEAD_LETTER needs deadLetters(...)");
      }
      return new SinkWorkers(this);
    }

    private static Duration nonNegative(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative()) {
        throw new IllegalArgumentException(name + " : " + d + " (expected: >= 0)");
      }
      return d;
    }
  }
}
