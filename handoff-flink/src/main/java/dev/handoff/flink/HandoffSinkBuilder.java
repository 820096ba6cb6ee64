package dev.handoff.flink;

import dev.handoff.api.ErrorPolicy;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.sink.InsertFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Configures a {@link HandoffSink}. A table (or a {@link TableSelector}) is required; every other
 * option has the default its setter states, which is the facade's default unless said otherwise.
 * Every option applies per subtask and per table: with parallelism {@code p} and {@code t}
 * tables, up to {@code p * t} budgets of {@link #setBudgetBytes} bytes are in use.
 *
 * @param <T> the row type
 */
public final class HandoffSinkBuilder<T> {
  private final AccessorFactory<T> accessor;
  private final SinkSettings<T> s = new SinkSettings<>();

  HandoffSinkBuilder(AccessorFactory<T> accessor) {
    this.accessor = accessor;
  }

  /** Sets the server's HTTP interface (default {@code http://127.0.0.1:8123}). */
  public HandoffSinkBuilder<T> setUrl(String url) {
    s.url = Objects.requireNonNull(url, "url");
    return this;
  }

  /** Sets the user and password (default: the server's default user). */
  public HandoffSinkBuilder<T> setCredentials(String user, String password) {
    s.user = Objects.requireNonNull(user, "user");
    s.password = Objects.requireNonNull(password, "password");
    return this;
  }

  /** Sets the database of tables named without one (default: the server's default database). */
  public HandoffSinkBuilder<T> setDatabase(String database) {
    s.database = Objects.requireNonNull(database, "database");
    return this;
  }

  /** Writes every row to {@code table} (in the database of {@link #setDatabase}). */
  public HandoffSinkBuilder<T> setTable(String table) {
    s.table = Objects.requireNonNull(table, "table");
    s.selector = null;
    return this;
  }

  /** Writes every row to {@code database.table}. */
  public HandoffSinkBuilder<T> setTable(String database, String table) {
    s.database = Objects.requireNonNull(database, "database");
    return setTable(table);
  }

  /**
   * Writes each row to the table {@code selector} picks for it; each table has its own columns
   * (read from the server), encoder, shards and budget.
   */
  public HandoffSinkBuilder<T> setTableSelector(TableSelector<T> selector) {
    s.selector = Objects.requireNonNull(selector, "selector");
    s.table = null;
    return this;
  }

  /** Writes only these columns, in this order (default: every column the table has). */
  public HandoffSinkBuilder<T> setColumns(String... columns) {
    s.columns = Objects.requireNonNull(columns, "columns").clone();
    return this;
  }

  /** Sets the insert format: encoder and INSERT statement together (default NATIVE). */
  public HandoffSinkBuilder<T> setFormat(InsertFormat format) {
    s.format = Objects.requireNonNull(format, "format");
    return this;
  }

  /** Sets options of the encoder (see docs/formats.md; default none). */
  public HandoffSinkBuilder<T> setEncoderOptions(Map<String, String> options) {
    s.encoderOptions.clear();
    s.encoderOptions.putAll(options);
    return this;
  }

  /** Adds a ClickHouse setting sent with every insert, such as {@code insert_quorum}. */
  public HandoffSinkBuilder<T> setServerSetting(String name, String value) {
    s.serverSettings.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value));
    return this;
  }

  /**
   * Sets the shards of each subtask, each with its own queue of {@code queueCapacity} chunks and
   * its own sink worker (default 1 and 8: parallelism already gives one worker per subtask).
   */
  public HandoffSinkBuilder<T> setShards(int shards, int queueCapacity) {
    s.shards = shards;
    s.queueCapacity = queueCapacity;
    s.shardsSet = true;
    return this;
  }

  /**
   * Writes to the shards and replicas given here instead of the one server of {@link #setUrl}:
   * each list is one ClickHouse shard's replica URLs, in the order they are tried. Handoff shard
   * {@code i} of each subtask writes the table on ClickHouse shard {@code i}, to one replica at
   * a time, failing over to the next on a transient error; the subtask's shard count becomes the
   * number of lists. Rows go to the shards in turn unless {@link #setRoutingKey} or {@link
   * #setShardingKey} places them.
   */
  public HandoffSinkBuilder<T> setCluster(List<List<String>> shards) {
    ArrayList<ArrayList<String>> copy = new ArrayList<>();
    for (List<String> replicas : Objects.requireNonNull(shards, "shards")) {
      copy.add(new ArrayList<>(replicas));
    }
    ClusterTarget.of(shards); // validates now, not in a task manager
    s.cluster = copy;
    s.distributed = false;
    return this;
  }

  /**
   * Writes every row through the cluster of the {@code Distributed} table {@code table} ({@code
   * db.table}, or a table of {@link #setDatabase}): each subtask reads its definition from the
   * server of {@link #setUrl} when it opens, then writes each shard's local table directly, one
   * replica at a time with failover, and places each row as the {@code Distributed} table would
   * (its sharding key over the shards' weights) unless {@link #setRoutingKey} or {@link
   * #setShardingKey} is set. Replica URLs come from {@link #setReplicaUrls}.
   */
  public HandoffSinkBuilder<T> setDistributedTable(String table) {
    setTable(table);
    s.distributed = true;
    s.cluster = null;
    return this;
  }

  /**
   * Sets how a replica's HTTP URL is made from the host and TCP port {@code system.clusters}
   * names, for {@link #setDistributedTable} (default {@code http://<host>:8123}).
   */
  public HandoffSinkBuilder<T> setReplicaUrls(ReplicaUrls urls) {
    s.replicaUrls = Objects.requireNonNull(urls, "urls");
    return this;
  }

  /**
   * Places rows as a {@code Distributed} table with this sharding key would ({@code rand()}, an
   * integer column, or {@code cityHash64}, {@code sipHash64}, {@code murmurHash3_64}, {@code
   * xxHash64}, {@code intHash64} of columns), over the shards of {@link #setCluster} or {@link
   * #setDistributedTable}; replaces a {@code Distributed} table's own key. Cannot be combined
   * with {@link #setRoutingKey}. A row whose key has no value (a NULL column) is a bad row
   * ({@link #setOnBadRow}).
   */
  public HandoffSinkBuilder<T> setShardingKey(String expression) {
    s.shardingKey = Objects.requireNonNull(expression, "expression");
    return this;
  }

  /** Sets the routing key of a row, which picks its shard (default: every row on shard 0). */
  public HandoffSinkBuilder<T> setRoutingKey(RowFunction<T> routingKey) {
    s.routingKey = Objects.requireNonNull(routingKey, "routingKey");
    return this;
  }

  /** Sets a row's event time in epoch milliseconds (default: the wall time of the last tick). */
  public HandoffSinkBuilder<T> setEventTime(RowFunction<T> eventTime) {
    s.eventTime = Objects.requireNonNull(eventTime, "eventTime");
    return this;
  }

  /** Sets the size at which a chunk seals (default 1 MiB). */
  public HandoffSinkBuilder<T> setChunkTargetBytes(int bytes) {
    s.chunkTargetBytes = bytes;
    return this;
  }

  /** Sets how long a row may wait in an open chunk before it seals (default 1 s). */
  public HandoffSinkBuilder<T> setMaxChunkAge(Duration age) {
    s.maxChunkAge = Objects.requireNonNull(age, "age");
    return this;
  }

  /**
   * Sets what a row the encoder refuses does (a value out of range, say): {@code FAIL} (the
   * default here) fails the job with the column, value and reason, so nothing is dropped
   * silently; {@code SKIP} counts it in {@code numRecordsOutErrors} and logs it.
   */
  public HandoffSinkBuilder<T> setOnBadRow(ErrorPolicy policy) {
    s.onBadRow = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /** Sets the bytes sealed and not yet written that a table may hold per subtask (64 MiB). */
  public HandoffSinkBuilder<T> setBudgetBytes(long bytes) {
    s.budgetBytes = bytes;
    return this;
  }

  /** Sets how long a worker waits to merge queued chunks into one insert (default 200 ms). */
  public HandoffSinkBuilder<T> setLinger(Duration linger) {
    s.linger = Objects.requireNonNull(linger, "linger");
    return this;
  }

  /** Sets the largest merged insert (default 64 MiB and 1,000,000 rows). */
  public HandoffSinkBuilder<T> setMaxInsert(long bytes, int rows) {
    s.maxInsertBytes = bytes;
    s.maxInsertRows = rows;
    return this;
  }

  /**
   * Sets the retries of transient failures: attempts in all, the first and the longest wait, and
   * the longest time spent retrying one insert (default 10, 100 ms, 10 s, 2 min). An insert that
   * runs out fails the next checkpoint, and Flink replays it.
   */
  public HandoffSinkBuilder<T> setRetry(int maxAttempts, Duration initialBackoff,
      Duration maxBackoff, Duration maxElapsed) {
    s.retryAttempts = maxAttempts;
    s.retryInitialBackoff = Objects.requireNonNull(initialBackoff, "initialBackoff");
    s.retryMaxBackoff = Objects.requireNonNull(maxBackoff, "maxBackoff");
    s.retryMaxElapsed = Objects.requireNonNull(maxElapsed, "maxElapsed");
    return this;
  }

  /**
   * Isolates rows the server rejects for good and writes them, with the server's reason, under
   * {@code dir}/{@code <table>-<subtask>} on the task manager, so the rest of their insert is
   * written and the job goes on. Default: no dead letters, and a rejected insert fails the job.
   */
  public HandoffSinkBuilder<T> setDeadLetterDirectory(String dir) {
    s.deadLetterDir = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /**
   * Sets how insert bodies are compressed (default {@code LZ4}, ClickHouse's own compressed
   * blocks; {@code ZSTD} for fewer bytes at more CPU, {@code GZIP}, {@code NONE}).
   */
  public HandoffSinkBuilder<T> setCompression(ClickHouseHttpOptions.Compression compression) {
    s.compression = Objects.requireNonNull(compression, "compression");
    return this;
  }

  /** Sets the ZSTD level for {@code setCompression(ZSTD)}, 1 to 22 (default 1). */
  public HandoffSinkBuilder<T> setZstdLevel(int level) {
    s.zstdLevel = level;
    return this;
  }

  /** Sets the connect and request timeouts of an insert (default 10 s and 60 s). */
  public HandoffSinkBuilder<T> setTimeouts(Duration connect, Duration request) {
    s.connectTimeout = Objects.requireNonNull(connect, "connect");
    s.requestTimeout = Objects.requireNonNull(request, "request");
    return this;
  }

  /**
   * Sets how long closing a subtask's sinks after the end of input may take (default 30 s). A
   * subtask closed by a failure does not wait: what it held replays from the last checkpoint.
   */
  public HandoffSinkBuilder<T> setCloseTimeout(Duration timeout) {
    s.closeTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /**
   * Returns the sink.
   *
   * @throws IllegalStateException if neither a table nor a selector was set
   * @throws IllegalArgumentException if a numeric option is out of its range
   */
  public HandoffSink<T> build() {
    if (s.table == null && s.selector == null) {
      throw new IllegalStateException("no table: call setTable or setTableSelector");
    }
    if (s.shardingKey != null && s.routingKey != null) {
      throw new IllegalStateException("both a sharding key (" + s.shardingKey + ") and a routing"
          + " key are set; keep one: the sharding key places rows as the server would");
    }
    if (s.distributed && s.selector != null) {
      throw new IllegalStateException("a table selector cannot be combined with"
          + " setDistributedTable");
    }
    positive("shards", s.shards);
    positive("queueCapacity", s.queueCapacity);
    positive("chunkTargetBytes", s.chunkTargetBytes);
    positive("budgetBytes", s.budgetBytes);
    positive("maxInsertBytes", s.maxInsertBytes);
    positive("maxInsertRows", s.maxInsertRows);
    s.retry(); // validates the retry options now, not in a task manager
    s.http(); // and the HTTP options (the URL, the ZSTD level)
    return new HandoffSink<>(s.copy(), accessor);
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " : " + value + " (expected: > 0)");
    }
  }
}
