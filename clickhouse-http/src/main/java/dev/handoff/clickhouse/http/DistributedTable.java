package dev.handoff.clickhouse.http;

import dev.handoff.clickhouse.http.internal.EngineArgs;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A {@code Distributed} table's definition: the cluster it spreads over, the local table it
 * writes on every shard, and its sharding key as the server prints it.
 *
 * <p>Read with {@link ClickHouseHttp#distributedTable(String, String)}, or parse the engine
 * clause of {@code system.tables.engine_full} (or {@code SHOW CREATE TABLE}) with {@link
 * #parse(String, String, String)}. The sharding key is kept as text: it describes how the server
 * routes rows inserted through the {@code Distributed} table, and a router that evaluates it
 * can be built from it; nothing in this module evaluates it.
 *
 * @param database the {@code Distributed} table's database
 * @param table the {@code Distributed} table's name
 * @param cluster the cluster's name, as in {@code system.clusters}
 * @param localDatabase the database of the local table on every shard
 * @param localTable the local table on every shard
 * @param shardingKey the sharding key expression as the server prints it, empty when the table
 *     has none (it then takes inserts only on a one-shard cluster)
 */
public record DistributedTable(String database, String table, String cluster,
    String localDatabase, String localTable, Optional<String> shardingKey) {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Validates the fields. */
  public DistributedTable {
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(localDatabase, "localDatabase");
    Objects.requireNonNull(localTable, "localTable");
    Objects.requireNonNull(shardingKey, "shardingKey");
  }

  /**
   * Parses the engine clause of {@code database.table}, such as {@code Distributed(c2x2, 'db',
   * events, cityHash64(id) % 4)}: the arguments may be identifiers, backquoted identifiers or
   * string literals; a database argument of {@code currentDatabase()} means {@code database}.
   * Anything after the closing parenthesis ({@code SETTINGS ...}) is ignored.
   *
   * @throws IllegalArgumentException when the clause is not a {@code Distributed} engine with at
   *     least three arguments; the message quotes it
   */
  public static DistributedTable parse(String database, String table, String engineFull) {
    List<String> args = EngineArgs.of("Distributed", engineFull);
    if (args.size() < 3) {
      throw new IllegalArgumentException("table " + database + "." + table
          + " is not a Distributed table with a cluster, database and table: " + engineFull);
    }
    String localDb = args.get(1).equalsIgnoreCase("currentDatabase()") ? database
        : EngineArgs.unquote(args.get(1));
    Optional<String> key = args.size() > 3 ? Optional.of(args.get(3)) : Optional.empty();
    return new DistributedTable(database, table, EngineArgs.unquote(args.get(0)), localDb,
        EngineArgs.unquote(args.get(2)), key);
  }

  /**
   * Returns the column the sharding key names when the key is a bare column name (such as {@code
   * user_id}), else empty: the rows' shard is then the column's value modulo the total weight.
   * Expressions (hash functions, {@code rand()}) are left to a router that evaluates them.
   */
  public Optional<String> shardingColumn() {
    return shardingKey.map(k -> EngineArgs.unquote(k.strip()))
        .filter(k -> IDENTIFIER.matcher(k).matches());
  }
}
