package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * {@link RowAccessors#records} and {@link RowAccessors#beans}: column {@code i} is read by
 * getter {@code i}, resolved once from the schema.
 */
final class PropertyAccessor<T> implements RowAccessor<T> {
  private final Getter[] getters;

  PropertyAccessor(Getter[] getters) {
    this.getters = getters.clone();
  }

  @Override
  public ValueKind kind(T row, int field) {
    return getters[field].kind(row);
  }

  @Override
  public boolean isNull(T row, int field) {
    return getters[field].isNull(row);
  }

  @Override
  public Object getObject(T row, int field) {
    return getters[field].get(row);
  }

  @Override
  public boolean getBoolean(T row, int field) {
    return getters[field].getBoolean(row);
  }

  @Override
  public long getLong(T row, int field) {
    return getters[field].getLong(row);
  }

  @Override
  public double getDouble(T row, int field) {
    return getters[field].getDouble(row);
  }

  @Override
  public BigInteger getBigInteger(T row, int field) {
    return getters[field].getBigInteger(row);
  }

  @Override
  public BigDecimal getBigDecimal(T row, int field) {
    return getters[field].getBigDecimal(row);
  }

  @Override
  public CharSequence getText(T row, int field) {
    return getters[field].getText(row);
  }

  @Override
  public byte[] getBytes(T row, int field) {
    return getters[field].getBytes(row);
  }

  @Override
  public RowAccessor<Object> nested(T row, int field) {
    return ValuesAccessor.INSTANCE;
  }

  /** Returns the number of columns. */
  @Override
  public int size(T row) {
    return getters.length;
  }
}
