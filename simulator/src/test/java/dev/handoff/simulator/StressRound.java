package dev.handoff.simulator;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FlowControl;
import dev.handoff.api.HandoffClock;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.sink.PermanentPolicy;
import dev.handoff.core.sink.RetryPolicy;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkersReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One round of the thread stress test: the real stage ({@link SinkHandoff} over real {@link
 * ShardQueues}, an {@link InflightBudget} and a checked {@link ChunkPool}), the real {@link
 * SinkWorkers} on the production thread runtime, and one {@link SourceAcks} per producer, all on
 * real threads: several producers pushing through one lock (the stage is single-writer; the
 * ClickHouse sink facade serialises its callers the same way), a ticker sealing aged chunks, an
 * observer reading what any thread may read, the workers writing through a {@link StressWriter},
 * and a closer that closes the stage and shuts the workers down, either after the producers
 * finished or while they still push.
 *
 * <p>At the end it checks what the simulator's oracles check, each expectation from the round's
 * own books, never from the class judged: every batch resolved once and the checkpoint the
 * highest batch delivered with all before it; every record of a delivered batch written,
 * dead-lettered or skipped; nothing written that was not pushed before the close, no record
 * written twice unless a lost answer explains it, each shard's rows in order (checked as they
 * arrive); the budget at zero, every pooled array back exactly once, every chunk frame the writer
 * saw released; the workers' report equal to the writer's books; no thread died.
 */
final class StressRound {
  final long seed;
  final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  final StringBuilder config = new StringBuilder();
  /** What the round exercised, for the test's totals. */
  WorkersReport report;
  StressWriter writer;
  boolean raced;
  int pushedAfterCloseCount;

  private final SplittableRandom r;
  private final int shards;
  private final int producers;
  private final Workload w;
  private final short[] sourceOf;
  private final boolean[] encodeError;
  private final ErrorPolicy policy;
  private final ReentrantLock lock = new ReentrantLock();
  private PermanentPolicy onPermanent;
  private ChunkPool pool;
  private long drainNanos;
  /** Set under {@link #lock} right after the stage's close(): later pushes go to a closed stage. */
  private boolean closed;
  private volatile boolean closedSeen;
  private volatile boolean done;
  private final boolean[] pushedAfterClose;
  /** Per source and batch: how often the listener heard it resolve, and whether delivered. */
  private final AtomicIntegerArray[] resolved;
  private final AtomicIntegerArray[] delivered;

  StressRound(long seed) {
    this.seed = seed;
    this.r = new SplittableRandom(seed);
    this.shards = 1 + r.nextInt(4);
    this.producers = 1 + r.nextInt(4);
    int records = producers * (20 + r.nextInt(200));
    int maxPad = r.nextBoolean() ? 0 : 300;
    double poisonRate = r.nextInt(3) == 0 ? 0.01 : 0;
    this.w = new Workload(seed, records, producers, 1 + r.nextInt(8), 1 + r.nextInt(16), maxPad,
        poisonRate);
    this.sourceOf = new short[records];
    for (int s = 0; s < producers; s++) {
      for (int id = w.base[s]; id < w.base[s + 1]; id++) {
        sourceOf[id] = (short) s;
      }
    }
    double recordErrorRate = r.nextInt(3) == 0 ? 0.02 : 0;
    this.encodeError = new boolean[records];
    for (int id = 0; id < records; id++) {
      encodeError[id] = recordErrorRate > 0 && r.nextDouble() < recordErrorRate;
    }
    this.policy = r.nextInt(5) == 0 ? ErrorPolicy.FAIL : ErrorPolicy.SKIP;
    this.pushedAfterClose = new boolean[records];
    this.resolved = new AtomicIntegerArray[producers];
    this.delivered = new AtomicIntegerArray[producers];
    for (int s = 0; s < producers; s++) {
      resolved[s] = new AtomicIntegerArray(w.batches(s));
      delivered[s] = new AtomicIntegerArray(w.batches(s));
    }
    config.append("shards ").append(shards).append(", producers ").append(producers)
        .append(", records ").append(records).append(", pad ").append(maxPad)
        .append(", poison ").append(poisonRate).append(", record errors ")
        .append(recordErrorRate).append(", policy ").append(policy);
  }

  /** Runs the round and its checks; the failures land in {@link #failures}. */
  void run() throws InterruptedException {
    int capacity = 1 + r.nextInt(4);
    int pick = r.nextInt(6);
    int target = pick == 0 ? 4096 : pick == 1 ? 1 + r.nextInt(64) : 20 + r.nextInt(700);
    int array = ChunkPool.arrayLengthFor(target);
    long budgetLimit = r.nextInt(4) == 0 ? Long.MAX_VALUE
        : Math.max(1, (long) array * (1 + r.nextInt(6)) + r.nextInt(3) - 1);
    ShardQueues queues = new ShardQueues(shards, capacity);
    InflightBudget budget = budgetLimit == Long.MAX_VALUE ? InflightBudget.unlimited()
        : new InflightBudget(budgetLimit);
    pool = ChunkPool.checked(array, 64);
    RowEncoder<SimRow> encoder = Providers.encoder("rowbinary")
        .create(SimRow.SCHEMA, SimRow.ACCESSOR, Map.of());
    Duration maxAge = Duration.ofMillis(1 + r.nextInt(20));
    SinkHandoff<SimRow> stage = SinkHandoff.builder(encoder, queues)
        .router(Providers.router("key-hash"))
        .budget(budget)
        .pool(pool)
        .config(new ChunkConfig(target, policy, maxAge))
        .clock(HandoffClock.system())
        .build();
    boolean faults = r.nextInt(4) != 0;
    long graceNanos = TimeUnit.MILLISECONDS.toNanos(5 + r.nextInt(20));
    writer = new StressWriter(w, sourceOf, shards, r.split(), faults, graceNanos);
    int attempts = 1 + r.nextInt(5);
    Duration backoff = Duration.ofNanos(100_000 + r.nextInt(900_000));
    onPermanent = r.nextBoolean() ? PermanentPolicy.DEAD_LETTER
        : PermanentPolicy.FAIL_ACKS;
    long maxInsertBytes = r.nextInt(3) == 0 ? 1 << 20
        : Math.max(1, (long) array * (1 + r.nextInt(4)) + r.nextInt(3) - 1);
    int maxInsertRows = r.nextInt(3) == 0 ? 100_000 : 1 + r.nextInt(40);
    writer.maxInsertBytes = maxInsertBytes;
    writer.maxInsertRows = maxInsertRows;
    writer.maxAttempts = attempts;
    List<Thread> workerThreads = Collections.synchronizedList(new ArrayList<>());
    SinkWorkers workers = SinkWorkers.builder(queues, budget, writer)
        .threadFactory(task -> {
          Thread t = new Thread(task, "stress-sink-" + seed);
          t.setDaemon(true);
          t.setUncaughtExceptionHandler((th, ex) -> failures.add(th.getName() + " died: " + ex));
          workerThreads.add(t);
          return t;
        })
        .seed(seed)
        .maxInsertBytes(maxInsertBytes)
        .maxInsertRows(maxInsertRows)
        .linger(Duration.ofNanos(r.nextInt(2_000_000)))
        .pollInterval(Duration.ofMillis(1 + r.nextInt(5)))
        .shutdownGrace(Duration.ofNanos(graceNanos))
        .retry(new RetryPolicy(attempts, backoff, backoff.multipliedBy(16), 0.5,
            backoff.multipliedBy(64L * attempts)))
        .onPermanent(onPermanent)
        .deadLetters(writer)
        .build();
    raced = r.nextInt(3) != 0;
    drainNanos = raced ? r.nextLong(TimeUnit.MILLISECONDS.toNanos(5) + 1)
        : TimeUnit.SECONDS.toNanos(20);
    long closeAfterNanos = raced ? r.nextLong(TimeUnit.MILLISECONDS.toNanos(40)) : 0;
    long shutdownDeadlineNanos = raced ? r.nextLong(TimeUnit.MILLISECONDS.toNanos(30))
        : TimeUnit.SECONDS.toNanos(20);
    config.append(", queue capacity ").append(capacity).append(", target ").append(target)
        .append(", budget ").append(budgetLimit == Long.MAX_VALUE ? "none" : budgetLimit)
        .append(", max age ").append(maxAge.toMillis()).append(" ms, faults ").append(faults)
        .append(", attempts ").append(attempts).append(", on-permanent ").append(onPermanent)
        .append(", max insert ").append(maxInsertBytes).append(" bytes / ").append(maxInsertRows)
        .append(" rows, close ").append(raced ? "racing the pushes after "
            + closeAfterNanos / 1000 + " us, shutdown deadline " + shutdownDeadlineNanos / 1000
            + " us" : "after the producers, shutdown deadline 20 s");

    SourceAcks[] acks = new SourceAcks[producers];
    for (int s = 0; s < producers; s++) {
      int source = s;
      acks[s] = new SourceAcks("source-" + s, 0, (batch, checkpoint) -> {
        int b = (int) batch.batchId();
        resolved[source].incrementAndGet(b);
        if (batch.state() == SourceBatch.State.DELIVERED) {
          delivered[source].set(b, 1);
        }
      });
    }
    workers.start();
    List<Thread> threads = new ArrayList<>();
    Thread[] producerThreads = new Thread[producers];
    for (int s = 0; s < producers; s++) {
      int source = s;
      producerThreads[s] = StressRun.thread("producer-" + s, seed, failures,
          () -> produce(source, stage, budget, acks[source]));
      threads.add(producerThreads[s]);
    }
    threads.add(StressRun.thread("ticker", seed, failures, () -> tick(stage)));
    threads.add(StressRun.thread("observer", seed, failures,
        () -> observe(stage, workers, budget)));
    Thread closer = StressRun.thread("closer", seed, failures, () -> {
      if (raced) {
        LockSupport.parkNanos(closeAfterNanos);
      } else {
        for (Thread p : producerThreads) {
          try {
            p.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
      close(stage, workers, budget, shutdownDeadlineNanos);
    });
    threads.add(closer);
    for (Thread t : threads) {
      t.start();
    }
    for (Thread p : producerThreads) {
      StressRun.join(p, 60, failures);
    }
    StressRun.join(closer, 60, failures);
    done = true;
    for (Thread t : threads) {
      StressRun.join(t, 10, failures);
    }
    // A worker given up on while stuck in the writer leaves its loop when the write returns;
    // only then are its frames released.
    for (Thread t : new ArrayList<>(workerThreads)) {
      StressRun.join(t, 10, failures);
    }
    check(acks, budget, pool, stage, raced);
  }

  /** A source: pushes its batches in order, each record through the lock, backing off on pressure. */
  private void produce(int s, SinkHandoff<SimRow> stage, InflightBudget budget, SourceAcks acks) {
    for (int b = 0; b < w.batches(s); b++) {
      SourceBatch batch = acks.begin();
      if (batch.batchId() != b) {
        failures.add("source " + s + " opened batch " + batch.batchId() + ", expected " + b);
      }
      for (int n = w.batchStart[s][b]; n < w.batchStart[s][b + 1]; n++) {
        int id = w.base[s] + n;
        SimRow row = new SimRow(id, s, n, w.key[id], w.keySeq[id], w.pad[id]);
        row.poisoned = encodeError[id];
        FlowControl fc;
        lock.lock();
        try {
          pushedAfterClose[id] = closed;
          fc = stage.push(row, id, Workload.routingKey(s, w.key[id]), batch);
        } finally {
          lock.unlock();
        }
        if (fc == FlowControl.BLOCKED || !budget.hasRoom()) {
          awaitRoom(stage);
        }
      }
      batch.complete();
    }
  }

  /** Waits, as a pipeline does, until nothing is parked and the budget has room, or the close. */
  private void awaitRoom(SinkHandoff<SimRow> stage) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
    while (!closedSeen && System.nanoTime() < end) {
      lock.lock();
      try {
        if (closed || stage.isStopped() || stage.pressure() == FlowControl.CONTINUE) {
          return;
        }
      } finally {
        lock.unlock();
      }
      LockSupport.parkNanos(50_000);
    }
  }

  /** The timer of the facade: seals aged chunks until the stage closes. */
  private void tick(SinkHandoff<SimRow> stage) {
    while (!closedSeen && !done) {
      lock.lock();
      try {
        if (!closed) {
          stage.sealAged();
        }
      } finally {
        lock.unlock();
      }
      LockSupport.parkNanos(300_000);
    }
  }

  /** Reads what any thread may read while everything runs. */
  private void observe(SinkHandoff<SimRow> stage, SinkWorkers workers, InflightBudget budget) {
    while (!done) {
      workers.metrics();
      for (int s = 0; s < shards; s++) {
        stage.oldestParkedIngestNanos(s);
      }
      if (budget.inflightBytes() < 0) {
        failures.add("the budget went negative while running: " + budget.inflightBytes());
      }
      LockSupport.parkNanos(500_000);
    }
  }

  /** Seals and sends what it can, closes the stage, then shuts the workers down. */
  private void close(SinkHandoff<SimRow> stage, SinkWorkers workers, InflightBudget budget,
      long deadlineNanos) {
    long drainEnd = System.nanoTime() + drainNanos;
    while (true) {
      lock.lock();
      try {
        if (stage.isStopped() || stage.flushTerminal() == FlowControl.CONTINUE) {
          break;
        }
      } finally {
        lock.unlock();
      }
      if (System.nanoTime() >= drainEnd) {
        break;
      }
      LockSupport.parkNanos(100_000);
    }
    lock.lock();
    boolean stopped;
    try {
      stopped = stage.isStopped(); // the stage is read under the lock, as every call
    } finally {
      lock.unlock();
    }
    if (!raced && !stopped) {
      // Everything is sealed and sent: once the workers wrote it all, every chunk settled and
      // gave its array back at once, so only the stage's open buffers hold one (a frame kept
      // until the worker ends would hold memory for the sink's whole life).
      // A worker releases a chunk's bytes just before its frame: give the frame a moment.
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while ((budget.inflightBytes() != 0 || pool.onLoan() > shards)
          && System.nanoTime() < until) {
        LockSupport.parkNanos(200_000);
      }
      if (budget.inflightBytes() == 0 && pool.onLoan() > shards) {
        failures.add("with every chunk written and the budget empty, " + pool.onLoan()
            + " arrays are on loan; the stage's " + shards + " open buffer(s) explain at most "
            + shards);
      }
    }
    lock.lock();
    try {
      stage.close();
      closed = true;
    } finally {
      lock.unlock();
    }
    closedSeen = true;
    writer.shuttingDown = true;
    WorkersReport r = workers.shutdown(Duration.ofNanos(deadlineNanos));
    // The stage is closed and the workers shut down: every chunk is written or failed, even one
    // a stuck writer still reads (its bytes leave the budget at once, its frame later).
    long left = budget.inflightBytes();
    if (left != 0) {
      failures.add("the workers' shutdown returned with " + left + " bytes still in the budget:"
          + " chunks neither written nor failed");
    }
    report = r;
  }

  private void check(SourceAcks[] acks, InflightBudget budget, ChunkPool pool,
      SinkHandoff<SimRow> stage, boolean raced) {
    failures.addAll(writer.failures);
    long lost = 0;
    String firstLost = null;
    for (int s = 0; s < producers; s++) {
      int expected = -1;
      boolean gap = false;
      for (int b = 0; b < w.batches(s); b++) {
        int times = resolved[s].get(b);
        if (times != 1) {
          failures.add("source " + s + " batch " + b + " resolved " + times + " times");
        }
        boolean ok = delivered[s].get(b) == 1;
        if (ok && !gap) {
          expected = b;
        } else if (!ok) {
          gap = true;
        }
        for (int n = w.batchStart[s][b]; n < w.batchStart[s][b + 1]; n++) {
          int id = w.base[s] + n;
          if (pushedAfterClose[id]) {
            pushedAfterCloseCount++;
            if (ok) {
              failures.add("record " + id + " was pushed after close() but its batch " + b
                  + " of source " + s + " was delivered");
            }
          }
          boolean skipped = encodeError[id] && policy == ErrorPolicy.SKIP;
          if (ok && writer.written[id] == 0 && writer.dead[id] == 0 && !skipped) {
            lost++;
            if (firstLost == null) {
              firstLost = "record " + id + " (source " + s + " #" + n + ", batch " + b + ")";
            }
          }
          if ((pushedAfterClose[id] || encodeError[id]) && (writer.written[id] > 0
              || writer.dead[id] > 0)) {
            failures.add("record " + id + " reached the sink though "
                + (encodeError[id] ? "its encoding failed" : "it was pushed after close()"));
          }
          if (writer.written[id] > 1 + writer.timedOut[id]) {
            failures.add("record " + id + " was written " + writer.written[id] + " times; lost"
                + " answers explain " + writer.timedOut[id] + " repeat(s)");
          }
          if (writer.dead[id] > 1) {
            failures.add("record " + id + " was dead-lettered " + writer.dead[id] + " times");
          }
        }
      }
      if (acks[s].pendingBatches() != 0) {
        failures.add("source " + s + " has " + acks[s].pendingBatches() + " batch(es) pending");
      }
      if (acks[s].checkpoint() != expected) {
        failures.add("source " + s + "'s checkpoint is " + acks[s].checkpoint() + "; the"
            + " batches delivered in order end at " + expected);
      }
      if (!raced && writer.stuck == 0 && fullyClean() && expected != w.batches(s) - 1) {
        failures.add("source " + s + ": a round without faults, closed after the producers,"
            + " delivered only up to batch " + expected + " of " + (w.batches(s) - 1));
      }
    }
    if (lost > 0) {
      failures.add(lost + " record(s) of delivered batches were neither written, dead-lettered"
          + " nor skipped, the first " + firstLost);
    }
    if (budget.inflightBytes() != 0) {
      failures.add("the budget holds " + budget.inflightBytes() + " bytes at the end");
    }
    if (pool.onLoan() != 0) {
      failures.add("the pool has " + pool.onLoan() + " array(s) on loan at the end");
    }
    if (pool.refusedGives() != 0) {
      failures.add("the pool refused " + pool.refusedGives() + " give(s): an array returned"
          + " twice or foreign");
    }
    int unreleased = writer.unreleasedFrames();
    if (unreleased != 0) {
      failures.add(unreleased + " of the " + writer.framesSeen() + " chunk frames the writer"
          + " saw are not released at the end");
    }
    if (report == null) {
      failures.add("the workers' shutdown never returned");
      return;
    }
    if (report.rowsWritten() != writer.rowsAcked) {
      failures.add("the workers report " + report.rowsWritten() + " rows written; the writer"
          + " acknowledged " + writer.rowsAcked);
    }
    if (report.deadLetteredRows() != writer.rowsDeadLettered) {
      failures.add("the workers report " + report.deadLetteredRows() + " rows dead-lettered;"
          + " the writer stored " + writer.rowsDeadLettered);
    }
    if (!raced && writer.stuck == 0 && !report.drained()) {
      failures.add("closed after the producers with 20 s to drain, the workers' report says"
          + " the drain did not finish: " + report);
    }
    for (int s = 0; s < shards; s++) {
      if (stage.parkedChunks(s) != 0) {
        failures.add("shard " + s + " still has " + stage.parkedChunks(s) + " parked chunk(s)"
            + " after close()");
      }
    }
  }

  /** No fault that may fail a batch: no failed writes, no failing poison, no stopping errors. */
  private boolean fullyClean() {
    boolean clean = writer.transientRate == 0 && writer.timeoutRate == 0
        && writer.runtimeRate == 0;
    for (int id = 0; id < w.records; id++) {
      clean &= !(encodeError[id] && policy == ErrorPolicy.FAIL) && !(w.poison[id]
          && (onPermanent == PermanentPolicy.FAIL_ACKS || writer.deadLetterErrorRate > 0));
    }
    return clean;
  }
}
