package dev.handoff.encoders.clickhouse.internal;

import static dev.handoff.clickhouse.value.Containers.requireKind;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.Containers;
import dev.handoff.clickhouse.value.Conversions;
import dev.handoff.clickhouse.value.RecordValues;
import java.util.Arrays;
import java.util.List;

/**
 * Nullable, Array, Tuple and Map columns. They read nested values through the accessor's
 * SEQUENCE/MAP and {@code nested()} protocol, exactly like the rowbinary encoder, and keep only
 * counts, offsets and null maps themselves; the values live in their child columns.
 */
final class Composites {
  private Composites() {}

  /** Null map (one byte per value, 1 = NULL), then the inner column with defaults under NULLs. */
  static final class NullableColumn extends Column {
    final ChunkBuffer nullMap = new ChunkBuffer(64);
    final Column inner;

    NullableColumn(ClickHouseType type, String column, Column inner) {
      super(type, column);
      this.inner = inner;
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      if (acc.isNull(row, field)) {
        inner.appendDefault();
        nullMap.writeByte(1);
      } else {
        inner.append(acc, row, field);
        nullMap.writeByte(0);
      }
      count++;
    }

    @Override
    void appendDefault() {
      inner.appendDefault(); // the default of a Nullable is NULL
      nullMap.writeByte(1);
      count++;
    }

    @Override
    void truncate(int n) {
      count = n;
      nullMap.truncate(n);
      inner.truncate(n);
    }

    @Override
    long prefixBytes() {
      return inner.prefixBytes();
    }

    @Override
    void writePrefix(ChunkBuffer out) {
      inner.writePrefix(out);
    }

    @Override
    long dataBytes() {
      return count + inner.dataBytes();
    }

    @Override
    void writeData(ChunkBuffer out) {
      out.writeBuffer(nullMap);
      inner.writeData(out);
    }

    @Override
    long retainedBytes() {
      return nullMap.capacity() + inner.retainedBytes();
    }
  }

  /**
   * Cumulative UInt64 end offsets, one per value; the children hold the flattened elements (one
   * child for Array, keys and values for Map).
   */
  abstract static class OffsetsColumn extends Column {
    long[] offsets = new long[64];

    OffsetsColumn(ClickHouseType type, String column) {
      super(type, column);
    }

    /** Returns the number of child values before value {@code n}. */
    final long end(int n) {
      return n == 0 ? 0 : offsets[n - 1];
    }

    /** Records a value of {@code size} elements, appended to the children already. */
    final void push(int size) {
      if (count == offsets.length) {
        offsets = Arrays.copyOf(offsets, count * 2);
      }
      offsets[count] = end(count) + size;
      count++;
    }

    @Override
    final void appendDefault() {
      push(0); // the empty array or map
    }

    @Override
    final void truncate(int n) {
      count = n;
      truncateChildren((int) end(n));
    }

    abstract void truncateChildren(int n);

    final void writeOffsets(ChunkBuffer out) {
      out.ensureWritable(count * 8);
      for (int i = 0; i < count; i++) {
        out.writeLongLE(offsets[i]);
      }
    }
  }

  static final class ArrayColumn extends OffsetsColumn {
    final Column element;

    ArrayColumn(ClickHouseType type, String column, Column element) {
      super(type, column);
      this.element = element;
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      requireKind(acc, row, field, type, column, ValueKind.SEQUENCE);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int size = nested.size(container);
      for (int i = 0; i < size; i++) {
        element.append(nested, container, i);
      }
      push(size);
    }

    @Override
    void truncateChildren(int n) {
      element.truncate(n);
    }

    @Override
    long retainedBytes() {
      return 8L * offsets.length + element.retainedBytes();
    }

    @Override
    long prefixBytes() {
      return element.prefixBytes();
    }

    @Override
    void writePrefix(ChunkBuffer out) {
      element.writePrefix(out);
    }

    @Override
    long dataBytes() {
      return 8L * count + element.dataBytes();
    }

    @Override
    void writeData(ChunkBuffer out) {
      writeOffsets(out);
      element.writeData(out);
    }
  }

  static final class MapColumn extends OffsetsColumn {
    private final Column key;
    private final Column value;

    MapColumn(ClickHouseType type, String column, Column key, Column value) {
      super(type, column);
      this.key = key;
      this.value = value;
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      requireKind(acc, row, field, type, column, ValueKind.MAP);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int fields = nested.size(container); // keys and values alternate
      for (int i = 0; i < fields; i += 2) {
        Containers.requireMapKey(acc, row, field, type, column, nested, container, i);
        key.append(nested, container, i);
        value.append(nested, container, i + 1);
      }
      push(fields / 2);
    }

    @Override
    void truncateChildren(int n) {
      key.truncate(n);
      value.truncate(n);
    }

    @Override
    long retainedBytes() {
      return 8L * offsets.length + key.retainedBytes() + value.retainedBytes();
    }

    @Override
    long prefixBytes() {
      return key.prefixBytes() + value.prefixBytes();
    }

    @Override
    void writePrefix(ChunkBuffer out) {
      key.writePrefix(out);
      value.writePrefix(out);
    }

    @Override
    long dataBytes() {
      return 8L * count + key.dataBytes() + value.dataBytes();
    }

    @Override
    void writeData(ChunkBuffer out) {
      writeOffsets(out);
      key.writeData(out);
      value.writeData(out);
    }
  }

  /** One complete child column per element, element 1 first. */
  static final class TupleColumn extends Column {
    private final Column[] elements;
    private final List<String> names;

    TupleColumn(ClickHouseType type, String column, Column[] elements) {
      super(type, column);
      this.elements = elements;
      this.names = type.names();
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      ValueKind kind = acc.kind(row, field);
      if (names != null && kind == ValueKind.MAP) {
        appendByName(acc, row, field);
        count++;
        return;
      }
      if (kind == ValueKind.OTHER && acc.getObject(row, field) instanceof Record r) {
        appendRecord(acc, row, field, r);
        count++;
        return;
      }
      requireKind(acc, row, field, type, column, ValueKind.SEQUENCE);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int size = nested.size(container);
      Containers.requireTupleSize(acc, row, field, type, column, elements.length, size);
      for (int i = 0; i < size; i++) {
        elements[i].append(nested, container, i);
      }
      count++;
    }

    /**
     * Appends a tuple given as a Java record: an unnamed tuple takes its components in order, a
     * named one the components of its element names (exactly those, in any order).
     */
    private <R> void appendRecord(RowAccessor<R> acc, R row, int field, Record r) {
      Object[] values;
      try {
        values = names == null ? RecordValues.components(r) : RecordValues.namedComponents(r);
      } catch (RuntimeException e) {
        throw Conversions.unreadable(acc, row, field, type, column, e);
      }
      RowAccessor<Object> nested = RowAccessors.values();
      if (names == null) {
        Containers.requireTupleSize(acc, row, field, type, column, elements.length,
            values.length);
        for (int i = 0; i < values.length; i++) {
          elements[i].append(nested, values, i);
        }
        return;
      }
      Containers.requireNamedTupleSize(acc, row, field, type, column, elements.length,
          values.length);
      for (int e = 0; e < elements.length; e++) {
        int at = Containers.namedValueIndex(acc, row, field, type, column, nested, values,
            values.length, names.get(e));
        elements[e].append(nested, values, at);
      }
    }

    /**
     * Appends a named tuple given as an object or map (a JSON object, a {@code Map}): each
     * element is the value of the field with its name; a field too many or too few is an error.
     */
    private <R> void appendByName(RowAccessor<R> acc, R row, int field) {
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int fields = nested.size(container); // names and values alternate
      Containers.requireNamedTupleSize(acc, row, field, type, column, elements.length, fields);
      for (int e = 0; e < elements.length; e++) {
        int at = Containers.namedValueIndex(acc, row, field, type, column, nested, container,
            fields, names.get(e));
        elements[e].append(nested, container, at);
      }
    }

    @Override
    void appendDefault() {
      for (Column e : elements) {
        e.appendDefault();
      }
      count++;
    }

    @Override
    void truncate(int n) {
      count = n;
      for (Column e : elements) {
        e.truncate(n);
      }
    }

    @Override
    long retainedBytes() {
      long b = 0;
      for (Column e : elements) {
        b += e.retainedBytes();
      }
      return b;
    }

    @Override
    long prefixBytes() {
      long b = 0;
      for (Column e : elements) {
        b += e.prefixBytes();
      }
      return b;
    }

    @Override
    void writePrefix(ChunkBuffer out) {
      for (Column e : elements) {
        e.writePrefix(out);
      }
    }

    @Override
    long dataBytes() {
      long b = 0;
      for (Column e : elements) {
        b += e.dataBytes();
      }
      return b;
    }

    @Override
    void writeData(ChunkBuffer out) {
      for (Column e : elements) {
        e.writeData(out);
      }
    }
  }
}
