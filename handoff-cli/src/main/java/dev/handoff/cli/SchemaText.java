package dev.handoff.cli;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a table's columns written as {@code name Type, name Type, ...} (what {@code
 * clickhouse-local --structure} takes), for {@code ingest --out} where no server can be asked.
 * Commas inside a type's parentheses ({@code Decimal(18, 4)}, {@code Map(String, UInt8)}) belong
 * to the type; a name may be quoted with backticks or double quotes. Line breaks count as blanks.
 */
final class SchemaText {
  private SchemaText() {}

  /**
   * Returns the schema {@code text} describes.
   *
   * @throws IllegalArgumentException if a column has no type, parentheses do not match, or the
   *     schema is empty or names a column twice; the message quotes the part at fault
   */
  static TableSchema parse(String text) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (String part : splitTopLevel(text)) {
      String p = part.strip();
      if (p.isEmpty()) {
        continue;
      }
      String name;
      String type;
      char q = p.charAt(0);
      if (q == '`' || q == '"') {
        int close = p.indexOf(q, 1);
        if (close < 0) {
          throw new IllegalArgumentException("column '" + p + "': unterminated quoted name");
        }
        name = p.substring(1, close);
        type = p.substring(close + 1).strip();
      } else {
        int blank = 0;
        while (blank < p.length() && !Character.isWhitespace(p.charAt(blank))) {
          blank++;
        }
        name = p.substring(0, blank);
        type = p.substring(blank).strip();
      }
      if (name.isEmpty() || type.isEmpty()) {
        throw new IllegalArgumentException("column '" + p + "': expected 'name Type'");
      }
      columns.add(new ColumnSpec(name, type));
    }
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("no columns in '" + text + "'");
    }
    return new TableSchema(columns);
  }

  private static List<String> splitTopLevel(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int from = 0;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '`' || c == '"') {
        quote = c;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (--depth < 0) {
          throw new IllegalArgumentException("unbalanced ')' at position " + i + " of '" + text
              + "'");
        }
      } else if (c == ',' && depth == 0) {
        parts.add(text.substring(from, i));
        from = i + 1;
      }
    }
    if (depth != 0 || quote != 0) {
      throw new IllegalArgumentException("unbalanced parentheses or quotes in '" + text + "'");
    }
    parts.add(text.substring(from));
    return parts;
  }

  /**
   * Returns whether some column is a {@code DateTime} or {@code DateTime64} (nested ones
   * included) that names no zone: only then does the zone of text without an offset matter.
   */
  static boolean hasDateTimeWithoutZone(TableSchema schema) {
    for (ColumnSpec c : schema.columns()) {
      if (zoneless(c.type())) {
        return true;
      }
    }
    return false;
  }

  private static boolean zoneless(String type) {
    int at = 0;
    while ((at = type.indexOf("DateTime", at)) >= 0) {
      int end = at + "DateTime".length();
      if (type.startsWith("64", end)) {
        end += 2;
      }
      // DateTime, DateTime64(3): no zone unless the parentheses hold a quoted name.
      int close = type.indexOf(')', end);
      boolean zoned = type.startsWith("(", end) && close > 0
          && type.substring(end, close).indexOf('\'') >= 0;
      if (!zoned) {
        return true;
      }
      at = end;
    }
    return false;
  }

  /** Returns whether some column's type holds a Decimal. */
  static boolean hasDecimal(TableSchema schema) {
    for (ColumnSpec c : schema.columns()) {
      if (c.type().contains("Decimal")) {
        return true;
      }
    }
    return false;
  }
}
