package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.util.List;

/**
 * The values of one column (or of one nesting level of a column) in the current block, kept in
 * their Native layout. A tree of columns mirrors a column's type: Nullable, Array, Tuple, Map and
 * LowCardinality own child columns that hold the inner values (for an array, all elements of all
 * rows flattened).
 *
 * <p><b>Rollback.</b> Every column can go back to any earlier value count with {@link
 * #truncate}. Truncating is defined by counts alone (a child's count follows from the parent's
 * offsets), so it also removes a value that was only partly appended when a conversion failed
 * half-way (the third element of an array, the key of a map entry whose value failed). That is
 * what makes a row atomic: the encoder truncates every column it touched back to the row count
 * before the row.
 *
 * <p><b>Sizes.</b> {@link #prefixBytes} and {@link #dataBytes} are computed from counters each
 * node keeps up to date, so asking for the block size costs one visit per node of the type tree
 * and never depends on the number of rows.
 *
 * <p><b>Buffers</b> grow while the first blocks fill and are then reused: {@link #truncate} to 0
 * keeps every array, so a steady stream of similar blocks allocates nothing.
 */
abstract class Column {
  final ClickHouseType type;
  /** The column name as errors show it ({@code tags[]}, {@code attrs.key}). */
  final String column;
  /**
   * The number of complete values at this level. A top-level leaf filled by the {@link
   * NativeProgram} does not keep it: nothing reads it there (the encoder's row count is its
   * count, and {@link #truncate} sets it), so the program saves a load and a store per value.
   */
  int count;

  Column(ClickHouseType type, String column) {
    this.type = type;
    this.column = column;
  }

  /** Appends field {@code field} of {@code row}; on a DATA error the column may be dirty. */
  abstract <R> void append(RowAccessor<R> acc, R row, int field);

  /** Appends the type's default: the placeholder of a NULL slot. */
  abstract void appendDefault();

  /**
   * Keeps the first {@code n} values ({@code n <= count}) and drops everything after them,
   * including a partly appended value.
   */
  abstract void truncate(int n);

  /** Returns the size of the state prefix this column writes before any data of the block. */
  long prefixBytes() {
    return 0;
  }

  /** Writes the state prefix (LowCardinality version words), children in element order. */
  void writePrefix(ChunkBuffer out) {}

  /** Returns the size of {@link #writeData}'s output for the current values. */
  abstract long dataBytes();

  /** Writes the Native data of the current values. */
  abstract void writeData(ChunkBuffer out);

  /**
   * Returns the bytes this column's buffers hold, used or not: what stays allocated between
   * blocks. For tests and diagnostics; walks the type tree.
   */
  abstract long retainedBytes();

  /** Compiles the column tree of {@code type}; {@code column} names the values in errors. */
  static Column of(ClickHouseType type, String column) {
    switch (type.kind()) {
      case INT8: case UINT8: case INT16: case UINT16: case INT32: case UINT32: case INT64:
      case UINT64:
        return new Leaves.IntColumn(type, column);
      case INT128: case UINT128: case INT256: case UINT256:
        return new Leaves.BigIntColumn(type, column);
      case FLOAT32:
        return new Leaves.Float32Column(type, column);
      case FLOAT64:
        return new Leaves.Float64Column(type, column);
      case BOOL:
        return new Leaves.BoolColumn(type, column);
      case DECIMAL:
        return type.decimalWidth() <= 8 ? new Leaves.DecimalColumn(type, column)
            : new Leaves.BigDecimalColumn(type, column);
      case STRING:
        return new Leaves.StringColumn(type, column);
      case FIXED_STRING:
        return new Leaves.FixedStringColumn(type, column);
      case DATE:
      case DATE32:
        return new Leaves.DateColumn(type, column);
      case DATETIME:
        return new Leaves.DateTimeColumn(type, column);
      case DATETIME64:
        return new Leaves.DateTime64Column(type, column);
      case UUID:
        return new Leaves.UuidColumn(type, column);
      case IPV4:
        return new Leaves.IPv4Column(type, column);
      case IPV6:
        return new Leaves.IPv6Column(type, column);
      case ENUM8:
      case ENUM16:
        return new Leaves.EnumColumn(type, column);
      case NULLABLE:
        return new Composites.NullableColumn(type, column, of(type.element(), column));
      case LOW_CARDINALITY:
        return LowCardinalityColumn.of(type, column);
      case ARRAY:
        return new Composites.ArrayColumn(type, column, of(type.element(), column + "[]"));
      case TUPLE:
        return new Composites.TupleColumn(type, column,
            children(type.elements(), type.names(), column));
      case NESTED:
        // A single Nested column is Array(Tuple(...)) on the wire.
        return new Composites.ArrayColumn(type, column, new Composites.TupleColumn(type,
            column + "[]", children(type.elements(), type.names(), column + "[]")));
      case MAP:
        return new Composites.MapColumn(type, column, of(type.elements().get(0), column + ".key"),
            of(type.elements().get(1), column + ".value"));
      // Types of ClickHouse 20-26 (issue 15): see ModernColumns.
      case BFLOAT16:
        return new ModernColumns.BFloat16Column(type, column);
      case TIME:
      case TIME64:
        return new ModernColumns.TimeColumn(type, column);
      case SIMPLE_AGGREGATE_FUNCTION:
        return of(type.element(), column); // a value of T, encoded as T
      case QBIT:
        return new ModernColumns.QBitColumn(type, column);
      case POINT:
        return new Composites.TupleColumn(type, column, children(type.elements(), null, column));
      case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON: case MULTI_POLYGON:
        return new Composites.ArrayColumn(type, column, of(type.element(), column + "[]"));
      case VARIANT:
        return new VariantColumns.VariantColumn(type, column);
      case DYNAMIC:
        return new VariantColumns.DynamicColumn(type, column, null);
      case JSON:
        return new JsonColumn(type, column);
      default:
        throw new IllegalArgumentException(
            "column " + column + ": type " + type + " cannot be written in Native");
    }
  }

  private static Column[] children(List<ClickHouseType> types, List<String> names,
      String column) {
    Column[] c = new Column[types.size()];
    for (int i = 0; i < c.length; i++) {
      String element = names == null ? String.valueOf(i + 1) : names.get(i);
      c[i] = of(types.get(i), column + "." + element);
    }
    return c;
  }
}
