package dev.handoff.api;

import java.util.Objects;

/**
 * One column of a table: its name and its ClickHouse type, spelled as the server prints it in
 * {@code DESCRIBE TABLE} or {@code system.columns} (for example {@code Nullable(String)}).
 *
 * @param name the column name
 * @param type the type string
 */
public record ColumnSpec(String name, String type) {

  /** Validates the fields. */
  public ColumnSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    if (type.isBlank()) {
      throw new IllegalArgumentException("column " + name + ": type is blank");
    }
  }
}
