package dev.handoff.api;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The columns of a target table, in table order. Encoders write exactly these columns, in this
 * order, with exactly these types.
 *
 * @param columns the columns; not empty, names unique
 */
public record TableSchema(List<ColumnSpec> columns) {

  /** Validates and copies the columns. */
  public TableSchema {
    columns = List.copyOf(Objects.requireNonNull(columns, "columns"));
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a table schema needs at least one column");
    }
    Set<String> seen = new HashSet<>();
    for (ColumnSpec c : columns) {
      if (!seen.add(c.name())) {
        throw new IllegalArgumentException("duplicate column name: " + c.name());
      }
    }
  }

  /** Returns a schema of the given columns. */
  public static TableSchema of(ColumnSpec... columns) {
    return new TableSchema(List.of(columns));
  }

  /** Returns the number of columns. */
  public int size() {
    return columns.size();
  }

  /** Returns column {@code index}. */
  public ColumnSpec column(int index) {
    return columns.get(index);
  }

  /** Returns the index of the column called {@code name}, or {@code -1}. */
  public int indexOf(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
