package dev.handoff.flink.table;

import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.flink.AccessorFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Makes the accessor of a Flink table's rows in each subtask, from the columns read from the
 * server when the subtask's sink starts, so the types are checked again against the table as
 * it is then (it may have changed since the statement was planned).
 */
final class RowDataAccessorFactory implements AccessorFactory<RowData> {
  private static final long serialVersionUID = 1L;

  private final RowType rowType;
  private final String table;

  RowDataAccessorFactory(RowType rowType, String table) {
    this.rowType = rowType;
    this.table = table;
  }

  @Override
  public RowAccessor<RowData> create(TableSchema schema) {
    return SchemaMatch.accessor(rowType, schema, table);
  }
}
