package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;

/** {@link RowAccessors#objectArray()}: column {@code i} is {@code row[i]}. */
final class ObjectArrayAccessor implements RowAccessor<Object[]> {
  static final ObjectArrayAccessor INSTANCE = new ObjectArrayAccessor();

  private ObjectArrayAccessor() {}

  @Override
  public ValueKind kind(Object[] row, int field) {
    return JavaValues.kind(row[field]);
  }

  @Override
  public boolean isNull(Object[] row, int field) {
    return row[field] == null;
  }

  @Override
  public Object getObject(Object[] row, int field) {
    return JavaValues.container(row[field]);
  }

  @Override
  public boolean getBoolean(Object[] row, int field) {
    return JavaValues.booleanValue(row[field]);
  }

  @Override
  public long getLong(Object[] row, int field) {
    return JavaValues.longValue(row[field]);
  }

  @Override
  public double getDouble(Object[] row, int field) {
    return JavaValues.doubleValue(row[field]);
  }

  @Override
  public BigInteger getBigInteger(Object[] row, int field) {
    return JavaValues.bigInteger(row[field]);
  }

  @Override
  public BigDecimal getBigDecimal(Object[] row, int field) {
    return JavaValues.bigDecimal(row[field]);
  }

  @Override
  public CharSequence getText(Object[] row, int field) {
    return JavaValues.text(row[field]);
  }

  @Override
  public byte[] getBytes(Object[] row, int field) {
    return JavaValues.bytes(row[field]);
  }

  @Override
  public RowAccessor<Object> nested(Object[] row, int field) {
    return ValuesAccessor.INSTANCE;
  }

  /** Returns the length of the row. */
  @Override
  public int size(Object[] row) {
    return row.length;
  }
}
