package dev.handoff.clickhouse.sink;

import dev.handoff.api.Ack;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import dev.handoff.api.HandoffClock;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseWriter;
import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.http.ReplicaStatus;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Chain;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.ShardReport;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Source;
import dev.handoff.core.ack.BatchListener;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkerMetrics;
import dev.handoff.core.sink.WorkersReport;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One object from a pipeline to a ClickHouse table. Built from an endpoint and a table, it reads
 * the table's columns from the server, creates the encoder and the writer of one {@link
 * InsertFormat} (so the two always agree), owns the shard queues, the in-flight budget, the stage,
 * the sink workers and the acknowledgement trackers, and starts the workers itself.
 *
 * <pre>{@code
 * try (ClickHouseSink<Order> sink = ClickHouseSink.forRecords(Order.class)
 *     .url("http://127.0.0.1:8123").table("shop", "orders").build()) {
 *   for (Order o : orders) {
 *     sink.push(o);
 *   }
 * } // close() delivers what is left and throws DeliveryException if anything was not delivered
 * }</pre>
 *
 * <h2>Push mode and pull mode</h2>
 *
 * <p>An application with its own loop calls {@link #push(Object)}: it never blocks, never rejects
 * a row and allocates nothing (the routing key and event time come from the functions given to
 * the builder once). It returns {@link FlowControl#BLOCKED} while chunks are parked or the budget
 * is full: the application should then pause, or call {@link #awaitRoom(Duration)}. Programs that
 * track source batches open one with {@link #source(String)} and {@link SourceAcks#begin()}, push
 * with {@link #push(Object, SourceBatch)}, {@link SourceBatch#complete()} it, and commit {@link
 * SourceAcks#checkpoint()}: at least once. A pull-style {@link Source} runs with {@link
 * #run(Source, Duration)}, the same stage and the same budget.
 *
 * <h2>Latency bound</h2>
 *
 * <p>A chunk seals when it reaches the target size or when its first row is {@code maxChunkAge}
 * old, whichever comes first. A ticker (the builder's scheduler, default one daemon thread per
 * sink) seals aged chunks every tick even when the application calls nothing; it takes the same
 * lock as {@code push}, so the stage always has one writer at a time and a shard's chunks keep
 * their seal order. A row waits in an open chunk at most {@code maxChunkAge} plus one tick.
 *
 * <h2>Threading</h2>
 *
 * <p>{@code push}, {@code awaitRoom} and {@code run} are meant for one pipeline thread: they are
 * serialised by a lock, so calls from several threads are safe, but rows pushed concurrently go
 * in the order they take the lock. {@link #pressure()}, {@link #workerMetrics()}, {@link
 * #fatalError()} and {@link #close} may be called from any thread; {@code close} is idempotent.
 *
 * @param <T> the row type
 */
public final class ClickHouseSink<T> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);

  private final String table;
  private final HandoffClock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final SinkHandoff<T> stage;
  private final InflightBudget budget;
  private final SinkWorkers workers;
  private final ClickHouseHttp http;
  private final ClickHouseWriter writer;
  private final ClusterTarget target;
  private final ToLongFunction<? super T> routingKey;
  private final ToLongFunction<? super T> eventTime;
  private final Tally tally;
  private final ScheduledExecutorService scheduler;
  private final boolean ownScheduler;
  private final ScheduledFuture<?> ticker;
  private final Duration closeTimeout;
  private final TableSchema schema;
  private final List<SourceAcks> sources = new ArrayList<>(); // guarded by lock
  private final LockedStage.Counter pushed = new LockedStage.Counter(); // guarded by lock
  private long lastFlushNanos; // guarded by lock
  /** The wall time at the last tick: a row's event time when no function gives one. */
  private long tickMillis; // guarded by lock
  private boolean closing; // guarded by lock
  /** A {@link #seal()} left chunks parked: end the workers' linger as they go on. */
  private boolean sealPending; // guarded by lock
  private DeliveryReport report; // guarded by this
  /** Whether the chain of {@link #run} gave up draining at its deadline. */
  private volatile boolean pullDrainTimedOut;

  ClickHouseSink(ClickHouseSinkBuilder<T> b, ClickHouseHttp http, TableSchema schema,
      SinkHandoff<T> stage, ShardQueues queues, InflightBudget budget, ClickHouseWriter writer,
      Tally tally, ClusterTarget target, ToLongFunction<? super T> routingKey) {
    this.table = b.qualifiedTable();
    this.clock = b.clock;
    this.http = http;
    this.schema = schema;
    this.stage = stage;
    this.budget = budget;
    this.writer = writer;
    this.target = target;
    this.tally = tally;
    this.routingKey = routingKey;
    this.eventTime = b.eventTimeOrNull();
    this.closeTimeout = b.closeTimeout;
    this.workers = b.workers(queues, budget, writer, tally).build();
    this.lastFlushNanos = clock.nanoTime();
    this.tickMillis = clock.millis();
    this.ownScheduler = b.scheduler == null;
    this.scheduler = ownScheduler ? Waiting.defaultScheduler(table) : b.scheduler;
    this.workers.start(); // never forgotten: the sink starts its own workers
    long tick = b.tickNanos();
    this.ticker = scheduler.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.NANOSECONDS);
  }

  /** Starts a builder for rows read by {@code accessor}. */
  public static <T> ClickHouseSinkBuilder<T> builder(RowAccessor<T> accessor) {
    return new ClickHouseSinkBuilder<>(schema -> accessor);
  }

  /**
   * Starts a builder whose accessor is made from the table's columns once they are read from the
   * server (or given with {@link ClickHouseSinkBuilder#schema}): for adapters that resolve
   * column names to positions up front.
   */
  public static <T> ClickHouseSinkBuilder<T> builder(
      Function<TableSchema, ? extends RowAccessor<T>> accessorFor) {
    Objects.requireNonNull(accessorFor, "accessorFor");
    return new ClickHouseSinkBuilder<>(schema -> accessorFor.apply(schema));
  }

  /**
   * Starts a builder for instances of a public Java record class, its components matched to the
   * table's columns by name.
   */
  public static <R extends Record> ClickHouseSinkBuilder<R> forRecords(Class<R> type) {
    return forRecords(type, MethodHandles.publicLookup());
  }

  /**
   * Starts a builder for instances of a Java record class that {@code lookup} can access (pass
   * {@code MethodHandles.lookup()} for a record that is not public).
   */
  public static <R extends Record> ClickHouseSinkBuilder<R> forRecords(Class<R> type,
      MethodHandles.Lookup lookup) {
    return new ClickHouseSinkBuilder<>(schema -> RowAccessors.records(type, schema, lookup));
  }

  /** Starts a builder for {@code Object[]} rows, column {@code i} at index {@code i}. */
  public static ClickHouseSinkBuilder<Object[]> forObjectArrays() {
    return builder(RowAccessors.objectArray());
  }

  /** Starts a builder for {@code Map} rows, columns looked up by name (a missing key is null). */
  public static ClickHouseSinkBuilder<Map<String, ?>> forMaps() {
    return new ClickHouseSinkBuilder<>(RowAccessors::map);
  }

  /* ------------------------------------------------------------------ Push mode */

  /**
   * Pushes one row that belongs to no tracked batch. Never blocks, never rejects the row (a row
   * the encoder refuses is skipped and counted, or stops the sink under the {@code FAIL} policy).
   *
   * @return {@link FlowControl#BLOCKED} when the caller should pause before pushing more (chunks
   *     are parked or the in-flight budget is full), else {@link FlowControl#CONTINUE}
   * @throws IllegalStateException after {@link #close} began (the row is not taken), or once the
   *     stage stopped on a fatal error (an encoder or router failure, or a bad row under the
   *     {@code FAIL} policy): the row's batch fails and the message names the error
   */
  public FlowControl push(T row) {
    return push(row, Ack.NONE);
  }

  /**
   * Pushes one row of a source batch: the batch is delivered when all its rows were written (or
   * dead-lettered or skipped) and fails, so it replays, otherwise.
   *
   * @see #push(Object)
   */
  public FlowControl push(T row, SourceBatch batch) {
    return push(row, (Ack) batch);
  }

  private FlowControl push(T row, Ack ack) {
    long key = 0;
    HandoffException badKey = null;
    try {
      key = routingKey.applyAsLong(row);
    } catch (HandoffException e) {
      badKey = e; // a bad row, which the stage's policy handles (skip and count, or stop)
    }
    lock.lock();
    try {
      if (closing) {
        throw new IllegalStateException("sink " + table + " is closed; the row was not taken");
      }
      pushed.value++;
      if (badKey != null) {
        stage.reject(badKey, ack);
      } else {
        long time = eventTime != null ? eventTime.applyAsLong(row) : tickMillis;
        stage.push(row, time, key, ack); // after a fatal error this fails the row's batch
      }
      if (stage.isStopped()) {
        throw stopped();
      }
      if (stage.parkedChunks() > 0) {
        stage.relieve();
      }
      return stage.parkedChunks() > 0 || !budget.hasRoom()
          ? FlowControl.BLOCKED : FlowControl.CONTINUE;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Seals aged chunks, hands on parked ones, and says whether the caller may push more now.
   *
   * @return {@link FlowControl#BLOCKED} while chunks stay parked or the budget is full
   */
  public FlowControl pressure() {
    lock.lock();
    try {
      if (closing) {
        return FlowControl.CONTINUE;
      }
      FlowControl f = stage.pressure();
      if (sealPending) {
        workers.endLinger(); // chunks of the last seal that were parked went on now
        sealPending = stage.parkedChunks() > 0;
      }
      return f;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Seals every open chunk now, whatever its size or age, hands on what the budget lets through
   * and tells the workers to send what is queued without lingering: the first step of a flush
   * before a checkpoint. Rows pushed afterwards open new chunks. Call {@link #pressure()} until it says {@link FlowControl#CONTINUE} to hand on what
   * stayed parked.
   *
   * @return {@link FlowControl#BLOCKED} while chunks stay parked, else {@link FlowControl#CONTINUE}
   * @throws IllegalStateException once the stage stopped on a fatal error
   */
  public FlowControl seal() {
    lock.lock();
    try {
      if (closing) {
        return FlowControl.CONTINUE;
      }
      FlowControl f = stage.flushTerminal();
      if (stage.isStopped()) {
        throw stopped();
      }
      workers.endLinger(); // the caller wants these chunks written, not merged with later ones
      sealPending = f == FlowControl.BLOCKED;
      return f;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until the sink has room ({@link #pressure()} says {@link FlowControl#CONTINUE}) or the
   * timeout passes, for simple programs that would rather wait than manage pressure themselves.
   *
   * @return whether there is room now
   * @throws IllegalStateException once the stage stopped on a fatal error
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitRoom(Duration timeout) throws InterruptedException {
    return Waiting.until(clock, this::hasRoomOrStopped, timeout) && !fatalError().isPresent();
  }

  private boolean hasRoomOrStopped() {
    lock.lock();
    try {
      if (stage.isStopped()) {
        throw stopped(); // a stopped stage never drains: waiting would only burn the timeout
      }
      return closing || stage.pressure() == FlowControl.CONTINUE;
    } finally {
      lock.unlock();
    }
  }

  private IllegalStateException stopped() {
    return new IllegalStateException("sink " + table + " stopped: "
        + stage.fatalError().map(FatalError::reason).orElse("?")
        + "; rows pushed from now on fail their batches");
  }

  /**
   * Returns a new checkpoint tracker of a source whose first batch is {@code 0}. Batches begun on
   * it are counted in the {@link DeliveryReport}.
   */
  public SourceAcks source(String name) {
    return source(name, 0L);
  }

  /**
   * Returns a new checkpoint tracker of a source whose first batch is {@code firstBatchId}; a
   * source resuming from checkpoint {@code c} passes {@code c + 1}.
   */
  public SourceAcks source(String name, long firstBatchId) {
    SourceAcks acks = new SourceAcks(name, firstBatchId, BatchListener.NONE);
    lock.lock();
    try {
      sources.add(acks);
    } finally {
      lock.unlock();
    }
    return acks;
  }

  /* ------------------------------------------------------------------ Pull mode */

  /**
   * Drives {@code source} to its end on the calling thread through this sink's stage and budget
   * ({@link Chain}), then closes the sink with {@code deadline} for what is left.
   *
   * @return the delivery report of the whole run
   * @throws InterruptedException if interrupted while backing off; the sink is closed first
   */
  public DeliveryReport run(Source<T> source, Duration deadline) throws InterruptedException {
    Chain<T> chain = Chain.builder(source, new LockedStage<>(stage, lock, pushed,
            routingKey instanceof ServerKey ? routingKey : null))
        .clock(clock).drainTimeout(deadline).build();
    try {
      pullDrainTimedOut = chain.run().drainTimedOut();
    } finally {
      lock.lock();
      try {
        closing = true;
      } finally {
        lock.unlock();
      }
    }
    return close(deadline);
  }

  /* ------------------------------------------------------------------ State */

  /** Returns the columns the sink writes, as read from the server (or given to the builder). */
  public TableSchema schema() {
    return schema;
  }

  /** Returns a snapshot of the sink workers' counters and gauges, per shard and in total. */
  public WorkerMetrics workerMetrics() {
    return workers.metrics();
  }

  /**
   * Returns each shard's chunk counts so far: sealed, handed to its queue, failed back. A shard's
   * parked chunks are those sealed and neither handed on nor failed back.
   */
  public List<ShardReport> shardReports() {
    lock.lock();
    try {
      return stage.shardReports();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns where the inserts go: the shards and replicas, and the {@code Distributed} table
   * (with its sharding key) when the target was read for one.
   */
  public ClusterTarget target() {
    return target;
  }

  /** Returns a snapshot of every replica's health and counters: the per-replica metric. */
  public List<ReplicaStatus> replicas() {
    return writer.replicas();
  }

  /** Returns the bytes sealed and not yet written or abandoned. */
  public long inflightBytes() {
    return budget.inflightBytes();
  }

  /** Returns the in-flight budget's limit in bytes: sealed bytes not yet written stay below it. */
  public long budgetLimitBytes() {
    return budget.limitBytes();
  }

  /** Returns the error that stopped the stage, if any (an encoder or router failure). */
  public Optional<FatalError> fatalError() {
    lock.lock();
    try {
      return stage.fatalError();
    } finally {
      lock.unlock();
    }
  }

  /* ------------------------------------------------------------------ Close */

  /**
   * Delivers what is left within the builder's close timeout (default 30 s) and returns
   * normally only if everything pushed was delivered.
   *
   * @throws DeliveryException if anything pushed was not delivered; its report says what and why
   */
  @Override
  public void close() {
    DeliveryReport r = close(closeTimeout);
    if (!r.allDelivered()) {
      throw new DeliveryException(r);
    }
  }

  /**
   * Seals every open chunk, lets the workers write what is queued until {@code deadline}, then
   * stops: what was not handed to the server by then fails its batches (they replay). Logs the
   * outcome (INFO when everything was delivered, ERROR otherwise). Idempotent: a second call
   * returns the first report.
   *
   * @return what happened to everything pushed
   */
  public synchronized DeliveryReport close(Duration deadline) {
    if (report != null) {
      return report;
    }
    long end = clock.nanoTime() + deadline.toNanos();
    lock.lock();
    try {
      closing = true;
    } finally {
      lock.unlock();
    }
    boolean drained;
    try {
      drained = Waiting.until(clock, this::flushed, deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drained = false;
    }
    ticker.cancel(false);
    if (ownScheduler) {
      scheduler.shutdownNow();
    }
    List<ShardReport> shards;
    lock.lock();
    try {
      flushMetrics();
      // fatalError(), not takeFatal(): in pull mode the chain has taken the error already.
      stage.fatalError().ifPresent(f -> tally.reason("stage stopped: " + f.reason()));
      stage.close(); // fails what is still parked or open: those batches replay
      shards = stage.shardReports();
    } finally {
      lock.unlock();
    }
    WorkersReport written = workers.shutdown(Duration.ofNanos(Math.max(0, end - clock.nanoTime())));
    writer.close();
    http.close();
    report = report(written, shards, !drained || pullDrainTimedOut || !written.drained());
    if (report.allDelivered() && report.rowsInDoubt() == 0) {
      LOG.info("sink {}: {}", table, report.summary());
    } else if (report.allDelivered()) {
      LOG.warn("sink {}: {}", table, report.summary());
    } else {
      LOG.error("sink {}: {}", table, report.summary());
    }
    return report;
  }

  private boolean flushed() {
    lock.lock();
    try {
      // After a fatal error nothing goes out any more: waiting would only burn the deadline.
      return stage.fatalError().isPresent() || stage.flushTerminal() == FlowControl.CONTINUE;
    } finally {
      lock.unlock();
    }
  }

  private DeliveryReport report(WorkersReport w, List<ShardReport> shards, boolean timedOut) {
    long failedBatches = 0;
    long unfinished = 0;
    long rowsPushed;
    lock.lock();
    try {
      rowsPushed = pushed.value;
      for (SourceAcks s : sources) {
        failedBatches += s.failedBatchIds().size();
        unfinished += s.pendingBatches();
      }
    } finally {
      lock.unlock();
    }
    return tally.report(table, rowsPushed, w, shards, writer.rowsInDoubt(), failedBatches,
        unfinished, timedOut);
  }

  /* ------------------------------------------------------------------ Ticker */

  /** Runs on the scheduler every tick: seals aged chunks, relieves, flushes the metrics. */
  private void tick() {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      tickMillis = clock.millis(); // once per tick, not once per row
      stage.pressure();
      flushMetrics();
    } catch (RuntimeException e) {
      LOG.error("sink {}: the ticker failed; aged chunks may wait for the next push", table, e);
    } finally {
      lock.unlock();
    }
  }

  private void flushMetrics() {
    long now = clock.nanoTime();
    stage.onBatchEnd(Duration.ofNanos(now - lastFlushNanos));
    lastFlushNanos = now;
  }

  @Override
  public String toString() {
    return "ClickHouseSink{" + table + ", " + stage + '}';
  }
}
