package dev.handoff.flink;

import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.row.RowAccessors;
import org.apache.flink.types.Row;

/** Reads Flink {@link Row}s: by column name when the row has names, else by position. */
final class FlinkRows {
  private FlinkRows() {}

  static RowAccessor<Row> accessor(TableSchema schema) {
    String[] byIndex = new String[schema.size()];
    for (int i = 0; i < byIndex.length; i++) {
      byIndex[i] = schema.column(i).name();
    }
    return RowAccessors.fields((row, field) -> {
      // A named row answers getField(int) with an error, a positional one getField(String).
      return row.getFieldNames(false) != null ? row.getField(byIndex[field]) : row.getField(field);
    });
  }
}
