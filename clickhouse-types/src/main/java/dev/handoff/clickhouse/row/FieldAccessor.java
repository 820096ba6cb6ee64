package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;

/** {@link RowAccessors#fields}: column {@code i} is what the reader returns for field {@code i}. */
final class FieldAccessor<T> implements RowAccessor<T> {
  private final RowAccessors.FieldReader<T> reader;

  FieldAccessor(RowAccessors.FieldReader<T> reader) {
    this.reader = reader;
  }

  @Override
  public ValueKind kind(T row, int field) {
    return JavaValues.kind(reader.get(row, field));
  }

  @Override
  public boolean isNull(T row, int field) {
    return reader.get(row, field) == null;
  }

  @Override
  public Object getObject(T row, int field) {
    return JavaValues.container(reader.get(row, field));
  }

  @Override
  public boolean getBoolean(T row, int field) {
    return JavaValues.booleanValue(reader.get(row, field));
  }

  @Override
  public long getLong(T row, int field) {
    return JavaValues.longValue(reader.get(row, field));
  }

  @Override
  public double getDouble(T row, int field) {
    return JavaValues.doubleValue(reader.get(row, field));
  }

  @Override
  public BigInteger getBigInteger(T row, int field) {
    return JavaValues.bigInteger(reader.get(row, field));
  }

  @Override
  public BigDecimal getBigDecimal(T row, int field) {
    return JavaValues.bigDecimal(reader.get(row, field));
  }

  @Override
  public CharSequence getText(T row, int field) {
    return JavaValues.text(reader.get(row, field));
  }

  @Override
  public byte[] getBytes(T row, int field) {
    return JavaValues.bytes(reader.get(row, field));
  }

  @Override
  public RowAccessor<Object> nested(T row, int field) {
    return ValuesAccessor.INSTANCE;
  }
}
