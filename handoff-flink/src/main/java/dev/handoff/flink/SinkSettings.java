package dev.handoff.flink;

import dev.handoff.api.ErrorPolicy;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.clickhouse.sink.ClickHouseSinkBuilder;
import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.core.sink.RetryPolicy;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * Every option of a {@link HandoffSink}, in serializable form: it travels with the job graph and
 * becomes one {@link ClickHouseSinkBuilder} per table in each subtask. Mutable only inside its
 * builder, which hands out copies.
 */
final class SinkSettings<T> implements Serializable, Cloneable {
  private static final long serialVersionUID = 1L;

  String url = "http://127.0.0.1:8123";
  String user;
  String password;
  String database;
  String table;
  TableSelector<T> selector;
  String[] columns;
  InsertFormat format = InsertFormat.NATIVE;
  HashMap<String, String> encoderOptions = new HashMap<>();
  HashMap<String, String> serverSettings = new HashMap<>();
  int shards = 1;
  int queueCapacity = 8;
  boolean shardsSet;
  ArrayList<ArrayList<String>> cluster;
  boolean distributed;
  ReplicaUrls replicaUrls;
  String shardingKey;
  RowFunction<T> routingKey;
  RowFunction<T> eventTime;
  int chunkTargetBytes = 1 << 20;
  Duration maxChunkAge = Duration.ofSeconds(1);
  ErrorPolicy onBadRow = ErrorPolicy.FAIL;
  long budgetBytes = 64L << 20;
  Duration linger = Duration.ofMillis(200);
  long maxInsertBytes = 64L << 20;
  int maxInsertRows = 1_000_000;
  int retryAttempts = 10;
  Duration retryInitialBackoff = Duration.ofMillis(100);
  Duration retryMaxBackoff = Duration.ofSeconds(10);
  Duration retryMaxElapsed = Duration.ofMinutes(2);
  String deadLetterDir;
  Duration connectTimeout = Duration.ofSeconds(10);
  Duration requestTimeout = Duration.ofSeconds(60);
  ClickHouseHttpOptions.Compression compression = ClickHouseHttpOptions.Compression.LZ4;
  int zstdLevel = ClickHouseHttpOptions.DEFAULT_ZSTD_LEVEL;
  Duration closeTimeout = Duration.ofSeconds(30);

  @SuppressWarnings("unchecked")
  SinkSettings<T> copy() {
    try {
      SinkSettings<T> c = (SinkSettings<T>) super.clone();
      c.encoderOptions = new HashMap<>(encoderOptions);
      c.serverSettings = new HashMap<>(serverSettings);
      c.columns = columns == null ? null : columns.clone();
      if (cluster != null) {
        c.cluster = new ArrayList<>();
        for (ArrayList<String> replicas : cluster) {
          c.cluster.add(new ArrayList<>(replicas));
        }
      }
      return c;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** Returns the retry policy these settings describe. */
  RetryPolicy retry() {
    return new RetryPolicy(retryAttempts, retryInitialBackoff, retryMaxBackoff, 0.2,
        retryMaxElapsed);
  }

  /** Returns the HTTP options (endpoint, credentials, timeouts, compression, server settings). */
  ClickHouseHttpOptions http() {
    ClickHouseHttpOptions.Builder b = ClickHouseHttpOptions.builder().url(url)
        .connectTimeout(connectTimeout).requestTimeout(requestTimeout).compression(compression)
        .zstdLevel(zstdLevel);
    if (user != null) {
      b.user(user);
    }
    if (password != null) {
      b.password(password);
    }
    for (Map.Entry<String, String> e : serverSettings.entrySet()) {
      b.setting(e.getKey(), e.getValue());
    }
    return b.build();
  }

  /**
   * Builds the facade of one target table: {@code target} is {@code "table"} or {@code
   * "database.table"}; {@code accessor} reads the row type for the schema read from the server.
   */
  ClickHouseSink<T> open(String target, AccessorFactory<T> accessor, FlinkMetrics listener,
      String subtask) {
    ClickHouseSinkBuilder<T> b = ClickHouseSink.builder(accessor::create);
    int dot = target.indexOf('.');
    if (distributed) {
      b.distributedTable(dot > 0 || database == null ? target : database + "." + target);
      if (replicaUrls != null) {
        b.replicaUrls(replicaUrls);
      }
    } else if (dot > 0) {
      b.table(target.substring(0, dot), target.substring(dot + 1));
    } else if (database != null) {
      b.table(database, target);
    } else {
      b.table(target);
    }
    if (cluster != null) {
      b.target(ClusterTarget.of(new ArrayList<>(cluster)));
    }
    if (shardsSet) {
      b.shards(shards, queueCapacity);
    }
    if (shardingKey != null) {
      b.shardingKey(shardingKey);
    }
    b.http(http()).format(format).encoderOptions(Map.copyOf(encoderOptions))
        .chunkTargetBytes(chunkTargetBytes)
        .maxChunkAge(maxChunkAge).onBadRow(onBadRow).budgetBytes(budgetBytes).linger(linger)
        .maxInsert(maxInsertBytes, maxInsertRows).retry(retry()).closeTimeout(closeTimeout)
        .listeners(listener, listener);
    if (columns != null) {
      b.columns(columns);
    }
    if (routingKey != null) {
      b.routingKey(routingKey);
    }
    if (eventTime != null) {
      b.eventTime(eventTime);
    }
    if (deadLetterDir != null) {
      b.deadLetters(Path.of(deadLetterDir).resolve(subtask));
    }
    return b.build();
  }
}
