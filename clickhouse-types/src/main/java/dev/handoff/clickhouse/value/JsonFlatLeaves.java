package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigInteger;

/**
 * Reads the values of a {@link JsonFlatDoc}; stateless. A container is either the document
 * itself (the field is a slot: a leaf of {@link JsonFlat}) or one of its nodes (the field is an
 * array's element, or an object's key or value, keys and values alternating as maps are read).
 * An array or object value is a SEQUENCE or MAP whose container is its node, read by this
 * accessor too.
 */
final class JsonFlatLeaves implements RowAccessor<Object> {
  private static JsonFlatDoc doc(Object c) {
    return c instanceof JsonFlatDoc.Node n ? n.doc : (JsonFlatDoc) c;
  }

  private static int slot(Object c, int field) {
    return c instanceof JsonFlatDoc.Node n ? n.slot(field) : field;
  }

  /** Whether field {@code field} of {@code c} is an object's key. */
  private static boolean isKey(Object c, int field) {
    return c instanceof JsonFlatDoc.Node n && n.object && (field & 1) == 0;
  }

  @Override
  public ValueKind kind(Object c, int field) {
    return isKey(c, field) ? ValueKind.TEXT : doc(c).kind(slot(c, field));
  }

  @Override
  public Object getObject(Object c, int field) {
    JsonFlatDoc d = doc(c);
    return isKey(c, field) ? d.key(slot(c, field)).toString() : d.boxed(slot(c, field));
  }

  @Override
  public boolean getBoolean(Object c, int field) {
    return doc(c).bits(slot(c, field)) != 0;
  }

  @Override
  public long getLong(Object c, int field) {
    return doc(c).bits(slot(c, field));
  }

  @Override
  public double getDouble(Object c, int field) {
    return Double.longBitsToDouble(doc(c).bits(slot(c, field)));
  }

  @Override
  public BigInteger getBigInteger(Object c, int field) {
    return doc(c).big(slot(c, field));
  }

  @Override
  public CharSequence getText(Object c, int field) {
    JsonFlatDoc d = doc(c);
    return isKey(c, field) ? d.key(slot(c, field)) : d.text(slot(c, field));
  }

  @Override
  public RowAccessor<Object> nested(Object c, int field) {
    return this;
  }

  @Override
  public int size(Object c) {
    return c instanceof JsonFlatDoc.Node n ? n.size() : -1;
  }
}
