package dev.handoff.flink.table;

import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpException;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.types.logical.RowType;

/**
 * A ClickHouse table's insertable columns and which of them have a {@code DEFAULT} expression,
 * as read from the server's {@code system.columns} when a statement is planned.
 */
final class ServerSchema {
  final TableSchema columns;
  final Set<String> withDefault;

  private ServerSchema(TableSchema columns, Set<String> withDefault) {
    this.columns = columns;
    this.withDefault = withDefault;
  }

  /**
   * Reads {@code database.table}.
   *
   * @throws IllegalStateException if the server cannot be reached, or has no such table
   */
  static ServerSchema read(ClickHouseHttpOptions options, String database, String table) {
    try (ClickHouseHttp http = ClickHouseHttp.create(options)) {
      TableSchema columns = http.schema(database, table);
      String names = http.query("SELECT name FROM system.columns WHERE database = "
          + literal(database) + " AND table = " + literal(table)
          + " AND default_kind = 'DEFAULT' FORMAT TabSeparated");
      Set<String> withDefault = new HashSet<>();
      for (String line : names.split("\n")) {
        if (!line.isEmpty()) {
          withDefault.add(unescape(line));
        }
      }
      return new ServerSchema(columns, withDefault);
    } catch (ClickHouseHttpException e) {
      throw new IllegalStateException("cannot read the columns of ClickHouse table " + database
          + "." + table + " from " + options.url() + ": " + e.getMessage(), e);
    }
  }

  /** As {@link SchemaMatch#columnsToWrite}. */
  List<String> columnsFor(RowType flink, String qualifiedTable) {
    return SchemaMatch.columnsToWrite(flink, columns, withDefault, qualifiedTable);
  }

  /** A ClickHouse string literal. */
  static String literal(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** Undoes TabSeparated's escapes of a value. */
  static String unescape(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        b.append(c);
        continue;
      }
      char n = s.charAt(++i);
      switch (n) {
        case 't' -> b.append('\t');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case '0' -> b.append('\0');
        default -> b.append(n); // \\ and \' and anything else: the character itself
      }
    }
    return b.toString();
  }
}
