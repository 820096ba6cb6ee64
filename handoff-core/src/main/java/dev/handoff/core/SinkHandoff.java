package dev.handoff.core;

import dev.handoff.api.AckSet;
import dev.handoff.api.Ack;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.HandoffClock;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import dev.handoff.api.Frame;
import dev.handoff.api.HandoffException;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.Envelope;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.core.internal.KeyHashRouter;
import dev.handoff.core.internal.WarnLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terminal stage of a pipeline: routes each record to a shard, encodes it into that shard's
 * chunk, seals the chunk at the target size and hands it to the shard's bounded queue, all on
 * the pipeline thread and without ever blocking it.
 *
 * <p>When a shard's queue is full the sealed chunk is <em>parked</em>; {@link #relieve()} tries
 * again later and reports {@link FlowControl#BLOCKED} while anything stays parked. A shard's chunks
 * reach its queue strictly in seal order. See {@code docs/architecture.md} for the full contract
 * (behaviours B1 to B14).
 *
 * <p><b>Threading:</b> every method runs on the pipeline thread (except {@link
 * #oldestParkedIngestNanos}, which any thread may read); the stage is not thread-safe.
 * It shares only the queues, the budget and the acknowledgement handles with worker threads, and
 * those are thread-safe.
 *
 * @param <T> the payload type
 */
public final class SinkHandoff<T> implements Stage<T> {

  /*
   * Ordering design. Parked chunks are kept per shard, not in one global queue. A shard's new
   * chunk goes to the back of that shard's parked queue whenever the queue is non-empty, so it can
   * never overtake an older one (B7); a drain walks each shard's parked queue front to back and
   * stops at that shard's first refusal (B6). A full queue of one shard therefore never delays
   * another shard's chunks: shards are independent sinks, and holding shard 2's output behind a
   * stalled shard 1 would only add latency and memory without protecting any order.
   */

  private static final Logger LOG = LoggerFactory.getLogger(SinkHandoff.class);
  private static final int WARN_PERMITS = 5;
  private static final long WARN_WINDOW_NANOS = 10_000_000_000L;

  private final String name;
  private final ShardRouter router;
  private final ShardQueues queues;
  private final InflightBudget budget;
  private final ChunkConfig config;
  private final long maxChunkAgeNanos;
  private final HandoffClock clock;
  private final StageMetrics.Listener metrics;
  private final WarnLimiter skipWarnings;
  private final StageShard<T>[] shards;
  private int parkedChunks;
  private long parkedBytes;

  private FatalError fatal;
  private boolean fatalTaken;
  private boolean closed;
  /**
   * The shard of a one-shard stage while it is open, else null: such a stage skips the router,
   * which can only answer 0, and the stopped and closed checks, which null this field.
   */
  private StageShard<T> onlyShard;
  private final int targetBytes;

  // Counters since the last onBatchEnd.
  // Rows taken are counted per shard (StageShard.rows) and folded into rowsLeftShards when a
  // shard's open rows leave it (sealed or dropped), so push adds no counter of its own.
  private long rowsLeftShards;
  private long outAtBatchStart;
  private long refused;
  private long skipped;
  private long errors;

  @SuppressWarnings("unchecked")
  private SinkHandoff(Builder<T> b) {
    this.name = b.name;
    this.router = b.router;
    this.queues = b.queues;
    this.budget = b.budget;
    this.config = b.config;
    this.maxChunkAgeNanos = b.config.maxChunkAge().toNanos();
    this.clock = b.clock;
    this.metrics = b.metrics;
    this.skipWarnings = new WarnLimiter(WARN_PERMITS, WARN_WINDOW_NANOS, clock);
    if (b.pool != null && b.pool.arrayLength() != ChunkPool.arrayLengthFor(config.targetBytes())) {
      throw new IllegalArgumentException("the pool lends arrays of " + b.pool.arrayLength()
          + " bytes; chunks of " + config.targetBytes() + " bytes need "
          + ChunkPool.arrayLengthFor(config.targetBytes()) + " (ChunkPool.arrayLengthFor)");
    }
    int n = queues.numShards();
    this.shards = new StageShard[n];
    for (int i = 0; i < n; i++) {
      // Every shard gets its own encoder: a columnar encoder holds rows between records, and
      // sharing one would mix shards inside a block (B2).
      shards[i] = new StageShard<>(i, b.encoder.newInstance(), config.targetBytes(), b.pool);
    }
    this.targetBytes = config.targetBytes();
    this.onlyShard = n == 1 ? shards[0] : null;
  }

  /**
   * Starts a builder.
   *
   * @param encoder a template encoder; each shard gets {@link RowEncoder#newInstance()} of it
   * @param queues the shard queues; their shard count is the stage's
   */
  public static <T> Builder<T> builder(RowEncoder<T> encoder, ShardQueues queues) {
    return new Builder<>(encoder, queues);
  }

  /* ------------------------------------------------------------------ Collector */

  /**
   * Routes, encodes and, when the shard's chunk reaches the target, seals and hands it on. Never
   * blocks and never rejects a record (B1); pressure shows in {@link #relieve()}. A stage that
   * stopped or was {@linkplain #close() closed} takes nothing: it fails the record's batch.
   *
   * @return {@link FlowControl#CONTINUE}, always
   */
  @Override
  public FlowControl push(Envelope<T> record) {
    RecordMeta meta = record.meta();
    return push(record.payload(), meta.eventTimeMs(), meta.routingKey(), record.ack());
  }

  /**
   * Pushes one record given as its parts, so that a caller that reuses nothing per record
   * allocates nothing: {@code push(new Envelope<>(payload, new RecordMeta(eventTimeMs,
   * routingKey), ack))} without the envelope. Same contract as {@link #push(Envelope)}.
   *
   * @param payload the row to encode; never null
   * @param eventTimeMs the record's event time, in milliseconds since the epoch
   * @param routingKey the record's routing key
   * @param ack the handle of the record's source batch; {@link Ack#NONE} when untracked
   * @return {@link FlowControl#CONTINUE}, always
   */
  public FlowControl push(T payload, long eventTimeMs, long routingKey, Ack ack) {
    // The common path stays small enough for the JIT to keep the stage's fields in registers
    // across a caller's loop; everything rare lives in methods of its own.
    StageShard<T> shard = onlyShard;
    if (shard == null && (shard = routeOrRefuse(routingKey, eventTimeMs, ack)) == null) {
      return FlowControl.CONTINUE;
    }
    ChunkBuffer buffer = shard.buffer;
    RowEncoder<T> encoder = shard.encoder;
    int rowStart = buffer.length();
    try {
      encoder.encode(payload, buffer);
    } catch (RuntimeException e) {
      encodeFailed(shard, rowStart, ack, e);
      return FlowControl.CONTINUE;
    }
    shard.rows++;
    if (ack != shard.lastAck) {
      startRun(shard, ack); // B3: a new run of one batch's records, or the chunk's first row
    }
    if (eventTimeMs < shard.oldestEventTimeMs) {
      shard.oldestEventTimeMs = eventTimeMs;
    }
    if (buffer.length() + encoder.bufferedBytes() >= targetBytes) {
      seal(shard); // B4
    }
    return FlowControl.CONTINUE;
  }

  /**
   * B3: adds the handle of a new run of consecutive records of the same batch to the chunk's
   * acks. The chunk's first row always gets here ({@link StageShard#CHUNK_START} equals no
   * handle), so its ingest time is taken here too, and push tests nothing else per row for it.
   */
  private void startRun(StageShard<T> shard, Ack ack) {
    if (shard.lastAck == StageShard.CHUNK_START) {
      shard.firstIngestNanos = clock.nanoTime(); // set once per chunk
      if (ack == null) {
        shard.lastAck = null; // a null handle adds no entry, as a run of it never did
        return;
      }
    }
    shard.acks.add(ack);
    shard.lastAck = ack;
  }

  /**
   * Returns the record's shard, or null after failing its ack: the stage is stopped or closed, or
   * the router failed (which stops the stage).
   */
  private StageShard<T> routeOrRefuse(long routingKey, long eventTimeMs, Ack ack) {
    refused++; // until it is routed
    if (fatal != null || closed) {
      refuseStoppedOrClosed(ack);
      return null;
    }
    int idx;
    try {
      idx = router.route(routingKey, eventTimeMs, shards.length);
    } catch (RuntimeException e) {
      // Like an encoder's unchecked exception: the router is broken; push still never throws.
      stop("router " + router.getClass().getName() + " threw " + e, e);
      ack.fail(fatal.toException());
      return null;
    }
    if (idx < 0 || idx >= shards.length) {
      stop("router " + router.getClass().getName() + " returned shard " + idx + " for "
          + shards.length + " shards", null);
      ack.fail(fatal.toException());
      return null;
    }
    refused--;
    return shards[idx];
  }

  /**
   * B11/B14: a stopped or torn-down stage takes nothing, but the batch must not be acknowledged
   * as if this record had been delivered. (After close() nothing would ever seal, send or fail
   * what a push left in a shard.)
   */
  private void refuseStoppedOrClosed(Ack ack) {
    ack.fail(fatal != null ? fatal.toException()
        : new HandoffException(ErrorClass.TRANSIENT,
            "stage " + name + " is closed; a record pushed after close() is not taken"));
  }

  /**
   * Applies the bad-record policy to a record that its caller could not prepare for {@link
   * #push(Object, long, long, Ack) push}, for example because its routing key could not be
   * computed from a NULL or malformed value: the record counts as an encode error, exactly as if
   * the encoder had refused it. Under {@link ErrorPolicy#SKIP} (and an error that is not {@link
   * ErrorClass#FATAL}) it is counted as skipped and logged, rate-limited, and its batch is not
   * failed; otherwise the stage stops and {@code ack} fails. A stopped or closed stage fails
   * {@code ack}, as {@code push} does. Never throws for a bad record; same thread rules as
   * {@code push}.
   *
   * @param error why the record cannot be placed; its message names the column and value
   * @param ack the handle of the record's source batch; {@link Ack#NONE} when untracked
   * @return {@link FlowControl#CONTINUE}, always
   */
  public FlowControl reject(HandoffException error, Ack ack) {
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(ack, "ack");
    if (fatal != null || closed) {
      refused++;
      refuseStoppedOrClosed(ack);
    } else {
      onEncodeError(ack, error);
    }
    return FlowControl.CONTINUE;
  }

  /** Rolls back the failed row (B10: never a partial row) and applies the encode policy. */
  private void encodeFailed(StageShard<T> shard, int rowStart, Ack ack, RuntimeException e) {
    shard.buffer.truncate(rowStart);
    if (e instanceof HandoffException h) {
      onEncodeError(ack, h);
    } else {
      // Only HandoffException may escape an encoder; anything else means the encoder is broken.
      onEncodeError(ack, HandoffException.fatal(
          "encoder " + shard.encoder.getClass().getName() + " threw " + e, e));
    }
  }

  private void onEncodeError(Ack ack, HandoffException e) {
    errors++;
    if (e.errorClass() == ErrorClass.FATAL || config.encodePolicy() == ErrorPolicy.FAIL) {
      stop("encode failed: " + e.getMessage(), e);
      ack.fail(fatal.toException());
      return;
    }
    skipped++;
    if (skipWarnings.tryAcquire()) {
      long suppressed = skipWarnings.takeSuppressed();
      LOG.warn("stage {}: record of batch {} skipped by the SKIP policy: {}{}", name,
          ack.batchId(), e.getMessage(),
          suppressed > 0 ? " (" + suppressed + " similar warnings suppressed)" : "");
    }
  }

  /* ------------------------------------------------------------------ Sealing and parking */

  private void seal(StageShard<T> shard) {
    if (shard.rows == 0 || fatal != null) {
      return; // B5: an empty shard seals nothing; a stopped stage ships nothing
    }
    try {
      shard.encoder.finishChunk(shard.buffer);
    } catch (RuntimeException e) {
      // B5: a broken encoder ships nothing; the shard's acks fail at teardown and replay.
      stop("finishChunk failed on shard " + shard.index + ": " + e.getMessage(), e);
      return;
    }
    Frame frame = shard.buffer.split();
    budget.add(frame.chargedBytes()); // B5: the budget grows at seal, parked or not
    EncodedChunk chunk = new EncodedChunk(shard.index, shard.nextSequence++, frame, shard.rows,
        shard.acks, shard.firstIngestNanos, shard.oldestEventTimeMs);
    shard.chunksSealed++;
    shard.acks = new AckSet();
    shard.lastAck = StageShard.CHUNK_START;
    rowsLeftShards += shard.rows;
    shard.rows = 0;
    shard.oldestEventTimeMs = Long.MAX_VALUE;
    // B7: never overtake an older parked chunk of the same shard.
    if (shard.parked.isEmpty() && queues.trySend(chunk)) {
      shard.chunksSent++;
    } else {
      shard.parked.addLast(chunk);
      shard.publishOldestParked();
      parkedChunks++;
      parkedBytes += chunk.sizeBytes();
    }
  }

  /** Sends each shard's parked chunks in seal order, stopping at each shard's first refusal. */
  private void drainParked() {
    if (parkedChunks == 0) {
      return;
    }
    for (StageShard<T> shard : shards) {
      EncodedChunk head;
      while ((head = shard.parked.peekFirst()) != null && queues.trySend(head)) {
        shard.parked.pollFirst();
        shard.publishOldestParked();
        shard.chunksSent++;
        parkedChunks--;
        parkedBytes -= head.sizeBytes();
      }
    }
  }

  /* ------------------------------------------------------------------ StageLifecycle */

  /** Flushes the counters since the previous call to the metrics listener (B12). */
  @Override
  public void onBatchEnd(Duration elapsed) {
    long outTotal = rowsLeftShards;
    for (StageShard<T> shard : shards) {
      outTotal += shard.rows;
    }
    long out = outTotal - outAtBatchStart;
    StageMetrics m = new StageMetrics(name, out + errors + refused, out, skipped, errors, elapsed,
        parkedChunks, parkedBytes);
    outAtBatchStart = outTotal;
    refused = 0;
    skipped = 0;
    errors = 0;
    metrics.onFlush(m);
  }

  /** Returns the error that stopped the stage, the first time it is asked (B11). */
  @Override
  public Optional<FatalError> takeFatal() {
    if (fatal == null || fatalTaken) {
      return Optional.empty();
    }
    fatalTaken = true;
    return Optional.of(fatal);
  }

  /**
   * Sends parked chunks (B6, B8). After the stage stopped, nothing is sent any more.
   *
   * @return {@link FlowControl#CONTINUE} when nothing is parked now, else {@link FlowControl#BLOCKED}
   */
  @Override
  public FlowControl relieve() {
    if (fatal == null && !closed) {
      drainParked();
    }
    return parkedChunks == 0 ? FlowControl.CONTINUE : FlowControl.BLOCKED;
  }

  /**
   * Seals the chunks that reached the maximum chunk age, sends parked chunks, and says whether the
   * driver may push more: {@link FlowControl#BLOCKED} while chunks stay parked or the budget is
   * full (B8, B15).
   */
  @Override
  public FlowControl pressure() {
    sealAged();
    return relieve() == FlowControl.BLOCKED || !budget.hasRoom()
        ? FlowControl.BLOCKED : FlowControl.CONTINUE;
  }

  /**
   * Seals every open chunk whose first row is at least {@link ChunkConfig#maxChunkAge()} old on
   * the stage's clock, in shard order, and hands each to its queue or parks it like a chunk that
   * reached its target (B15). A row therefore waits in an open chunk at most the maximum age plus
   * the interval between two calls. Does nothing once the stage stopped or was closed.
   *
   * @return how many chunks it sealed
   */
  public int sealAged() {
    if (fatal != null || closed) {
      return 0;
    }
    long now = clock.nanoTime();
    int sealed = 0;
    for (StageShard<T> shard : shards) {
      if (shard.rows > 0 && now - shard.firstIngestNanos >= maxChunkAgeNanos) {
        seal(shard);
        sealed++;
      }
    }
    return sealed;
  }

  /**
   * Returns the {@link HandoffClock#nanoTime()} at which the oldest open chunk got its first row,
   * over all shards, or {@link Long#MAX_VALUE} when no chunk is open; the next {@link #sealAged()}
   * that can seal anything is due at this plus the maximum chunk age.
   */
  public long oldestOpenIngestNanos() {
    long oldest = Long.MAX_VALUE;
    for (StageShard<T> shard : shards) {
      if (shard.rows > 0 && shard.firstIngestNanos - oldest < 0) {
        oldest = shard.firstIngestNanos;
      }
    }
    return oldest;
  }

  /**
   * Seals every shard's open chunk and sends what can be sent (B9).
   *
   * @return {@link FlowControl#CONTINUE} only when nothing is left parked
   */
  @Override
  public FlowControl flushTerminal() {
    if (fatal == null && !closed) {
      for (StageShard<T> shard : shards) {
        seal(shard);
      }
      if (fatal == null) { // finishChunk may have failed while sealing: then send nothing more
        drainParked();
      }
    }
    return parkedChunks == 0 ? FlowControl.CONTINUE : FlowControl.BLOCKED;
  }

  /**
   * Tears the stage down (B13): parked chunks return their bytes to the budget and fail their
   * acknowledgements; open chunks fail theirs. Those batches replay. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onlyShard = null;
    HandoffException cause = fatal != null
        ? fatal.toException()
        : new HandoffException(ErrorClass.TRANSIENT,
            "stage " + name + " torn down before this output was handed to a sink worker");
    for (StageShard<T> shard : shards) {
      EncodedChunk chunk;
      while ((chunk = shard.parked.pollFirst()) != null) {
        shard.publishOldestParked();
        parkedChunks--;
        parkedBytes -= chunk.sizeBytes();
        shard.chunksFailedBack++;
        shard.bytesAbandoned += chunk.sizeBytes();
        shard.rowsFailedBack += chunk.rows();
        try {
          chunk.acks().fail(cause);
        } finally {
          budget.release(chunk.chargedBytes());
          chunk.frame().release();
        }
      }
      shard.rowsFailedBack += shard.rows;
      rowsLeftShards += shard.rows;
      if (!shard.acks.isResolved()) {
        shard.acks.fail(cause); // a partial buffer's batches replay too
      }
      shard.rows = 0;
      shard.buffer.release(); // its array goes back to the pool, if it came from one
    }
  }

  /* ------------------------------------------------------------------ Introspection */

  private void stop(String reason, Throwable cause) {
    if (fatal == null) {
      fatal = new FatalError(name, reason, cause);
      onlyShard = null;
      LOG.error("stage {} stopped: {}", name, reason, cause);
    }
  }

  /** Returns whether the stage stopped on a fatal error. */
  public boolean isStopped() {
    return fatal != null;
  }

  /** Returns the error that stopped the stage, if any, without consuming it. */
  public Optional<FatalError> fatalError() {
    return Optional.ofNullable(fatal);
  }

  /** Returns the number of shards. */
  public int numShards() {
    return shards.length;
  }

  /** Returns how many chunks are parked now, over all shards. */
  public int parkedChunks() {
    return parkedChunks;
  }

  /** Returns the bytes of the parked chunks now. */
  public long parkedBytes() {
    return parkedBytes;
  }

  /** Returns how many chunks of {@code shard} are parked now. */
  public int parkedChunks(int shard) {
    return shards[shard].parked.size();
  }

  /** Returns the rows in {@code shard}'s open (unsealed) chunk. */
  public int openRows(int shard) {
    return shards[shard].rows;
  }

  /**
   * Returns the {@link HandoffClock#nanoTime()} at which the oldest parked chunk of {@code shard} got
   * its first row, or {@link Long#MAX_VALUE} when none is parked.
   *
   * <p>Unlike the other accessors this one may be called from any thread (a metrics registry
   * reads it for the age of the oldest parked chunk): the stage publishes the value through a
   * volatile field whenever the head of the shard's parked chunks changes, so a reader sees the
   * value of a recent park or drain.
   */
  public long oldestParkedIngestNanos(int shard) {
    return shards[shard].oldestParkedNanos;
  }

  /** Returns the stage name. */
  public String name() {
    return name;
  }

  @Override
  public List<ShardReport> shardReports() {
    List<ShardReport> reports = new ArrayList<>(shards.length);
    for (StageShard<T> s : shards) {
      reports.add(new ShardReport(s.index, s.chunksSealed, s.chunksSent, s.chunksFailedBack,
          s.bytesAbandoned, s.rowsFailedBack));
    }
    return reports;
  }

  @Override
  public String toString() {
    return "SinkHandoff{" + name + ", shards=" + shards.length + ", parked=" + parkedChunks
        + (fatal != null ? ", stopped" : "") + (closed ? ", closed" : "") + '}';
  }

  /**
   * Configures a {@link SinkHandoff}. Defaults: name {@code sink}, the key-hash router, an
   * unlimited budget, {@link ChunkConfig#defaults()}, the system clock, no metrics listener.
   *
   * @param <T> the payload type
   */
  public static final class Builder<T> {
    private final RowEncoder<T> encoder;
    private final ShardQueues queues;
    private String name = "sink";
    private ShardRouter router = KeyHashRouter.INSTANCE;
    private InflightBudget budget = InflightBudget.unlimited();
    private ChunkPool pool;
    private ChunkConfig config = ChunkConfig.defaults();
    private HandoffClock clock = HandoffClock.system();
    private StageMetrics.Listener metrics = StageMetrics.Listener.NONE;

    private Builder(RowEncoder<T> encoder, ShardQueues queues) {
      this.encoder = Objects.requireNonNull(encoder, "encoder");
      this.queues = Objects.requireNonNull(queues, "queues");
    }

    /** Sets the name used in errors, logs and metrics. */
    public Builder<T> name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Sets the router. A stage of one shard never calls it: every record goes to shard 0, the
     * only answer a router may give there.
     */
    public Builder<T> router(ShardRouter router) {
      this.router = Objects.requireNonNull(router, "router");
      return this;
    }

    /**
     * Fills the shards' chunks in arrays lent by {@code pool} (default: none, so every seal
     * allocates the next array): give the pool to whoever owns the budget, and its arrays of
     * {@link ChunkPool#arrayLengthFor the target's size}. The budget then charges each chunk
     * its whole array, and whoever settles a chunk releases its frame, which gives the array
     * back.
     *
     * @throws IllegalArgumentException at {@link #build()} if the pool's arrays are not of {@link
     *     ChunkPool#arrayLengthFor}{@code (targetBytes)}
     */
    public Builder<T> pool(ChunkPool pool) {
      this.pool = Objects.requireNonNull(pool, "pool");
      return this;
    }

    /** Sets the in-flight budget shared with the sink workers and the driver. */
    public Builder<T> budget(InflightBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /** Sets the chunk target and the encode error policy. */
    public Builder<T> config(ChunkConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /** Sets the clock. */
    public Builder<T> clock(HandoffClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Sets the metrics listener. */
    public Builder<T> metrics(StageMetrics.Listener metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /** Builds the stage; each shard gets its own encoder instance and pre-sized buffer. */
    public SinkHandoff<T> build() {
      return new SinkHandoff<>(this);
    }
  }
}
