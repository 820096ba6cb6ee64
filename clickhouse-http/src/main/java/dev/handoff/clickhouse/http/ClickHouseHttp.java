package dev.handoff.clickhouse.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.api.HandoffClock;
import dev.handoff.clickhouse.http.internal.ClusterWriter;
import dev.handoff.clickhouse.http.internal.ErrorCodes;
import dev.handoff.clickhouse.http.internal.Http1Client;
import dev.handoff.clickhouse.http.internal.HttpTransport;
import dev.handoff.clickhouse.http.internal.SchemaReader;
import dev.handoff.clickhouse.http.internal.Sql;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A ClickHouse server reached over HTTP: reads a table's schema and creates {@link InsertWriter}s
 * that insert encoded chunks into it.
 *
 * <pre>{@code
 * ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
 *     .url("http://127.0.0.1:8123").user("default").build());
 * TableSchema schema = http.schema("db", "events");            // from system.columns
 * RowEncoder<Object[]> encoder = Providers.encoder("native")
 *     .create(schema, RowAccessors.objectArray(), Map.of());
 * InsertWriter writer = http.writer("db", "events", schema, "Native");
 * }</pre>
 *
 * <p>One instance holds one HTTP/1.1 client with a pool of keep-alive connections, shared by every
 * writer it creates; it is thread-safe. {@link #close()} closes the idle connections. The page
 * {@code docs/clickhouse-http.md} describes the requests, the error classification and the
 * limits.
 */
public final class ClickHouseHttp implements AutoCloseable {
  private final HttpTransport transport;
  private volatile Boolean hasPosition;

  private ClickHouseHttp(ClickHouseHttpOptions options) {
    this.transport = new HttpTransport(options);
  }

  /**
   * Returns a client for the server and credentials of {@code options}; sends nothing yet.
   *
   * @throws IllegalArgumentException when the user or password holds a character an HTTP header
   *     cannot carry (a line break, or one past U+00FF); the message names the header only
   */
  public static ClickHouseHttp create(ClickHouseHttpOptions options) {
    return new ClickHouseHttp(Objects.requireNonNull(options, "options"));
  }

  /** Returns the options. */
  public ClickHouseHttpOptions options() {
    return transport.options();
  }

  /**
   * Reads the insertable columns of {@code database.table} from {@code system.columns}, in table
   * order, with their types exactly as the server prints them: the schema to build an encoder
   * with. {@code MATERIALIZED} and {@code ALIAS} columns are left out (an insert cannot name
   * them); columns with a {@code DEFAULT} are in.
   *
   * @param database the database, or {@code null} for the options' database
   * @param table the table
   * @throws ClickHouseHttpException when the table or database does not exist (the message names
   *     it), when a column's type is one the type model cannot parse (it names the column and the
   *     type), or when the server fails or cannot be reached ({@link
   *     ClickHouseHttpException#isTransient()} then says whether trying again may help)
   */
  public TableSchema schema(String database, String table) {
    String db = database != null ? database : options().database();
    Objects.requireNonNull(table, "table");
    String order = hasPosition() ? " ORDER BY position" : "";
    byte[] rows = queryBytes("SELECT name, type, default_kind FROM system.columns WHERE database = "
        + Sql.literal(db) + " AND table = " + Sql.literal(table) + order + " FORMAT RowBinary");
    List<String[]> columns = SchemaReader.strings(rows, 3);
    if (columns.isEmpty()) {
      String exists = query("SELECT count() FROM system.databases WHERE name = " + Sql.literal(db))
          .strip();
      String what = "0".equals(exists) ? "database " + db + " does not exist"
          : "table " + db + "." + table + " does not exist";
      throw new ClickHouseHttpException(what + " (server " + options().url() + ")", 0, -1, false,
          null);
    }
    List<ColumnSpec> specs = new ArrayList<>();
    for (String[] c : columns) {
      if (!c[2].isEmpty() && !c[2].equals("DEFAULT")) {
        continue; // MATERIALIZED, ALIAS (EPHEMERAL on newer servers): not insertable as data
      }
      try {
        ClickHouseType.parse(c[1]);
      } catch (IllegalArgumentException e) {
        throw new ClickHouseHttpException("table " + db + "." + table + ", column " + c[0]
            + ": type " + c[1] + " is not supported by the encoders: " + e.getMessage(), 0, -1,
            false, e);
      }
      specs.add(new ColumnSpec(c[0], c[1]));
    }
    if (specs.isEmpty()) {
      throw new ClickHouseHttpException("table " + db + "." + table
          + " has no insertable column (all are MATERIALIZED or ALIAS)", 0, -1, false, null);
    }
    return new TableSchema(specs);
  }

  /**
   * Returns a writer for {@code database.table} that reads the types of {@code columns} from the
   * server first (for splitting). Equivalent to {@link #writer(String, String, TableSchema,
   * String)} with the schema of those columns.
   *
   * @param database the database, or {@code null} for the options' database
   * @param table the table
   * @param columns the columns every frame holds, in the order the encoder writes them
   * @param format {@code Native} or {@code RowBinary} (any case)
   * @throws IllegalArgumentException for another format or a column the table cannot take
   * @throws ClickHouseHttpException as {@link #schema}
   */
  public ClickHouseWriter writer(String database, String table, List<String> columns,
      String format) {
    Sql.format(format);
    TableSchema all = schema(database, table);
    List<ColumnSpec> chosen = new ArrayList<>();
    for (String name : columns) {
      int i = all.indexOf(name);
      if (i < 0) {
        throw new IllegalArgumentException("table " + (database != null ? database
            : options().database()) + "." + table + " has no insertable column "
            + name + "; it has " + names(all));
      }
      chosen.add(all.column(i));
    }
    return writer(database, table, new TableSchema(chosen), format);
  }

  /**
   * Returns a writer that sends each insert as {@code INSERT INTO database.table (schema's
   * columns) FORMAT format} with the frames as the body, to this client's server, without
   * deduplication tokens. The schema must be the one the encoder was built with (normally from
   * {@link #schema}); its types are used to split RowBinary frames into rows. Sends nothing until
   * the first write.
   *
   * @param database the database, or {@code null} for the options' database
   * @param table the table
   * @param schema the columns every frame holds, in order
   * @param format {@code Native} or {@code RowBinary} (any case)
   * @throws IllegalArgumentException for another format or a type the type model cannot parse
   */
  public ClickHouseWriter writer(String database, String table, TableSchema schema,
      String format) {
    return writer(ClusterTarget.single(options().url().toString()), database, table, schema,
        format, false);
  }

  /**
   * Returns a writer into {@code database.table} on every shard of {@code target}: handoff shard
   * {@code i} writes to the target's shard {@code i} (every handoff shard to the one shard of a
   * one-shard target), to one replica at a time with failover (see {@link ClickHouseWriter}).
   * The replicas use this client's options (credentials, timeouts, compression, settings) with
   * their own URLs, and share its connection pool. Sends nothing until the first write.
   *
   * @param target the shards and their replicas
   * @param database the database on every shard, or {@code null} for the options' database
   * @param table the table on every shard (the local table under a {@code Distributed} one)
   * @param schema the columns every frame holds, in order
   * @param format {@code Native} or {@code RowBinary} (any case)
   * @param deduplicationTokens whether every insert carries {@code insert_deduplication_token};
   *     only for servers that have the setting ({@link #supportsDeduplicationToken()}), others
   *     reject every insert with an unknown setting
   * @throws IllegalArgumentException for another format or a type the type model cannot parse
   */
  public ClickHouseWriter writer(ClusterTarget target, String database, String table,
      TableSchema schema, String format, boolean deduplicationTokens) {
    String db = database != null ? database : options().database();
    List<String> names = new ArrayList<>();
    List<ClickHouseType> types = new ArrayList<>();
    for (ColumnSpec c : schema.columns()) {
      names.add(c.name());
      types.add(ClickHouseType.parse(c.type()));
    }
    return new ClusterWriter(Objects.requireNonNull(target, "target"), options(),
        transport.client(), db, Objects.requireNonNull(table, "table"), names, types, format,
        deduplicationTokens, HandoffClock.system());
  }

  /**
   * Returns whether the server has the {@code insert_deduplication_token} setting (ClickHouse
   * 22.2 and later; 18.16 has not), read from {@code system.settings}.
   *
   * @throws ClickHouseHttpException when the server fails or cannot be reached
   */
  public boolean supportsDeduplicationToken() {
    return !"0".equals(query("SELECT count() FROM system.settings"
        + " WHERE name = 'insert_deduplication_token'").strip());
  }

  /**
   * Reads the definition of the {@code Distributed} table {@code database.table} from {@code
   * system.tables.engine_full}: its cluster, local database and table, and sharding key.
   *
   * @param database the database, or {@code null} for the options' database
   * @throws ClickHouseHttpException when the table does not exist, is not {@code Distributed},
   *     or the server fails or cannot be reached
   */
  public DistributedTable distributedTable(String database, String table) {
    String db = database != null ? database : options().database();
    List<String[]> rows = SchemaReader.strings(queryBytes("SELECT engine, engine_full"
        + " FROM system.tables WHERE database = " + Sql.literal(db) + " AND name = "
        + Sql.literal(Objects.requireNonNull(table, "table")) + " FORMAT RowBinary"), 2);
    if (rows.isEmpty()) {
      throw new ClickHouseHttpException("table " + db + "." + table + " does not exist (server "
          + options().url() + ")", 0, -1, false, null);
    }
    if (!rows.get(0)[0].equals("Distributed")) {
      throw new ClickHouseHttpException("table " + db + "." + table + " is not Distributed but "
          + rows.get(0)[0] + " (server " + options().url() + ")", 0, -1, false, null);
    }
    try {
      return DistributedTable.parse(db, table, rows.get(0)[1]);
    } catch (IllegalArgumentException e) {
      throw new ClickHouseHttpException(e.getMessage(), 0, -1, false, e);
    }
  }

  /**
   * Reads the shards and replicas of {@code cluster} from the server's {@code system.clusters},
   * in shard and replica order, with the shards' weights. {@code system.clusters} names each
   * replica's host and native-protocol (TCP) port, not its HTTP port: {@code httpUrl} maps them
   * to the replica's HTTP URL (for a cluster whose servers all listen on 8123, {@code (host,
   * port) -> "http://" + host + ":8123"}).
   *
   * @throws ClickHouseHttpException when the server does not know the cluster, or fails or
   *     cannot be reached
   */
  public ClusterTarget cluster(String cluster, BiFunction<String, Integer, String> httpUrl) {
    return readCluster(cluster, httpUrl, null);
  }

  /**
   * Reads the cluster of the {@code Distributed} table {@code table} as {@link #cluster} does,
   * with the table's definition attached ({@link ClusterTarget#distributed()}).
   */
  public ClusterTarget clusterOf(DistributedTable table,
      BiFunction<String, Integer, String> httpUrl) {
    return readCluster(table.cluster(), httpUrl, table);
  }

  private ClusterTarget readCluster(String cluster, BiFunction<String, Integer, String> httpUrl,
      DistributedTable table) {
    Objects.requireNonNull(httpUrl, "httpUrl");
    List<String[]> rows = SchemaReader.strings(queryBytes("SELECT toString(shard_num),"
        + " toString(shard_weight), host_name, toString(port) FROM system.clusters"
        + " WHERE cluster = " + Sql.literal(cluster)
        + " ORDER BY shard_num, replica_num FORMAT RowBinary"), 4);
    if (rows.isEmpty()) {
      throw new ClickHouseHttpException("cluster " + cluster + " is not in system.clusters"
          + " (server " + options().url() + ")", 0, -1, false, null);
    }
    List<ClusterTarget.Shard> shards = new ArrayList<>();
    List<URI> replicas = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      String[] r = rows.get(i);
      replicas.add(URI.create(httpUrl.apply(r[2], Integer.parseInt(r[3]))));
      if (i + 1 == rows.size() || !rows.get(i + 1)[0].equals(r[0])) {
        shards.add(new ClusterTarget.Shard(Integer.parseInt(r[0]), Integer.parseInt(r[1]),
            replicas));
        replicas = new ArrayList<>();
      }
    }
    return ClusterTarget.of(cluster, shards, table);
  }

  /**
   * Runs {@code sql} and returns the response as UTF-8 text (for example {@code SELECT version()}
   * gives {@code "18.16.1\n"}).
   *
   * @throws ClickHouseHttpException when the server fails the query or cannot be reached
   */
  public String query(String sql) {
    return new String(queryBytes(sql), UTF_8);
  }

  /** As {@link #query(String)}, returning the raw bytes. */
  public byte[] queryBytes(String sql) {
    Http1Client.Response response;
    try {
      response = transport.query(sql);
    } catch (IOException e) {
      throw new ClickHouseHttpException("cannot reach " + options().url() + ": " + e, 0, -1,
          true, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClickHouseHttpException("interrupted: " + sql, 0, -1, true, e);
    }
    int status = response.statusCode();
    if (status == 200) {
      return response.body();
    }
    String body = new String(response.body(), UTF_8);
    Optional<ServerError> error = ServerError.parse(body);
    int code = error.map(ServerError::code).orElse(-1);
    throw new ClickHouseHttpException("HTTP " + status + " from " + options().url() + ": "
        + error.map(ServerError::toString).orElse(body.strip()), status, code,
        ErrorCodes.isTransient(status, Math.max(code, 0)), null);
  }

  /**
   * Closes the idle connections and the client's deadline thread. Writers and queries still work
   * after it (each on a new connection, closed after its request); idempotent.
   */
  @Override
  public void close() {
    transport.close();
  }

  private boolean hasPosition() {
    Boolean known = hasPosition;
    if (known == null) {
      known = !"0".equals(query("SELECT count() FROM system.columns WHERE database = 'system'"
          + " AND table = 'columns' AND name = 'position'").strip());
      hasPosition = known;
    }
    return known;
  }

  private static List<String> names(TableSchema schema) {
    List<String> out = new ArrayList<>();
    for (ColumnSpec c : schema.columns()) {
      out.add(c.name());
    }
    return out;
  }

  @Override
  public String toString() {
    return "ClickHouseHttp{" + options() + '}';
  }
}
