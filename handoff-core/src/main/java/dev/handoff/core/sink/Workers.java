package dev.handoff.core.sink;

import dev.handoff.api.HandoffClock;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.internal.WarnLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The workers behind {@link SinkWorkers}: their threads, metrics and shutdown. */
final class Workers {
  private static final Logger LOG = LoggerFactory.getLogger(Workers.class);
  private static final int WARN_PERMITS = 5;
  private static final long WARN_WINDOW_NANOS = 10_000_000_000L;

  private final ShardQueues queues;
  private final HandoffClock clock;
  private final WorkerRuntime runtime;
  private final long pollNanos;
  private final long graceNanos;
  private final ShardWorker[] shards;
  private final WorkerRuntime.Handle[] threads;
  private final boolean[] stuck;
  private boolean started;
  private WorkersReport report;

  Workers(SinkWorkers.Builder b) {
    this.queues = b.queues;
    this.clock = b.clock;
    this.runtime = b.runtime != null ? b.runtime : WorkerRuntime.threads(b.threadFactory);
    this.pollNanos = b.pollInterval.toNanos();
    this.graceNanos = b.shutdownGrace.toNanos();
    int n = queues.numShards();
    // One limiter for every shard: a sink that rejects everything logs a few lines, not a few
    // per shard. Guarded by itself, as every worker thread uses it.
    WarnLimiter warnings = new WarnLimiter(WARN_PERMITS, WARN_WINDOW_NANOS, b.clock);
    this.shards = new ShardWorker[n];
    this.threads = new WorkerRuntime.Handle[n];
    this.stuck = new boolean[n];
    for (int i = 0; i < n; i++) {
      shards[i] = new ShardWorker(i, b, warnings, runtime);
    }
  }

  synchronized void start() {
    if (started || report != null) {
      throw new IllegalStateException(report != null ? "sink workers already shut down"
          : "sink workers already started");
    }
    started = true; // a start that fails half-way still shuts down the workers it started
    for (int i = 0; i < shards.length; i++) {
      threads[i] = runtime.start(i, shards[i]);
    }
  }

  void endLinger() {
    for (ShardWorker w : shards) {
      w.endLinger = true;
    }
  }

  WorkerMetrics metrics() {
    long now = clock.nanoTime();
    List<WorkerMetrics.PerShard> list = new ArrayList<>(shards.length);
    long[] sum = new long[9];
    int queued = 0;
    long oldestAge = 0;
    for (ShardWorker w : shards) {
      Counters c = w.counters;
      long oldest = w.oldestUnackedIngestNanos();
      long age = oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest);
      int q = queues.size(w.shard);
      long[] v = {c.inserts.get(), c.rowsWritten.get(), c.bytesWritten.get(), c.retries.get(),
          c.deadLetteredRows.get(), c.deadLetteredInserts.get(), c.abandonedChunks.get(),
          c.abandonedRows.get(), 0};
      for (int i = 0; i < v.length; i++) {
        sum[i] += v[i];
      }
      queued += q;
      oldestAge = Math.max(oldestAge, age);
      list.add(new WorkerMetrics.PerShard(w.shard, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
          q, age));
    }
    return new WorkerMetrics(list, new WorkerMetrics.PerShard(-1, sum[0], sum[1], sum[2], sum[3],
        sum[4], sum[5], sum[6], sum[7], queued, oldestAge));
  }

  synchronized WorkersReport shutdown(Duration deadline) {
    if (report != null) {
      return report;
    }
    queues.close();
    for (ShardWorker w : shards) {
      w.draining = true;
    }
    if (started) {
      // Drain until every worker ended or the deadline passed: on the injected clock, and also
      // after as many real poll intervals as the deadline holds, so a clock that does not move
      // (a manual clock) cannot make shutdown wait forever.
      long end = clock.nanoTime() + deadline.toNanos();
      // A join that returns because its worker ended does not use up a slice: else workers that
      // finish early would end the drain before the deadline while others still write.
      long slices = deadline.toNanos() / pollNanos + 1;
      for (long i = 0; i < slices && clock.nanoTime() < end && anyAlive(); ) {
        if (joinFirstAlive(pollNanos)) {
          i++;
        }
      }
      for (ShardWorker w : shards) {
        w.aborting = true;
      }
      joinAll(graceNanos); // an attempt in progress may finish
      for (WorkerRuntime.Handle t : threads) {
        if (t != null && t.isAlive()) {
          t.interrupt();
        }
      }
      joinAll(graceNanos);
      for (int i = 0; i < shards.length; i++) {
        if (threads[i] != null && threads[i].isAlive()) {
          stuck[i] = true;
          LOG.error("sink worker of shard {} did not stop within the grace period after the"
              + " deadline; its chunks are failed and the thread is left to end", i);
          shards[i].force(shards[i].shutdownCause());
        }
      }
    }
    for (ShardWorker w : shards) {
      List<dev.handoff.api.EncodedChunk> left = queues.drain(w.shard);
      if (!left.isEmpty()) {
        w.failQueued(left, w.shutdownCause());
      }
      if (!started) {
        w.abandonHeld(w.shutdownCause(), true);
      }
    }
    report = buildReport();
    return report;
  }

  private boolean anyAlive() {
    for (WorkerRuntime.Handle t : threads) {
      if (t != null && t.isAlive()) {
        return true;
      }
    }
    return false;
  }

  /** Joins the first live worker for up to {@code nanos}; returns whether it is still alive. */
  private boolean joinFirstAlive(long nanos) {
    for (WorkerRuntime.Handle t : threads) {
      if (t != null && t.isAlive()) {
        join(t, nanos);
        return t.isAlive();
      }
    }
    return false;
  }

  /**
   * Waits up to {@code nanos} for every worker to end: on the injected clock, and at most as many
   * full poll intervals as {@code nanos} holds (a clock that does not move cannot stretch it). A
   * worker that ends early does not cut the wait short for the others.
   */
  private void joinAll(long nanos) {
    if (nanos <= 0) {
      return;
    }
    long end = clock.nanoTime() + nanos;
    long slices = Math.max(1, nanos / pollNanos);
    for (long i = 0; i < slices && anyAlive(); ) {
      long left = end - clock.nanoTime();
      if (left <= 0) {
        return;
      }
      if (joinFirstAlive(Math.min(left, pollNanos))) {
        i++;
      }
    }
  }

  private static void join(WorkerRuntime.Handle t, long nanos) {
    try {
      t.join(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // keep the flag; shutdown still completes
    }
  }

  private WorkersReport buildReport() {
    List<WorkersReport.PerShard> list = new ArrayList<>(shards.length);
    boolean drained = true;
    for (ShardWorker w : shards) {
      Counters c = w.counters;
      long failedAtShutdown = c.failedAtShutdownChunks.get();
      drained &= failedAtShutdown == 0 && !stuck[w.shard];
      list.add(new WorkersReport.PerShard(w.shard, c.inserts.get(), c.rowsWritten.get(),
          c.bytesWritten.get(), c.retries.get(), c.deadLetteredRows.get(),
          c.deadLetteredInserts.get(), c.abandonedChunks.get(), c.abandonedRows.get(),
          failedAtShutdown, c.failedAtShutdownRows.get(), stuck[w.shard]));
    }
    return new WorkersReport(list, drained);
  }

  @Override
  public synchronized String toString() {
    return "shards=" + shards.length + (report != null ? ", shut down" : started ? ", running"
        : ", not started");
  }
}
