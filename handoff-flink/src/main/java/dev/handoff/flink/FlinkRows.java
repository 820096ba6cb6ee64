package dev.handoff.flink;

import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.row.RowAccessors;
import java.util.Set;
import org.apache.flink.types.Row;

/**
 * Reads Flink {@link Row}s: a column comes from the row's field of the same name when the row
 * has one (set by name, or typed with names), else from the field at the column's position.
 */
final class FlinkRows {
  private FlinkRows() {}

  static RowAccessor<Row> accessor(TableSchema schema) {
    String[] byIndex = new String[schema.size()];
    for (int i = 0; i < byIndex.length; i++) {
      byIndex[i] = schema.column(i).name();
    }
    return RowAccessors.fields((row, field) -> {
      // A row made by name answers getField(int) with an error; a row Flink deserialized has
      // positions and the names of its type (f0, f1, ... when typed without names).
      Set<String> names = row.getFieldNames(true);
      return names != null && names.contains(byIndex[field])
          ? row.getField(byIndex[field]) : row.getField(field);
    });
  }
}
