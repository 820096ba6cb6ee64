package dev.handoff.encoders.rowbinary.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.BinaryTypes;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.DynamicValues;
import dev.handoff.clickhouse.value.JsonPaths;
import dev.handoff.clickhouse.value.TypedValue;
import dev.handoff.clickhouse.value.VariantPicker;
import java.util.HashMap;
import java.util.Map;

/**
 * The RowBinary writers of {@code Variant}, {@code Dynamic} and {@code JSON}.
 *
 * <ul>
 *   <li>Variant: the discriminator (one byte: the index of the value's type among the Variant's
 *       sorted types, 255 for NULL), then the value as that type.
 *   <li>Dynamic: the binary encoding of the value's type ({@link BinaryTypes}; {@code 0x00},
 *       Nothing, for NULL), then the value as that type.
 *   <li>JSON: VarUInt number of paths, then per path its name (a string) and its value: a typed
 *       path's value as its type, a dynamic path's as a Dynamic. Absent typed paths are left out
 *       (the server reads them as their default); nulls and empty objects are no path.
 * </ul>
 */
final class VariantWriters {
  private VariantWriters() {}

  private static final RowAccessor<Object> VALUES = RowAccessors.values();

  static final class VariantWriter extends ValueWriter {
    private final VariantPicker picker;
    private final ValueWriter[] writers;
    private final Object[] box = new Object[1];

    VariantWriter(ClickHouseType type, String column) {
      super(type, column);
      this.picker = new VariantPicker(type);
      this.writers = new ValueWriter[type.elements().size()];
      for (int i = 0; i < writers.length; i++) {
        writers[i] = ValueWriter.of(type.elements().get(i), column);
      }
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      int d = picker.pick(acc, row, field, column);
      out.writeByte(d);
      if (d == VariantPicker.NULL) {
        return;
      }
      if (acc.kind(row, field) == ValueKind.OTHER
          && acc.getObject(row, field) instanceof TypedValue tv) {
        box[0] = tv.value();
        try {
          writers[d].write(VALUES, (Object) box, 0, out);
        } finally {
          box[0] = null;
        }
      } else {
        writers[d].write(acc, row, field, out);
      }
    }
  }

  static final class DynamicWriter extends ValueWriter {
    /** The JSON column whose dynamic paths this writes (JSON-mode types), or null. */
    private final ClickHouseType json;
    private final Map<ClickHouseType, byte[]> tags = new HashMap<>();
    private final Map<ClickHouseType, ValueWriter> writers = new HashMap<>();
    private final Object[] box = new Object[1];

    DynamicWriter(ClickHouseType type, String column, ClickHouseType json) {
      super(type, column);
      this.json = json;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      ClickHouseType t = DynamicValues.typeOf(acc, row, field, json, type, column);
      Object typed = acc.kind(row, field) == ValueKind.OTHER ? acc.getObject(row, field) : null;
      if (typed instanceof TypedValue tv && tv.value() == null) {
        t = null; // a Dynamic holds NULL itself, whatever type is named
      }
      if (t == null) {
        out.writeByte(0x00); // Nothing: NULL
        return;
      }
      byte[] tag = tags.get(t);
      ValueWriter w = writers.get(t);
      if (tag == null) {
        tag = BinaryTypes.encode(t);
        w = ValueWriter.of(t, column);
        tags.put(t, tag);
        writers.put(t, w);
      }
      out.writeBytes(tag);
      if (typed instanceof TypedValue tv) {
        box[0] = tv.value();
        try {
          w.write(VALUES, (Object) box, 0, out);
        } finally {
          box[0] = null;
        }
      } else if (typed != null && DynamicValues.isJsonNode(typed)) {
        box[0] = DynamicValues.plain(typed);
        try {
          w.write(VALUES, (Object) box, 0, out);
        } finally {
          box[0] = null;
        }
      } else {
        w.write(acc, row, field, out);
      }
    }
  }

  static final class JsonWriter extends ValueWriter {
    private final JsonPaths paths;
    private final ValueWriter[] typed;
    private final DynamicWriter dynamic;

    JsonWriter(ClickHouseType type, String column) {
      super(type, column);
      this.paths = new JsonPaths(type);
      this.typed = new ValueWriter[type.elements().size()];
      for (int i = 0; i < typed.length; i++) {
        typed[i] = ValueWriter.of(type.elements().get(i), column + "." + type.names().get(i));
      }
      this.dynamic = new DynamicWriter(
          ClickHouseType.dynamic(type.maxDynamicTypes()), column, type);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      paths.read(acc, row, field, column);
      try {
        int n = paths.size();
        out.writeVarUInt(n);
        for (int i = 0; i < n; i++) {
          CharSequence p = paths.pathText(i);
          out.writeVarUInt(ChunkBuffer.utf8Length(p));
          out.writeUtf8(p);
          int t = paths.typed(i);
          ValueWriter w = t >= 0 ? typed[t] : dynamic;
          w.write(paths.accessor(i), paths.container(i), paths.field(i), out);
        }
      } finally {
        paths.clear();
      }
    }
  }
}
