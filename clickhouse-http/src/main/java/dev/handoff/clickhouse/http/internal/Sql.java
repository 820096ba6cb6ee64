package dev.handoff.clickhouse.http.internal;

import java.util.List;
import java.util.Locale;

/** Quoting of identifiers and string literals for the statements the writer sends. */
public final class Sql {
  private Sql() {}

  /** Returns {@code name} in backquotes, with backquotes and backslashes escaped. */
  public static String identifier(String name) {
    StringBuilder sb = new StringBuilder(name.length() + 2).append('`');
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '`' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append('`').toString();
  }

  /** Returns {@code text} as a single-quoted string literal. */
  public static String literal(String text) {
    StringBuilder sb = new StringBuilder(text.length() + 2).append('\'');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\'' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append('\'').toString();
  }

  /**
   * Returns {@code INSERT INTO `db`.`table` (`c1`, ...) FORMAT F}.
   *
   * @throws IllegalArgumentException if the format is neither Native nor RowBinary (any case)
   */
  public static String insert(String database, String table, List<String> columns,
      String format) {
    StringBuilder sb = new StringBuilder("INSERT INTO ")
        .append(identifier(database)).append('.').append(identifier(table)).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(identifier(columns.get(i)));
    }
    return sb.append(") FORMAT ").append(format(format)).toString();
  }

  /** Returns the server's spelling of a writer format: {@code Native} or {@code RowBinary}. */
  public static String format(String format) {
    switch (format.toLowerCase(Locale.ROOT)) {
      case "native":
        return "Native";
      case "rowbinary":
        return "RowBinary";
      default:
        throw new IllegalArgumentException(
            "unsupported insert format '" + format + "' (expected: Native or RowBinary)");
    }
  }
}
