package dev.handoff.clickhouse.hash;

import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToLongFunction;

/**
 * A {@code Distributed} table's sharding expression, evaluated on rows as ClickHouse 18.16
 * evaluates it, so that {@link WeightedShardRouter} picks the shard the server would.
 *
 * <p>The expressions understood are the common ones:
 *
 * <ul>
 *   <li>{@code rand()}: a uniform random UInt32 per row;
 *   <li>a column of an integer type ({@code UInt8..UInt64}, {@code Int8..Int64}), by its value;
 *   <li>{@code cityHash64}, {@code sipHash64}, {@code murmurHash3_64} or {@code xxHash64} of one
 *       or more columns, or tuples of columns {@code (a, b)}, which count as their elements;
 *   <li>{@code intHash64} of one integer, {@code Date} or {@code DateTime} column.
 * </ul>
 *
 * <p>Columns are named as in the table, plain or in back quotes, and resolved against the table's
 * {@link TableSchema}, whose types decide how each value is hashed (see {@link HashFunction}).
 * The key is the expression's value in the unsigned form the server's shard selector reads: a
 * value of a type up to 32 bits wide is widened to 32 bits (sign-extended first if signed), a
 * 64-bit value is its 64 bits.
 *
 * <pre>{@code
 * TableSchema schema = ...;                       // the local tables' columns
 * RowAccessor<Order> rows = RowAccessors.records(Order.class, schema, MethodHandles.lookup());
 * ToLongFunction<Order> key = ShardingKey.parse("cityHash64(customer, id)", schema).keyOf(rows);
 * builder.routingKey(key).router(WeightedShardRouter.of(1, 2, 3)).shards(3, capacity);
 * }</pre>
 *
 * <p>Reading an integer, float or date column allocates nothing; a {@code String} read as text
 * is encoded to UTF-8 for the hash (one array), a {@code byte[]} value is hashed in place.
 * Instances are immutable and thread-safe.
 */
public final class ShardingKey {
  private final String expression;
  private final Mode mode;
  private final HashFunction function;
  private final KeyColumn[] arguments;

  private ShardingKey(String expression, Mode mode, HashFunction function, KeyColumn[] arguments) {
    this.expression = expression;
    this.mode = mode;
    this.function = function;
    this.arguments = arguments;
  }

  private enum Mode { RAND, COLUMN, HASH }

  /**
   * Parses a sharding expression over the columns of {@code schema}.
   *
   * @throws IllegalArgumentException naming the column, type or function and the reason, if the
   *     expression is not one of the forms above, names a column the schema lacks, or hashes a
   *     type the server's function refuses
   */
  public static ShardingKey parse(String expression, TableSchema schema) {
    Objects.requireNonNull(schema, "schema");
    ExpressionParser parser = new ExpressionParser(expression);
    ExpressionParser.Call call = parser.parse();
    if (call.function() == null) {
      KeyColumn column = KeyColumn.resolve(call.columns().get(0), schema, null);
      if (!column.isPlainInteger()) {
        throw new IllegalArgumentException("sharding key '" + expression + "': column "
            + column.name() + " has type " + column.type()
            + "; a sharding key must be of an integer type (UInt8..UInt64, Int8..Int64)");
      }
      return new ShardingKey(expression, Mode.COLUMN, null, new KeyColumn[] {column});
    }
    if (call.function().equals("rand")) {
      if (!call.columns().isEmpty()) {
        throw new IllegalArgumentException(
            "sharding key '" + expression + "': rand() takes no arguments here");
      }
      return new ShardingKey(expression, Mode.RAND, null, new KeyColumn[0]);
    }
    HashFunction function;
    try {
      function = HashFunction.forSqlName(call.function());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sharding key '" + expression + "': function "
          + call.function() + " is not supported; use rand(), an integer column, or one of"
          + " cityHash64, sipHash64, murmurHash3_64, xxHash64, intHash64 of columns", e);
    }
    if (call.columns().isEmpty()) {
      throw new IllegalArgumentException(
          "sharding key '" + expression + "': " + function.sqlName() + " needs columns");
    }
    List<KeyColumn> columns = new ArrayList<>();
    for (String name : call.columns()) {
      columns.add(KeyColumn.resolve(name, schema, function));
    }
    if (function == HashFunction.INT_HASH_64
        && (columns.size() != 1 || !columns.get(0).isIntegerLike())) {
      throw new IllegalArgumentException("sharding key '" + expression
          + "': intHash64 takes exactly one integer, Date or DateTime column");
    }
    return new ShardingKey(expression, Mode.HASH, function, columns.toArray(new KeyColumn[0]));
  }

  /** Returns the expression as given to {@link #parse}. */
  public String expression() {
    return expression;
  }

  /** Returns the hash function of the expression, or {@code null} for rand() and a column. */
  public HashFunction function() {
    return function;
  }

  /** Returns the names of the columns the expression reads, in order (tuples flattened). */
  public List<String> columns() {
    List<String> names = new ArrayList<>();
    for (KeyColumn column : arguments) {
      names.add(column.name());
    }
    return List.copyOf(names);
  }

  /**
   * Returns a function that computes this expression's value for a row read by {@code
   * accessor}, whose field {@code i} is column {@code i} of the schema given to {@link #parse}.
   * Pass it to the sink builder's {@code routingKey}. The function throws {@link
   * IllegalArgumentException} naming the column, the value and the reason for a value that
   * cannot shard (NULL, out of the column type's range, of another kind).
   */
  public <T> ToLongFunction<T> keyOf(RowAccessor<T> accessor) {
    Objects.requireNonNull(accessor, "accessor");
    return row -> keyOf(accessor, row);
  }

  /** Returns this expression's value for {@code row}; see {@link #keyOf(RowAccessor)}. */
  public <T> long keyOf(RowAccessor<T> accessor, T row) {
    switch (mode) {
      case RAND:
        return ThreadLocalRandom.current().nextInt() & 0xffffffffL;
      case COLUMN:
        KeyColumn column = arguments[0];
        long value = column.integer(accessor, row);
        return column.width() <= 4 ? value & 0xffffffffL : value;
      default:
        long hash = arguments[0].fold(function, true, 0, accessor, row);
        for (int i = 1; i < arguments.length; i++) {
          hash = arguments[i].fold(function, false, hash, accessor, row);
        }
        return hash;
    }
  }

  /** Returns the expression. */
  @Override
  public String toString() {
    return expression;
  }

  /** Resolves a column's type for hashing: Nullable unwrapped, refusals checked. */
  static ClickHouseType hashable(String column, ClickHouseType type, HashFunction function) {
    ClickHouseType inner = type.kind() == TypeKind.NULLABLE ? type.element() : type;
    switch (inner.kind()) {
      case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, ENUM8, ENUM16, DATE,
          DATETIME, FLOAT32, FLOAT64, STRING, FIXED_STRING:
        return inner;
      case ARRAY:
        hashable(column, inner.element(), function);
        return inner;
      default:
        throw new IllegalArgumentException("column " + column + " has type " + type + ", which "
            + (function == null ? "cannot be a sharding key" : "ClickHouse 18.16's "
                + function.sqlName() + " does not take")
            + "; supported: integers, Enum, Date, DateTime, Float32/64, String, FixedString,"
            + " Nullable and Array of those");
    }
  }
}
