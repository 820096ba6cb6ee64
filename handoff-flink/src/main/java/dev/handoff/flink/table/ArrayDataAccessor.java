package dev.handoff.flink.table;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import org.apache.flink.table.data.ArrayData;

/**
 * Reads the elements of an {@link ArrayData} (an ARRAY value) as fields {@code 0..size-1}, each
 * as {@code element} says. Immutable and shared.
 */
final class ArrayDataAccessor implements RowAccessor<Object> {
  private final ValueRead element;

  ArrayDataAccessor(ValueRead element) {
    this.element = element;
  }

  @Override
  public ValueKind kind(Object array, int field) {
    return element.kind(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public Object getObject(Object array, int field) {
    return element.getObject(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public boolean isNull(Object array, int field) {
    return ((ArrayData) array).isNullAt(field);
  }

  @Override
  public boolean getBoolean(Object array, int field) {
    return element.getBoolean(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public long getLong(Object array, int field) {
    return element.getLong(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public double getDouble(Object array, int field) {
    return element.getDouble(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public BigDecimal getBigDecimal(Object array, int field) {
    return element.getBigDecimal(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public CharSequence getText(Object array, int field) {
    return element.getText(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public byte[] getBytes(Object array, int field) {
    return element.getBytes(Slots.ARRAY, (ArrayData) array, field);
  }

  @Override
  public RowAccessor<Object> nested(Object array, int field) {
    return element.nested();
  }

  @Override
  public int size(Object array) {
    return ((ArrayData) array).size();
  }
}
