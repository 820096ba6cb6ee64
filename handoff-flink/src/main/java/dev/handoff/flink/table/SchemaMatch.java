package dev.handoff.flink.table;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.table.types.logical.RowType;

/**
 * Matches a Flink table's physical columns to a ClickHouse table's columns by name (exactly, as
 * both systems are case-sensitive) and checks each pair with {@link TypeMapping}. Every problem
 * is collected, so one error lists them all.
 */
final class SchemaMatch {
  private SchemaMatch() {}

  /**
   * Checks a Flink table against every insertable column of a ClickHouse table, when the
   * statement is planned, and returns the columns to insert, in ClickHouse's order.
   *
   * <p>Each Flink column needs a ClickHouse column its type maps to. A ClickHouse column without
   * a Flink column is left out of the insert, so the server fills it, if it is {@code Nullable}
   * (NULL) or has a {@code DEFAULT} expression; any other is an error, because the server would
   * silently write zeros or empty strings.
   *
   * @param withDefault the names of the columns that have a {@code DEFAULT} expression
   * @throws IllegalArgumentException naming each column that does not match and why
   */
  static List<String> columnsToWrite(RowType flink, TableSchema server, Set<String> withDefault,
      String table) {
    List<String> errors = new ArrayList<>();
    List<String> names = flink.getFieldNames();
    for (int p = 0; p < names.size(); p++) {
      String name = names.get(p);
      int i = server.indexOf(name);
      if (i < 0) {
        errors.add("column \"" + name + "\": the ClickHouse table has no insertable column of that"
            + " name (Flink type " + flink.getTypeAt(p).asSummaryString() + ")"
            + similar(name, server));
        continue;
      }
      try {
        TypeMapping.read(name, flink.getTypeAt(p), server.column(i).type());
      } catch (IllegalArgumentException e) {
        errors.add(e.getMessage());
      }
    }
    List<String> columns = new ArrayList<>();
    for (ColumnSpec c : server.columns()) {
      if (names.contains(c.name())) {
        columns.add(c.name());
      } else if (!nullable(c) && !withDefault.contains(c.name())) {
        errors.add("column \"" + c.name() + "\": ClickHouse " + c.type() + " is not Nullable and"
            + " has no DEFAULT, and the Flink table has no column of that name");
      }
    }
    fail(errors, table);
    return columns;
  }

  /**
   * Returns the accessor of a Flink table's rows for {@code schema}, the ClickHouse columns the
   * sink writes; each must have a Flink column of the same name whose type maps to it.
   *
   * @throws IllegalArgumentException naming each column that does not match and why
   */
  static RowDataAccessor accessor(RowType flink, TableSchema schema, String table) {
    List<String> errors = new ArrayList<>();
    List<String> names = flink.getFieldNames();
    int[] positions = new int[schema.size()];
    ValueRead[] reads = new ValueRead[schema.size()];
    for (int i = 0; i < schema.size(); i++) {
      ColumnSpec c = schema.column(i);
      int p = names.indexOf(c.name());
      if (p < 0) {
        errors.add("column \"" + c.name() + "\": the Flink table has no column of that name"
            + " (ClickHouse " + c.type() + ")");
        continue;
      }
      positions[i] = p;
      try {
        reads[i] = TypeMapping.read(c.name(), flink.getTypeAt(p), c.type());
      } catch (IllegalArgumentException e) {
        errors.add(e.getMessage());
      }
    }
    fail(errors, table);
    return new RowDataAccessor(positions, reads);
  }

  private static boolean nullable(ColumnSpec c) {
    ClickHouseType t = ClickHouseType.parse(c.type());
    // LowCardinality(Nullable(T)) takes NULL as well.
    while (t.kind() == TypeKind.LOW_CARDINALITY) {
      t = t.element();
    }
    return t.isNullable();
  }

  /** A hint for a name that differs only in case. */
  private static String similar(String name, TableSchema server) {
    for (ColumnSpec c : server.columns()) {
      if (c.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return "; did you mean \"" + c.name() + "\"?";
      }
    }
    return "";
  }

  private static void fail(List<String> errors, String table) {
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("the Flink table cannot be written to ClickHouse table "
          + table + ": " + String.join("; ", errors));
    }
  }
}
