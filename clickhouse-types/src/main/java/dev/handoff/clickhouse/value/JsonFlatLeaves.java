package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;

/** Reads leaf {@code field} of a {@link JsonFlat} (the container); stateless. */
final class JsonFlatLeaves implements RowAccessor<Object> {
  @Override
  public ValueKind kind(Object doc, int field) {
    return ((JsonFlat) doc).kind(field);
  }

  @Override
  public Object getObject(Object doc, int field) {
    return ((JsonFlat) doc).boxed(field);
  }

  @Override
  public boolean getBoolean(Object doc, int field) {
    return ((JsonFlat) doc).bits(field) != 0;
  }

  @Override
  public long getLong(Object doc, int field) {
    return ((JsonFlat) doc).bits(field);
  }

  @Override
  public double getDouble(Object doc, int field) {
    return Double.longBitsToDouble(((JsonFlat) doc).bits(field));
  }

  @Override
  public CharSequence getText(Object doc, int field) {
    return ((JsonFlat) doc).text(field);
  }
}
