package dev.handoff.flink;

import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import java.io.Serializable;

/**
 * Creates the {@link RowAccessor} that reads a row type for one table, once per table and
 * subtask, after the table's columns were read from the server. Serializable, since it travels
 * with the job graph.
 *
 * @param <T> the row type
 */
@FunctionalInterface
public interface AccessorFactory<T> extends Serializable {

  /**
   * Returns the accessor for rows written to a table of {@code schema}.
   *
   * @throws IllegalArgumentException if the row type cannot give a value for some column; the
   *     message names the column
   */
  RowAccessor<T> create(TableSchema schema);
}
