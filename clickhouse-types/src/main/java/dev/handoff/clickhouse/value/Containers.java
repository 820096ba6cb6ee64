package dev.handoff.clickhouse.value;

import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;

/**
 * The checks every encoder makes on the values of composite columns (Array, Tuple, Map, Nested)
 * before it writes their elements. A failing check throws the {@code DATA} error of {@link
 * Conversions#error}, naming the column and the value.
 */
public final class Containers {
  private Containers() {}

  /**
   * Fails unless field {@code field} of {@code row} is a container of kind {@code expected}
   * ({@link ValueKind#SEQUENCE} or {@link ValueKind#MAP}).
   *
   * @throws HandoffException of class {@code DATA}: {@code null into a non-Nullable column} for
   *     a null, else {@code expected a list or an array (a map) but the value is <kind>}
   */
  public static <R> void requireKind(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, ValueKind expected) {
    ValueKind kind = acc.kind(row, field);
    if (kind != expected) {
      throw Conversions.error(acc, row, field, type, column, kind == ValueKind.NULL
          ? "null into a non-Nullable column"
          : "expected " + (expected == ValueKind.MAP ? "a map" : "a list or an array")
              + " but the value is " + kind);
    }
  }

  /**
   * Fails unless a tuple of {@code elements} elements, given as a sequence, has {@code size}
   * values.
   *
   * @throws HandoffException of class {@code DATA}: {@code a tuple of N elements needs N values,
   *     not <size>}
   */
  public static <R> void requireTupleSize(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, int elements, int size) {
    if (size != elements) {
      throw Conversions.error(acc, row, field, type, column,
          "a tuple of " + elements + " elements needs " + elements + " values, not " + size);
    }
  }

  /**
   * Fails unless a named tuple of {@code elements} elements, given as an object or map whose
   * nested accessor reports {@code fields} entries (names and values alternate), has one value
   * per element.
   *
   * @throws HandoffException of class {@code DATA}: {@code a tuple of N elements needs N named
   *     values, not <fields / 2>}
   */
  public static <R> void requireNamedTupleSize(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, int elements, int fields) {
    if (fields / 2 != elements) {
      throw Conversions.error(acc, row, field, type, column,
          "a tuple of " + elements + " elements needs " + elements + " named values, not "
              + fields / 2);
    }
  }

  /**
   * Returns the index, in {@code container} (read through {@code nested}, {@code fields} entries
   * with names and values alternating), of the value of the element named {@code name}: the
   * entry after the first text name equal to it.
   *
   * @throws HandoffException of class {@code DATA}: {@code has no value for element '<name>'}
   */
  public static <R> int namedValueIndex(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, RowAccessor<Object> nested, Object container,
      int fields, String name) {
    for (int i = 0; i < fields; i += 2) {
      if (nested.kind(container, i) == ValueKind.TEXT
          && name.contentEquals(nested.getText(container, i))) {
        return i + 1;
      }
    }
    throw Conversions.error(acc, row, field, type, column,
        "has no value for element '" + name + "'");
  }

  /**
   * Fails when the key at {@code at} of a map (read through {@code nested}) is null.
   *
   * @throws HandoffException of class {@code DATA}: {@code a map key is null}
   */
  public static <R> void requireMapKey(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, RowAccessor<Object> nested, Object container, int at) {
    if (nested.isNull(container, at)) {
      throw Conversions.error(acc, row, field, type, column, "a map key is null");
    }
  }
}
