package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.TableSchema;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Map;

/**
 * Row adapters for common payload types. Each returned accessor is immutable and shareable; the
 * per-row work is a field read and a {@link dev.handoff.api.row.ValueKind} test, with no
 * reflection and no allocation for primitive values.
 *
 * <p>Nested values (lists, arrays, maps, tuples) of every adapter are read through {@link
 * #values()}.
 */
public final class RowAccessors {
  private RowAccessors() {}

  /** Returns an accessor for {@code Object[]} rows, column {@code i} at index {@code i}. */
  public static RowAccessor<Object[]> objectArray() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns an accessor for {@code List} rows, column {@code i} at index {@code i}. */
  public static RowAccessor<List<?>> list() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Returns an accessor for {@code Map<String, ?>} rows, columns looked up by the schema's names.
   * A missing key reads as null.
   */
  public static RowAccessor<Map<String, ?>> map(TableSchema schema) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Returns an accessor for instances of a Java record, columns matched to record components by
   * name once, here; every schema column must have a component.
   *
   * @param lookup a lookup with access to the record class (pass {@code MethodHandles.lookup()}
   *     from the record's own module when it is not exported)
   * @throws IllegalArgumentException if a column has no component of the same name
   */
  public static <R extends Record> RowAccessor<R> records(Class<R> type, TableSchema schema,
      MethodHandles.Lookup lookup) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Returns an accessor for Java beans, columns matched to getters ({@code getX}/{@code isX}) or
   * public fields by name once, here.
   *
   * @throws IllegalArgumentException if a column has no getter or field of the same name
   */
  public static <B> RowAccessor<B> beans(Class<B> type, TableSchema schema,
      MethodHandles.Lookup lookup) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Returns the accessor for nested Java values: a container ({@code List}, {@code Object[]}, a
   * primitive array, a {@code Map}) read as fields. Maps are read as key, value, key, value.
   */
  public static RowAccessor<Object> values() {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
