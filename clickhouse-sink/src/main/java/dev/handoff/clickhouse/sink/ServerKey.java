package dev.handoff.clickhouse.sink;

import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.hash.ShardingKey;
import java.util.function.ToLongFunction;

/**
 * The row's value of a server sharding key; a value that has no shard (NULL, out of range)
 * becomes a data error, so the sink treats the row as any other bad row.
 */
final class ServerKey<T> implements ToLongFunction<T> {
  private final ShardingKey key;
  private final RowAccessor<T> accessor;
  private final String table;

  ServerKey(ShardingKey key, RowAccessor<T> accessor, String table) {
    this.key = key;
    this.accessor = accessor;
    this.table = table;
  }

  /**
   * Returns the key of {@code expression}, a sharding key over {@code schema}'s columns.
   *
   * @throws IllegalArgumentException if the expression is not one the sink can evaluate as the
   *     server does; the message says how to place the rows instead
   */
  static <T> ServerKey<T> of(String expression, TableSchema schema, RowAccessor<T> accessor,
      String table) {
    try {
      return new ServerKey<>(ShardingKey.parse(expression, schema), accessor, table);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sink " + table + ": cannot place rows as the"
          + " server would: " + e.getMessage() + "; set router(...) and routingKey(...) to place"
          + " them yourself", e);
    }
  }

  @Override
  public long applyAsLong(T row) {
    try {
      return key.keyOf(accessor, row);
    } catch (IllegalArgumentException e) {
      throw HandoffException.data("sink " + table + ": the row has no shard under the sharding"
          + " key " + key + ": " + e.getMessage());
    }
  }
}
