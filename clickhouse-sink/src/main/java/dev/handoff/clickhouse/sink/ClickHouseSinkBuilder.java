package dev.handoff.clickhouse.sink;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.HandoffClock;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.clickhouse.hash.WeightedShardRouter;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClickHouseWriter;
import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.http.DistributedTable;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.sink.DeadLetterDirectory;
import dev.handoff.core.sink.DeadLetters;
import dev.handoff.core.sink.PermanentPolicy;
import dev.handoff.core.sink.RetryPolicy;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkerListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configures a {@link ClickHouseSink}. Only the table is required; every other setting has the
 * default its method states. Not thread-safe; {@link #build()} may be called more than once.
 *
 * @param <T> the row type
 */
public final class ClickHouseSinkBuilder<T> {
  private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSinkBuilder.class);

  private final Function<TableSchema, RowAccessor<T>> accessorFor;
  private ClickHouseHttpOptions.Builder http = ClickHouseHttpOptions.builder();
  private String database;
  private String table;
  private List<String> columns;
  private TableSchema givenSchema;
  private InsertFormat format = InsertFormat.NATIVE;
  private Map<String, String> encoderOptions = Map.of();
  private int shards = 1;
  private boolean shardsSet;
  private ClusterTarget target;
  private String distributedDatabase;
  private String distributedTable;
  private BiFunction<String, Integer, String> replicaUrls = Targets::port8123;
  private int queueCapacity = 8;
  private ShardRouter router;
  private ToLongFunction<? super T> routingKey;
  private String shardingKey;
  private ToLongFunction<? super T> eventTime;
  private ChunkConfig chunks = ChunkConfig.defaults();
  private long budgetBytes = 64L << 20;
  private Duration linger = Duration.ofMillis(200);
  private long maxInsertBytes = 64L << 20;
  private int maxInsertRows = 1_000_000;
  private RetryPolicy retry = RetryPolicy.defaults();
  private DeadLetters deadLetters;
  private ChunkPool chunkPool;
  private Path deadLetterDir;
  private StageMetrics.Listener stageListener = StageMetrics.Listener.NONE;
  private WorkerListener workerListener = WorkerListener.NONE;
  HandoffClock clock = HandoffClock.system();
  ScheduledExecutorService scheduler;
  private ThreadFactory workerThreads;
  Duration closeTimeout = Duration.ofSeconds(30);

  ClickHouseSinkBuilder(Function<TableSchema, RowAccessor<T>> accessorFor) {
    this.accessorFor = Objects.requireNonNull(accessorFor, "accessor");
  }

  /** Sets the server's HTTP interface (default {@code http://127.0.0.1:8123}). */
  public ClickHouseSinkBuilder<T> url(String url) {
    http.url(url);
    return this;
  }

  /** Sets the user and password (default: the server's {@code default} user, no password). */
  public ClickHouseSinkBuilder<T> credentials(String user, String password) {
    http.user(user).password(password);
    return this;
  }

  /**
   * Sets how insert bodies are compressed (default {@link ClickHouseHttpOptions.Compression#LZ4}:
   * ClickHouse's own compressed blocks; {@code ZSTD} for fewer bytes at more CPU, {@code GZIP},
   * or {@code NONE}).
   */
  public ClickHouseSinkBuilder<T> compression(ClickHouseHttpOptions.Compression compression) {
    http.compression(compression);
    return this;
  }

  /** Sets the ZSTD level for {@code compression(ZSTD)}, 1 to 22 (default 1). */
  public ClickHouseSinkBuilder<T> zstdLevel(int level) {
    http.zstdLevel(level);
    return this;
  }

  /**
   * Replaces every HTTP option (timeouts, compression, server settings) with {@code options}; a
   * later {@link #url}, {@link #credentials}, {@link #compression} or {@link #zstdLevel} changes
   * only that field.
   */
  public ClickHouseSinkBuilder<T> http(ClickHouseHttpOptions options) {
    this.http = options.toBuilder();
    return this;
  }

  /** Sets the target table in the HTTP options' database (default {@code default}). */
  public ClickHouseSinkBuilder<T> table(String table) {
    return table(null, table);
  }

  /** Sets the target table; {@code database} null means the HTTP options' database. */
  public ClickHouseSinkBuilder<T> table(String database, String table) {
    this.database = database;
    this.table = Objects.requireNonNull(table, "table");
    return this;
  }

  /**
   * Writes only these columns, in this order (the others get their defaults). Default: every
   * column an INSERT can name.
   */
  public ClickHouseSinkBuilder<T> columns(String... columns) {
    this.columns = List.of(columns);
    return this;
  }

  /**
   * Uses {@code schema} instead of reading the table's columns from the server at build time. It
   * must hold exactly the table's types as the server prints them.
   */
  public ClickHouseSinkBuilder<T> schema(TableSchema schema) {
    this.givenSchema = Objects.requireNonNull(schema, "schema");
    return this;
  }

  /** Sets the insert format, which picks both the encoder and the INSERT's FORMAT (default Native). */
  public ClickHouseSinkBuilder<T> format(InsertFormat format) {
    this.format = Objects.requireNonNull(format, "format");
    return this;
  }

  /** Sets options of the format's encoder, as its provider documents them (default none). */
  public ClickHouseSinkBuilder<T> encoderOptions(Map<String, String> options) {
    this.encoderOptions = Map.copyOf(options);
    return this;
  }

  /**
   * Sets the number of shards, each with its own queue and sink worker thread (default 1), and
   * each queue's capacity in chunks (default 8).
   */
  public ClickHouseSinkBuilder<T> shards(int shards, int queueCapacity) {
    if (shards < 1 || queueCapacity < 1) {
      throw new IllegalArgumentException("shards " + shards + ", queueCapacity " + queueCapacity
          + " (expected: both >= 1)");
    }
    this.shards = shards;
    this.queueCapacity = queueCapacity;
    this.shardsSet = true;
    return this;
  }

  /**
   * Writes to the shards and replicas of {@code target} instead of the one server of {@link
   * #url}: handoff shard {@code i} writes the table on the target's shard {@code i}, to one
   * replica at a time, failing over to the next on a transient error (see {@link
   * ClickHouseWriter}). A target of several shards sets the sink's shard count to its own
   * ({@link #shards} may only repeat it); a one-shard target takes every handoff shard. The
   * table's columns are read from the first replica that answers, and the {@link #url} is not
   * used. Default: the one server of {@link #url}.
   */
  public ClickHouseSinkBuilder<T> target(ClusterTarget target) {
    this.target = Objects.requireNonNull(target, "target");
    this.distributedTable = null;
    return this;
  }

  /**
   * Writes through the cluster of the {@code Distributed} table {@code name} ({@code db.table},
   * or a table of the HTTP options' database): at build time its definition is read from the
   * server of {@link #url} ({@code system.tables}, {@code system.clusters}), the target becomes
   * its cluster's shards and replicas and the table becomes its local table on every shard, as
   * with {@link #target} (a {@link #table} set too is ignored). Replica HTTP URLs come from
   * {@link #replicaUrls}. Unless a {@link #router} or a {@link #routingKey} is set, rows are
   * placed as the {@code Distributed} table would place them: its sharding key is evaluated per
   * row ({@link ShardingKey}) over the shards' weights ({@link WeightedShardRouter}); a key that
   * {@link ShardingKey#parse} refuses fails {@link #build} with the reason.
   */
  public ClickHouseSinkBuilder<T> distributedTable(String name) {
    int dot = Objects.requireNonNull(name, "name").indexOf('.');
    this.distributedDatabase = dot < 0 ? null : name.substring(0, dot);
    this.distributedTable = name.substring(dot + 1);
    this.target = null;
    return this;
  }

  /**
   * Sets how a replica's HTTP URL is made from what {@code system.clusters} names: its host and
   * native-protocol (TCP) port (default {@code http://<host>:8123}). Used with {@link
   * #distributedTable}.
   */
  public ClickHouseSinkBuilder<T> replicaUrls(BiFunction<String, Integer, String> urls) {
    this.replicaUrls = Objects.requireNonNull(urls, "urls");
    return this;
  }

  /**
   * Sets the routing key of a row: rows with equal keys go to the same shard, in order (the
   * key-hash router). Default: none, and rows go to the shards in turn. A {@link
   * dev.handoff.api.HandoffException} that the function throws marks the row bad ({@link
   * #onBadRow}); any other exception propagates from {@code push}.
   */
  public ClickHouseSinkBuilder<T> routingKey(ToLongFunction<? super T> routingKey) {
    this.routingKey = Objects.requireNonNull(routingKey, "routingKey");
    return this;
  }

  /**
   * Places rows as a {@code Distributed} table with this sharding key would, over the shards of
   * the target and their weights (one shard per handoff shard; a one-shard target spreads over
   * {@link #shards} of weight 1): {@code rand()}, an integer column, or a hash function of
   * columns, as {@link ShardingKey#parse} reads it against the table's columns at {@link
   * #build}. Replaces the sharding key of a {@link #distributedTable}; cannot be combined with
   * {@link #router} or {@link #routingKey}. A row whose key cannot be computed (a NULL key
   * column, a value the column's type cannot hold) is a bad row: {@link #onBadRow} skips and
   * counts it, or stops the sink, and the message names the column and the value. The key places
   * rows in pull mode ({@code ClickHouseSink.run}) too, in place of the sources' routing keys.
   */
  public ClickHouseSinkBuilder<T> shardingKey(String expression) {
    this.shardingKey = Objects.requireNonNull(expression, "expression");
    return this;
  }

  /** Sets the router that picks a row's shard from its routing key (default key-hash). */
  public ClickHouseSinkBuilder<T> router(ShardRouter router) {
    this.router = Objects.requireNonNull(router, "router");
    return this;
  }

  /**
   * Sets the event time of a row, in epoch milliseconds, for the age metrics (default: the
   * clock's wall time when the row is pushed, read once per tick of the sink's ticker rather than
   * once per row).
   */
  public ClickHouseSinkBuilder<T> eventTime(ToLongFunction<? super T> eventTime) {
    this.eventTime = Objects.requireNonNull(eventTime, "eventTime");
    return this;
  }

  /** Sets the chunk target size (default 64 KiB). */
  public ClickHouseSinkBuilder<T> chunkTargetBytes(int bytes) {
    this.chunks = chunks.withTargetBytes(bytes);
    return this;
  }

  /** Sets the longest a row waits in an open chunk before it seals (default 1 s). */
  public ClickHouseSinkBuilder<T> maxChunkAge(Duration age) {
    this.chunks = chunks.withMaxChunkAge(age);
    return this;
  }

  /** Sets what happens to a row the encoder rejects: skipped and counted, or the sink stops (default SKIP). */
  public ClickHouseSinkBuilder<T> onBadRow(ErrorPolicy policy) {
    this.chunks = chunks.withEncodePolicy(policy);
    return this;
  }

  /**
   * Sets the in-flight byte budget: above it, {@code push} reports pressure (default 64 MiB).
   * Each sealed chunk weighs its whole array (the chunk target plus an eighth) until it is
   * written or given up, so the budget is the heap the sealed chunks hold.
   */
  public ClickHouseSinkBuilder<T> budgetBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("budgetBytes : " + bytes + " (expected: >= 1)");
    }
    this.budgetBytes = bytes;
    return this;
  }

  /** Sets how long a worker waits for more chunks to merge into one insert (default 200 ms). */
  public ClickHouseSinkBuilder<T> linger(Duration linger) {
    this.linger = Objects.requireNonNull(linger, "linger");
    return this;
  }

  /** Sets the most bytes and rows one insert merges (default 64 MiB and 1,000,000 rows). */
  public ClickHouseSinkBuilder<T> maxInsert(long bytes, int rows) {
    this.maxInsertBytes = bytes;
    this.maxInsertRows = rows;
    return this;
  }

  /**
   * Fills chunks in arrays lent by {@code pool}, whose arrays must be of {@link
   * ChunkPool#arrayLengthFor}{@code (chunkTargetBytes)} bytes (default: a pool of the sink's own,
   * keeping as many arrays as the budget holds). A {@link ChunkPool#checked} pool finds a frame
   * read after its release (its array is poisoned) and any double return.
   */
  public ClickHouseSinkBuilder<T> chunkPool(ChunkPool pool) {
    this.chunkPool = Objects.requireNonNull(pool, "pool");
    return this;
  }

  /** Sets the retries of transient failures (default {@link RetryPolicy#defaults()}). */
  public ClickHouseSinkBuilder<T> retry(RetryPolicy retry) {
    this.retry = Objects.requireNonNull(retry, "retry");
    return this;
  }

  /**
   * Sends rows the server rejects for good to files in {@code dir} (one file and its reason per
   * rejected part), isolating them from the rows that can be written. Default: a rejected insert
   * fails its batches.
   */
  public ClickHouseSinkBuilder<T> deadLetters(Path dir) {
    this.deadLetterDir = Objects.requireNonNull(dir, "dir");
    this.deadLetters = null;
    return this;
  }

  /** Sends rows the server rejects for good to {@code deadLetters} (see {@link #deadLetters(Path)}). */
  public ClickHouseSinkBuilder<T> deadLetters(DeadLetters deadLetters) {
    this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
    this.deadLetterDir = null;
    return this;
  }

  /** Sets listeners of the stage's metrics and of the workers' events (default none). */
  public ClickHouseSinkBuilder<T> listeners(StageMetrics.Listener stage, WorkerListener workers) {
    this.stageListener = Objects.requireNonNull(stage, "stage");
    this.workerListener = Objects.requireNonNull(workers, "workers");
    return this;
  }

  /** Sets the clock of ages, linger, retries and deadlines (default the system clock). */
  public ClickHouseSinkBuilder<T> clock(HandoffClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Sets the scheduler that runs the sink's ticker, which seals aged chunks (default: one daemon
   * thread of the sink's own, stopped at close; a scheduler given here is not shut down).
   */
  public ClickHouseSinkBuilder<T> scheduler(ScheduledExecutorService scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /** Sets the factory of the sink worker threads (default daemon threads). */
  public ClickHouseSinkBuilder<T> workerThreads(ThreadFactory factory) {
    this.workerThreads = Objects.requireNonNull(factory, "factory");
    return this;
  }

  /** Sets the deadline of {@link ClickHouseSink#close()} (default 30 s). */
  public ClickHouseSinkBuilder<T> closeTimeout(Duration timeout) {
    this.closeTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /**
   * Reads the table's columns from the server (unless a schema was given), creates the encoder
   * and the writer of the format, and starts the sink and its workers.
   *
   * @throws IllegalStateException if no table was set
   * @throws IllegalArgumentException if the row type cannot be read as the table's columns, or a
   *     column type is one the format cannot write; the message names the column
   * @throws dev.handoff.clickhouse.http.ClickHouseHttpException if the server cannot be reached
   *     or the table does not exist
   */
  public ClickHouseSink<T> build() {
    if (table == null && distributedTable == null) {
      throw new IllegalStateException("no table: call table(...) before build()");
    }
    ClickHouseHttp client = ClickHouseHttp.create(http.build());
    try {
      ClusterTarget where;
      String keyExpression = shardingKey;
      if (distributedTable != null) {
        DistributedTable d = client.distributedTable(distributedDatabase, distributedTable);
        if (keyExpression == null && router == null && routingKey == null) {
          keyExpression = d.shardingKey().orElse(null);
        }
        this.database = d.localDatabase();
        this.table = d.localTable();
        where = client.clusterOf(d, replicaUrls);
      } else {
        where = target != null ? target : ClusterTarget.single(http.build().url().toString());
      }
      int shardCount = Targets.shardCount(where, shardsSet ? shards : -1, shards);
      ClickHouseHttp reader = target == null && distributedTable == null ? client
          : Targets.firstAnswering(where, http.build());
      TableSchema schema = givenSchema != null ? givenSchema : reader.schema(database, table);
      schema = Targets.columns(schema, columns, qualifiedTable());
      RowAccessor<T> accessor = accessorFor.apply(schema);
      RowEncoder<T> encoder = Providers.encoder(format.encoderName())
          .create(schema, accessor, encoderOptions);
      boolean tokens = reader.supportsDeduplicationToken();
      if (!tokens) {
        LOG.info("sink {}: server {} has no insert_deduplication_token; inserts go without one,"
            + " and rows of a retried insert whose outcome was unknown are reported in doubt",
            qualifiedTable(), reader.options().url());
      }
      ClickHouseWriter writer = client.writer(where, database, table, schema,
          format.clickHouseName(), tokens);
      ShardQueues queues = new ShardQueues(shardCount, queueCapacity);
      InflightBudget budget = new InflightBudget(budgetBytes);
      ChunkPool pool = chunkPool != null ? chunkPool
          : ChunkPool.forBudget(chunks.targetBytes(), budgetBytes, shards);
      Tally tally = new Tally(stageListener, workerListener);
      ToLongFunction<? super T> key = routingKeyOrZero();
      ShardRouter chosenRouter;
      if (keyExpression != null) {
        if (router != null || routingKey != null) {
          throw new IllegalStateException("shardingKey(\"" + keyExpression + "\") places the"
              + " rows itself; it cannot be combined with router(...) or routingKey(...)");
        }
        key = ServerKey.of(keyExpression, schema, accessor, qualifiedTable());
        chosenRouter = where.shards().size() > 1
            ? WeightedShardRouter.of(where.shards().stream().mapToInt(ClusterTarget.Shard::weight)
                .toArray())
            : WeightedShardRouter.uniform(shardCount);
      } else {
        // Without a routing key the rows have no order to keep between shards: spread them.
        chosenRouter = router != null ? router
            : routingKey != null ? Routers.keyHash() : Routers.roundRobin();
      }
      SinkHandoff<T> stage = SinkHandoff.builder(encoder, queues)
          .name(qualifiedTable())
          .router(chosenRouter)
          .budget(budget)
          .pool(pool)
          .config(chunks)
          .clock(clock)
          .metrics(tally)
          .build();
      return new ClickHouseSink<>(this, client, schema, stage, queues, budget, writer, tally,
          where, key);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** The routing key function; a row without one has key 0. */
  ToLongFunction<? super T> routingKeyOrZero() {
    return routingKey != null ? routingKey : ClickHouseSinkBuilder::zero;
  }

  ToLongFunction<? super T> eventTimeOrNull() {
    return eventTime;
  }

  private static long zero(Object row) {
    return 0L;
  }

  String qualifiedTable() {
    return (database != null ? database : http.build().database()) + "." + table;
  }

  SinkWorkers.Builder workers(ShardQueues queues, InflightBudget budget, InsertWriter writer,
      Tally tally) {
    SinkWorkers.Builder b = SinkWorkers.builder(queues, budget, writer)
        .linger(linger)
        .maxInsertBytes(maxInsertBytes)
        .maxInsertRows(maxInsertRows)
        .retry(retry)
        .clock(clock)
        .listener(tally);
    if (deadLetterDir != null) {
      b.onPermanent(PermanentPolicy.DEAD_LETTER)
          .deadLetters(new DeadLetterDirectory(deadLetterDir, format.encoderName()));
    } else if (deadLetters != null) {
      b.onPermanent(PermanentPolicy.DEAD_LETTER).deadLetters(deadLetters);
    }
    if (workerThreads != null) {
      b.threadFactory(workerThreads);
    }
    return b;
  }

  /** The tick of the ager: a tenth of the maximum chunk age, between 1 ms and 100 ms. */
  long tickNanos() {
    long tenth = chunks.maxChunkAge().toNanos() / 10;
    return Math.max(1_000_000L, Math.min(100_000_000L, tenth));
  }
}
