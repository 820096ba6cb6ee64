package dev.handoff.flink;

import java.io.Serializable;

/**
 * Picks the table a row goes to, for a sink that writes many tables. Each table gets its own
 * schema, encoder, shards and budget in every subtask, created when its first row arrives.
 * Serializable, since it travels with the job graph.
 *
 * @param <T> the row type
 */
@FunctionalInterface
public interface TableSelector<T> extends Serializable {

  /**
   * Returns the target of {@code row}: {@code "table"} (in the sink's database) or {@code
   * "database.table"}. Called once per row on the task thread: it should not allocate.
   */
  String table(T row);
}
