package dev.handoff.flink.table;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.flink.table.ValueRead.MapEntries;
import java.math.BigDecimal;
import org.apache.flink.table.data.ArrayData;

/**
 * Reads a MAP value, given as its {@link MapEntries}, as fields {@code 2i} (key {@code i}, read
 * as {@code key} says) and {@code 2i+1} (value {@code i}, read as {@code value} says), the
 * protocol of {@link ValueKind#MAP}. Immutable and shared.
 */
final class MapDataAccessor implements RowAccessor<Object> {
  private final ValueRead key;
  private final ValueRead value;

  MapDataAccessor(ValueRead key, ValueRead value) {
    this.key = key;
    this.value = value;
  }

  private ValueRead read(int field) {
    return (field & 1) == 0 ? key : value;
  }

  private static ArrayData array(Object map, int field) {
    MapEntries m = (MapEntries) map;
    return (field & 1) == 0 ? m.keys() : m.values();
  }

  @Override
  public ValueKind kind(Object map, int field) {
    return read(field).kind(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public Object getObject(Object map, int field) {
    return read(field).getObject(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public boolean isNull(Object map, int field) {
    return array(map, field).isNullAt(field >> 1);
  }

  @Override
  public boolean getBoolean(Object map, int field) {
    return read(field).getBoolean(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public long getLong(Object map, int field) {
    return read(field).getLong(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public double getDouble(Object map, int field) {
    return read(field).getDouble(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public BigDecimal getBigDecimal(Object map, int field) {
    return read(field).getBigDecimal(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public CharSequence getText(Object map, int field) {
    return read(field).getText(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public byte[] getBytes(Object map, int field) {
    return read(field).getBytes(Slots.ARRAY, array(map, field), field >> 1);
  }

  @Override
  public RowAccessor<Object> nested(Object map, int field) {
    return read(field).nested();
  }

  @Override
  public int size(Object map) {
    return 2 * ((MapEntries) map).keys().size();
  }
}
