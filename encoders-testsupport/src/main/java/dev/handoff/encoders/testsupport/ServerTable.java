package dev.handoff.encoders.testsupport;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A table {@code <db>.t (id UInt32, ...)} on a real server, with its schema as the server reports
 * it ({@link ServerSchema}): the base of each encoder module's server round trip, which adds the
 * rows, the encoding and the checks.
 */
public class ServerTable {
  /** The server holding the table. */
  protected final ClickHouseServer server;
  /** The table's database, which holds nothing else. */
  protected final String db;
  /** The table's name, {@code <db>.t}. */
  protected final String table;
  /** The table's columns as the server reports them, {@code id} first. */
  protected final TableSchema schema;
  /** The parsed types of all columns, {@code id} first. */
  protected final List<ClickHouseType> types;

  /** Reads the schema of the existing table {@code <db>.t} from {@code server}. */
  protected ServerTable(ClickHouseServer server, String db) {
    this.server = server;
    this.db = db;
    this.table = db + ".t";
    this.schema = ServerSchema.of(server, db, "t");
    this.types = schema.columns().stream().map(c -> ClickHouseType.parse(c.type())).toList();
  }

  /** Returns the schema the encoder writes, {@code id} first. */
  public TableSchema schema() {
    return schema;
  }

  /** Returns the table's name, {@code <db>.t}. */
  public String table() {
    return table;
  }

  /** Returns the type strings of the columns after {@code id}, as the server printed them. */
  public List<String> serverTypes() {
    return schema.columns().subList(1, schema.size()).stream().map(ColumnSpec::type).toList();
  }

  /** Returns the names of the columns after {@code id}. */
  public List<String> serverNames() {
    return schema.columns().subList(1, schema.size()).stream().map(ColumnSpec::name).toList();
  }

  /** Returns the parsed types of the columns after {@code id}. */
  public List<ClickHouseType> types() {
    return types.subList(1, types.size());
  }

  /** Drops the table's database. */
  public void drop() {
    server.execute("DROP DATABASE " + db);
  }

  /** Returns the last lines of the server's error log and stderr, for a server that died. */
  protected String serverLogs() {
    StringBuilder sb = new StringBuilder();
    for (String name : List.of("clickhouse-server.err.log", "stderr.log")) {
      Path file = server.directory().resolve("log").resolve(name);
      sb.append("--- ").append(file).append(":\n");
      try {
        List<String> lines = Files.readAllLines(file, UTF_8);
        sb.append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())))
            .append('\n');
      } catch (IOException | RuntimeException e) {
        sb.append("(unreadable: ").append(e).append(")\n");
      }
    }
    return sb.toString();
  }
}
