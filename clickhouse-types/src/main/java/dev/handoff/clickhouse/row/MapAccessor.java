package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * {@link RowAccessors#map}: column {@code i} is {@code row.get(name_i)}, the names taken from the
 * schema once; a missing key reads as null.
 */
final class MapAccessor implements RowAccessor<Map<String, ?>> {
  private final String[] names;

  MapAccessor(TableSchema schema) {
    names = new String[schema.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = schema.column(i).name();
    }
  }

  @Override
  public ValueKind kind(Map<String, ?> row, int field) {
    return JavaValues.kind(row.get(names[field]));
  }

  @Override
  public boolean isNull(Map<String, ?> row, int field) {
    return row.get(names[field]) == null;
  }

  @Override
  public Object getObject(Map<String, ?> row, int field) {
    return JavaValues.container(row.get(names[field]));
  }

  @Override
  public boolean getBoolean(Map<String, ?> row, int field) {
    return JavaValues.booleanValue(row.get(names[field]));
  }

  @Override
  public long getLong(Map<String, ?> row, int field) {
    return JavaValues.longValue(row.get(names[field]));
  }

  @Override
  public double getDouble(Map<String, ?> row, int field) {
    return JavaValues.doubleValue(row.get(names[field]));
  }

  @Override
  public BigInteger getBigInteger(Map<String, ?> row, int field) {
    return JavaValues.bigInteger(row.get(names[field]));
  }

  @Override
  public BigDecimal getBigDecimal(Map<String, ?> row, int field) {
    return JavaValues.bigDecimal(row.get(names[field]));
  }

  @Override
  public CharSequence getText(Map<String, ?> row, int field) {
    return JavaValues.text(row.get(names[field]));
  }

  @Override
  public byte[] getBytes(Map<String, ?> row, int field) {
    return JavaValues.bytes(row.get(names[field]));
  }

  @Override
  public RowAccessor<Object> nested(Map<String, ?> row, int field) {
    return ValuesAccessor.INSTANCE;
  }

  /** Returns the number of columns. */
  @Override
  public int size(Map<String, ?> row) {
    return names.length;
  }
}
