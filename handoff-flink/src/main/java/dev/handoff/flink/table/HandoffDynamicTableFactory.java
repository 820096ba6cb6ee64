package dev.handoff.flink.table;

import static dev.handoff.flink.table.HandoffTableOptions.BUDGET_BYTES;
import static dev.handoff.flink.table.HandoffTableOptions.CHUNK_TARGET_BYTES;
import static dev.handoff.flink.table.HandoffTableOptions.CLOSE_TIMEOUT;
import static dev.handoff.flink.table.HandoffTableOptions.CLUSTER;
import static dev.handoff.flink.table.HandoffTableOptions.COMPRESSION;
import static dev.handoff.flink.table.HandoffTableOptions.DATABASE;
import static dev.handoff.flink.table.HandoffTableOptions.DEAD_LETTER_DIRECTORY;
import static dev.handoff.flink.table.HandoffTableOptions.FORMAT;
import static dev.handoff.flink.table.HandoffTableOptions.LINGER;
import static dev.handoff.flink.table.HandoffTableOptions.MAX_CHUNK_AGE;
import static dev.handoff.flink.table.HandoffTableOptions.ON_BAD_ROW;
import static dev.handoff.flink.table.HandoffTableOptions.PARALLELISM;
import static dev.handoff.flink.table.HandoffTableOptions.PASSWORD;
import static dev.handoff.flink.table.HandoffTableOptions.RETRY_INITIAL_BACKOFF;
import static dev.handoff.flink.table.HandoffTableOptions.RETRY_MAX_ATTEMPTS;
import static dev.handoff.flink.table.HandoffTableOptions.RETRY_MAX_BACKOFF;
import static dev.handoff.flink.table.HandoffTableOptions.RETRY_MAX_ELAPSED;
import static dev.handoff.flink.table.HandoffTableOptions.SHARDS;
import static dev.handoff.flink.table.HandoffTableOptions.SHARDING_KEY;
import static dev.handoff.flink.table.HandoffTableOptions.TABLE;
import static dev.handoff.flink.table.HandoffTableOptions.URL;
import static dev.handoff.flink.table.HandoffTableOptions.USERNAME;
import static dev.handoff.flink.table.HandoffTableOptions.ZSTD_LEVEL;

import dev.handoff.api.ErrorPolicy;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.flink.HandoffSink;
import dev.handoff.flink.HandoffSinkBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * Creates the {@code handoff-clickhouse} SQL sink: a {@link HandoffSink} of the table's rows,
 * insert-only, at least once through Flink's checkpoints.
 *
 * <pre>{@code
 * CREATE TABLE orders (id BIGINT, amount DECIMAL(12, 2), ts TIMESTAMP(3)) WITH (
 *   'connector' = 'handoff-clickhouse',
 *   'url' = 'http://clickhouse:8123',
 *   'table' = 'shop.orders'
 * );
 * }</pre>
 *
 * <p>When the statement is planned, the factory reads the ClickHouse table's columns from the
 * server and checks the Flink table's columns against them by name, so a type that cannot map
 * fails the statement with the column and both types; each subtask checks again when its sink
 * starts. The server's types, never the Flink table's, decide what the encoder writes.
 */
public final class HandoffDynamicTableFactory implements DynamicTableSinkFactory {

  /** The connector's identifier ({@code clickhouse} is the official connector's). */
  public static final String IDENTIFIER = "handoff-clickhouse";

  /** Creates the factory; Flink finds it through the service loader. */
  public HandoffDynamicTableFactory() {}

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(URL, TABLE);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(DATABASE, USERNAME, PASSWORD, FORMAT, SHARDS, CHUNK_TARGET_BYTES, MAX_CHUNK_AGE,
        BUDGET_BYTES, LINGER, RETRY_MAX_ATTEMPTS, RETRY_INITIAL_BACKOFF, RETRY_MAX_BACKOFF,
        RETRY_MAX_ELAPSED, ON_BAD_ROW, DEAD_LETTER_DIRECTORY, PARALLELISM, CLOSE_TIMEOUT,
        COMPRESSION, ZSTD_LEVEL, CLUSTER, SHARDING_KEY);
  }

  /**
   * Validates the options, reads the ClickHouse table's columns from the server, checks the
   * Flink table against them and returns the sink.
   *
   * @throws ValidationException for a bad option, a column that does not map (the message names
   *     the column and both types), or a server that cannot be reached or has no such table
   */
  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validate();
    ReadableConfig o = helper.getOptions();
    String[] target = target(o);
    String qualified = target[0] + "." + target[1];
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    // Every option is checked before the server is asked anything.
    ClickHouseHttpOptions http = http(o);
    HandoffSinkBuilder<RowData> builder = builder(o, target,
        new RowDataAccessorFactory(rowType, qualified));
    Integer parallelism = o.getOptional(PARALLELISM).orElse(null);
    if (parallelism != null && parallelism <= 0) {
      throw invalid(PARALLELISM, parallelism, "expected > 0");
    }
    List<String> columns;
    try {
      columns = ServerSchema.read(http, target[0], target[1]).columnsFor(rowType, qualified);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ValidationException("table " + context.getObjectIdentifier().asSummaryString()
          + " ('connector' = '" + IDENTIFIER + "'): " + e.getMessage(), e);
    }
    HandoffSink<RowData> sink = builder.setColumns(columns.toArray(new String[0])).build();
    return new HandoffDynamicTableSink(sink, parallelism, qualified);
  }

  private static ClickHouseHttpOptions http(ReadableConfig o) {
    ClickHouseHttpOptions.Builder b = ClickHouseHttpOptions.builder();
    try {
      b.url(o.get(URL));
    } catch (IllegalArgumentException e) {
      throw invalid(URL, o.get(URL), e.getMessage());
    }
    o.getOptional(USERNAME).ifPresent(b::user);
    o.getOptional(PASSWORD).ifPresent(b::password);
    return b.build();
  }

  /** Returns {@code {database, table}}. */
  private static String[] target(ReadableConfig o) {
    String table = o.get(TABLE).trim();
    int dot = table.indexOf('.');
    String[] t = dot < 0 ? new String[] {o.get(DATABASE), table}
        : new String[] {table.substring(0, dot), table.substring(dot + 1)};
    if (t[0].isEmpty() || t[1].isEmpty() || t[1].indexOf('.') >= 0) {
      throw invalid(TABLE, table, "expected 'db.table' or 'table'");
    }
    return t;
  }

  private static HandoffSinkBuilder<RowData> builder(ReadableConfig o, String[] target,
      RowDataAccessorFactory accessor) {
    HandoffSinkBuilder<RowData> b = HandoffSink.forAccessor(accessor)
        .setUrl(o.get(URL))
        .setTable(target[0], target[1])
        .setFormat(format(o))
        .setChunkTargetBytes((int) bytes(o, CHUNK_TARGET_BYTES, Integer.MAX_VALUE))
        .setMaxChunkAge(positive(o, MAX_CHUNK_AGE))
        .setBudgetBytes(bytes(o, BUDGET_BYTES, Long.MAX_VALUE))
        .setLinger(nonNegative(o, LINGER))
        .setOnBadRow(onBadRow(o))
        .setCompression(compression(o))
        .setZstdLevel(zstdLevel(o))
        .setCloseTimeout(nonNegative(o, CLOSE_TIMEOUT));
    if (o.getOptional(USERNAME).isPresent() || o.getOptional(PASSWORD).isPresent()) {
      b.setCredentials(o.getOptional(USERNAME).orElse("default"),
          o.getOptional(PASSWORD).orElse(""));
    }
    o.getOptional(DEAD_LETTER_DIRECTORY).ifPresent(b::setDeadLetterDirectory);
    if (o.getOptional(SHARDS).isPresent() || o.getOptional(CLUSTER).isEmpty()) {
      b.setShards(positiveInt(o, SHARDS), 8); // a cluster's shard count is its own
    }
    o.getOptional(CLUSTER).ifPresent(c -> b.setCluster(cluster(c)));
    o.getOptional(SHARDING_KEY).ifPresent(b::setShardingKey);
    b.setRetry(positiveInt(o, RETRY_MAX_ATTEMPTS), positive(o, RETRY_INITIAL_BACKOFF),
        positive(o, RETRY_MAX_BACKOFF), nonNegative(o, RETRY_MAX_ELAPSED));
    try {
      b.build(); // checks the combination (the retry waits, say) before the server is read
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ValidationException("invalid '" + IDENTIFIER + "' options: " + e.getMessage(), e);
    }
    return b;
  }

  /** Reads 'sink.cluster': shards separated by ';', replicas by ','. */
  private static List<List<String>> cluster(String text) {
    List<List<String>> shards = new java.util.ArrayList<>();
    for (String shard : text.split(";", -1)) {
      List<String> replicas = new java.util.ArrayList<>();
      for (String url : shard.split(",", -1)) {
        if (url.isBlank()) {
          throw invalid(CLUSTER, text, "an empty shard or replica URL; expected"
              + " 'url,url;url,...'");
        }
        replicas.add(url.trim());
      }
      shards.add(replicas);
    }
    try {
      dev.handoff.clickhouse.http.ClusterTarget.of(shards);
    } catch (IllegalArgumentException e) {
      throw invalid(CLUSTER, text, e.getMessage());
    }
    return shards;
  }

  private static InsertFormat format(ReadableConfig o) {
    String f = o.get(FORMAT).trim().toLowerCase(Locale.ROOT);
    for (InsertFormat format : InsertFormat.values()) {
      if (format.encoderName().equals(f)) {
        return format;
      }
    }
    throw invalid(FORMAT, o.get(FORMAT), "expected 'native' or 'rowbinary'");
  }

  private static ClickHouseHttpOptions.Compression compression(ReadableConfig o) {
    String c = o.get(COMPRESSION).trim().toLowerCase(Locale.ROOT);
    for (ClickHouseHttpOptions.Compression value : ClickHouseHttpOptions.Compression.values()) {
      if (value.name().toLowerCase(Locale.ROOT).equals(c)) {
        return value;
      }
    }
    throw invalid(COMPRESSION, o.get(COMPRESSION), "expected 'lz4', 'zstd', 'gzip' or 'none'");
  }

  private static int zstdLevel(ReadableConfig o) {
    int level = o.get(ZSTD_LEVEL);
    if (level < ClickHouseHttpOptions.MIN_ZSTD_LEVEL
        || level > ClickHouseHttpOptions.MAX_ZSTD_LEVEL) {
      throw invalid(ZSTD_LEVEL, level, "expected " + ClickHouseHttpOptions.MIN_ZSTD_LEVEL + ".."
          + ClickHouseHttpOptions.MAX_ZSTD_LEVEL);
    }
    return level;
  }

  private static ErrorPolicy onBadRow(ReadableConfig o) {
    switch (o.get(ON_BAD_ROW).trim().toLowerCase(Locale.ROOT)) {
      case "fail":
        return ErrorPolicy.FAIL;
      case "skip":
        return ErrorPolicy.SKIP;
      default:
        throw invalid(ON_BAD_ROW, o.get(ON_BAD_ROW), "expected 'fail' or 'skip'");
    }
  }

  private static int positiveInt(ReadableConfig o, ConfigOption<Integer> option) {
    int v = o.get(option);
    if (v <= 0) {
      throw invalid(option, v, "expected > 0");
    }
    return v;
  }

  private static Duration positive(ReadableConfig o, ConfigOption<Duration> option) {
    Duration d = nonNegative(o, option);
    if (d.isZero()) {
      throw invalid(option, d, "expected > 0");
    }
    return d;
  }

  private static Duration nonNegative(ReadableConfig o, ConfigOption<Duration> option) {
    Duration d = o.get(option);
    if (d.isNegative()) {
      throw invalid(option, d, "expected >= 0");
    }
    return d;
  }

  private static long bytes(ReadableConfig o, ConfigOption<MemorySize> option, long max) {
    long v = o.get(option).getBytes();
    if (v <= 0 || v > max) {
      throw invalid(option, o.get(option), "expected 1.." + max + " bytes");
    }
    return v;
  }

  private static ValidationException invalid(ConfigOption<?> option, Object value, String why) {
    return new ValidationException("option '" + option.key() + "' of '" + IDENTIFIER + "' is "
        + value + ": " + why);
  }
}
