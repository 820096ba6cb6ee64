package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/** {@link RowAccessors#list()}: column {@code i} is {@code row.get(i)}. */
final class ListAccessor implements RowAccessor<List<?>> {
  static final ListAccessor INSTANCE = new ListAccessor();

  private ListAccessor() {}

  @Override
  public ValueKind kind(List<?> row, int field) {
    return JavaValues.kind(row.get(field));
  }

  @Override
  public boolean isNull(List<?> row, int field) {
    return row.get(field) == null;
  }

  @Override
  public Object getObject(List<?> row, int field) {
    return JavaValues.container(row.get(field));
  }

  @Override
  public boolean getBoolean(List<?> row, int field) {
    return JavaValues.booleanValue(row.get(field));
  }

  @Override
  public long getLong(List<?> row, int field) {
    return JavaValues.longValue(row.get(field));
  }

  @Override
  public double getDouble(List<?> row, int field) {
    return JavaValues.doubleValue(row.get(field));
  }

  @Override
  public BigInteger getBigInteger(List<?> row, int field) {
    return JavaValues.bigInteger(row.get(field));
  }

  @Override
  public BigDecimal getBigDecimal(List<?> row, int field) {
    return JavaValues.bigDecimal(row.get(field));
  }

  @Override
  public CharSequence getText(List<?> row, int field) {
    return JavaValues.text(row.get(field));
  }

  @Override
  public byte[] getBytes(List<?> row, int field) {
    return JavaValues.bytes(row.get(field));
  }

  @Override
  public RowAccessor<Object> nested(List<?> row, int field) {
    return ValuesAccessor.INSTANCE;
  }

  /** Returns the size of the row. */
  @Override
  public int size(List<?> row) {
    return row.size();
  }
}
