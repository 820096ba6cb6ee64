package dev.handoff.flink.table;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The options of the {@code handoff-clickhouse} SQL connector, as given in {@code CREATE TABLE
 * ... WITH (...)}. Each maps onto a setter of {@link dev.handoff.flink.HandoffSinkBuilder} and
 * has its default; docs/flink.md lists them.
 */
public final class HandoffTableOptions {
  private HandoffTableOptions() {}

  /** The server's HTTP interface. */
  public static final ConfigOption<String> URL = ConfigOptions.key("url").stringType()
      .noDefaultValue()
      .withDescription("The ClickHouse server's HTTP interface, such as http://clickhouse:8123.");

  /** The target table: {@code db.table} or {@code table}. */
  public static final ConfigOption<String> TABLE = ConfigOptions.key("table").stringType()
      .noDefaultValue()
      .withDescription("The ClickHouse table to insert into: 'db.table', or 'table' in the"
          + " database of the 'database' option.");

  /** The database of a table named without one. */
  public static final ConfigOption<String> DATABASE = ConfigOptions.key("database").stringType()
      .defaultValue("default")
      .withDescription("The database of a 'table' given without one.");

  /** The user. */
  public static final ConfigOption<String> USERNAME = ConfigOptions.key("username").stringType()
      .noDefaultValue()
      .withDescription("The ClickHouse user (default: the server's default user).");

  /** The user's password. */
  public static final ConfigOption<String> PASSWORD = ConfigOptions.key("password").stringType()
      .noDefaultValue()
      .withDescription("The password of 'username' (default: empty).");

  /** The insert format. */
  public static final ConfigOption<String> FORMAT = ConfigOptions.key("format").stringType()
      .defaultValue("native")
      .withDescription("The insert format: 'native' (columnar blocks) or 'rowbinary'.");

  /** The shards of each subtask. */
  public static final ConfigOption<Integer> SHARDS = ConfigOptions.key("sink.shards").intType()
      .defaultValue(1)
      .withDescription("The shards of each subtask, each with its own queue and sink worker.");

  /** The size at which a chunk seals. */
  public static final ConfigOption<MemorySize> CHUNK_TARGET_BYTES =
      ConfigOptions.key("sink.chunk-target-bytes").memoryType()
          .defaultValue(MemorySize.parse("1mb"))
          .withDescription("The encoded size at which a chunk seals and goes to a worker.");

  /** How long a row may wait in an open chunk. */
  public static final ConfigOption<Duration> MAX_CHUNK_AGE =
      ConfigOptions.key("sink.max-chunk-age").durationType().defaultValue(Duration.ofSeconds(1))
          .withDescription("How long a row may wait in an open chunk before the chunk seals.");

  /** The bytes sealed and not yet written that a subtask may hold. */
  public static final ConfigOption<MemorySize> BUDGET_BYTES =
      ConfigOptions.key("sink.budget-bytes").memoryType().defaultValue(MemorySize.parse("64mb"))
          .withDescription("The bytes sealed and not yet written that each subtask may hold;"
              + " when they are in use, the sink applies backpressure.");

  /** How long a worker waits to merge queued chunks into one insert. */
  public static final ConfigOption<Duration> LINGER = ConfigOptions.key("sink.linger")
      .durationType().defaultValue(Duration.ofMillis(200))
      .withDescription("How long a worker waits to merge queued chunks into one insert.");

  /** The attempts of an insert that fails transiently. */
  public static final ConfigOption<Integer> RETRY_MAX_ATTEMPTS =
      ConfigOptions.key("sink.retry.max-attempts").intType().defaultValue(10)
          .withDescription("The attempts in all of an insert that fails transiently.");

  /** The first wait before a retry. */
  public static final ConfigOption<Duration> RETRY_INITIAL_BACKOFF =
      ConfigOptions.key("sink.retry.initial-backoff").durationType()
          .defaultValue(Duration.ofMillis(100))
          .withDescription("The wait before the first retry; it doubles with each retry.");

  /** The longest wait between retries. */
  public static final ConfigOption<Duration> RETRY_MAX_BACKOFF =
      ConfigOptions.key("sink.retry.max-backoff").durationType()
          .defaultValue(Duration.ofSeconds(10))
          .withDescription("The longest wait between two attempts.");

  /** The longest time spent retrying one insert. */
  public static final ConfigOption<Duration> RETRY_MAX_ELAPSED =
      ConfigOptions.key("sink.retry.max-elapsed").durationType()
          .defaultValue(Duration.ofMinutes(2))
          .withDescription("The longest time spent retrying one insert; an insert that runs"
              + " out fails the next checkpoint, and Flink replays it.");

  /** What a row the encoder refuses does. */
  public static final ConfigOption<String> ON_BAD_ROW = ConfigOptions.key("sink.on-bad-row")
      .stringType().defaultValue("fail")
      .withDescription("What a row the encoder refuses (a value out of range, a NULL into a"
          + " non-Nullable column) does: 'fail' fails the job with the column, value and"
          + " reason; 'skip' counts it in numRecordsOutErrors, logs it and goes on.");

  /** Where rows the server rejects for good are written. */
  public static final ConfigOption<String> DEAD_LETTER_DIRECTORY =
      ConfigOptions.key("sink.dead-letter-directory").stringType().noDefaultValue()
          .withDescription("A directory on the task managers for rows the server rejects for"
              + " good, with the server's reason; without it such an insert fails the job.");

  /** How insert bodies are compressed. */
  public static final ConfigOption<String> COMPRESSION = ConfigOptions.key("sink.compression")
      .stringType().defaultValue("lz4")
      .withDescription("How insert bodies are compressed: 'lz4' or 'zstd' (ClickHouse's own"
          + " compressed blocks), 'gzip', or 'none'.");

  /** The ZSTD level for {@code 'sink.compression' = 'zstd'}. */
  public static final ConfigOption<Integer> ZSTD_LEVEL = ConfigOptions.key("sink.zstd-level")
      .intType().defaultValue(1)
      .withDescription("The ZSTD level for 'sink.compression' = 'zstd', 1 (fastest) to 22.");

  /** The shards and replicas of a cluster, in place of the one server of 'url'. */
  public static final ConfigOption<String> CLUSTER = ConfigOptions.key("sink.cluster")
      .stringType().noDefaultValue()
      .withDescription("A cluster's replicas in place of the one server of 'url': shards"
          + " separated by ';', each shard's replica URLs by ',' (tried in that order), for"
          + " example 'http://a1:8123,http://a2:8123;http://b1:8123'. Shard i of each subtask"
          + " writes the table on ClickHouse shard i, one replica at a time with failover.");

  /** A sharding expression that places rows as a Distributed table would. */
  public static final ConfigOption<String> SHARDING_KEY = ConfigOptions.key("sink.sharding-key")
      .stringType().noDefaultValue()
      .withDescription("Places each row on the shard a Distributed table with this sharding"
          + " key would pick: rand(), an integer column, or cityHash64, sipHash64,"
          + " murmurHash3_64, xxHash64 or intHash64 of columns. A row whose key is NULL is a"
          + " bad row ('sink.on-bad-row').");

  /** The sink's parallelism. */
  public static final ConfigOption<Integer> PARALLELISM = FactoryUtil.SINK_PARALLELISM;

  /** How long closing a subtask's sink after the end of input may take. */
  public static final ConfigOption<Duration> CLOSE_TIMEOUT =
      ConfigOptions.key("sink.close-timeout").durationType().defaultValue(Duration.ofSeconds(30))
          .withDescription("How long closing a subtask's sink after the end of input may take.");
}
