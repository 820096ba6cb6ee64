package dev.handoff.encoders.testsupport;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * {@code RowAccessors.objectArray()} under another identity: an encoder that recognizes {@code
 * objectArray()} for its fast path does not recognize this one, so the same rows take its
 * generic path.
 */
public final class DelegatingAccessor implements RowAccessor<Object[]> {
  private final RowAccessor<Object[]> d = RowAccessors.objectArray();

  @Override
  public ValueKind kind(Object[] row, int field) {
    return d.kind(row, field);
  }

  @Override
  public Object getObject(Object[] row, int field) {
    return d.getObject(row, field);
  }

  @Override
  public boolean isNull(Object[] row, int field) {
    return d.isNull(row, field);
  }

  @Override
  public boolean getBoolean(Object[] row, int field) {
    return d.getBoolean(row, field);
  }

  @Override
  public long getLong(Object[] row, int field) {
    return d.getLong(row, field);
  }

  @Override
  public double getDouble(Object[] row, int field) {
    return d.getDouble(row, field);
  }

  @Override
  public BigInteger getBigInteger(Object[] row, int field) {
    return d.getBigInteger(row, field);
  }

  @Override
  public BigDecimal getBigDecimal(Object[] row, int field) {
    return d.getBigDecimal(row, field);
  }

  @Override
  public CharSequence getText(Object[] row, int field) {
    return d.getText(row, field);
  }

  @Override
  public byte[] getBytes(Object[] row, int field) {
    return d.getBytes(row, field);
  }

  @Override
  public void writeBytesWithLength(Object[] row, int field, dev.handoff.api.ChunkBuffer out) {
    d.writeBytesWithLength(row, field, out);
  }

  @Override
  public RowAccessor<Object> nested(Object[] row, int field) {
    return d.nested(row, field);
  }

  @Override
  public int size(Object[] row) {
    return d.size(row);
  }
}
