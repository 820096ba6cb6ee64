package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.DynamicValues;
import dev.handoff.clickhouse.value.TypedValue;
import dev.handoff.clickhouse.value.VariantPicker;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Variant and Dynamic columns (JSON is {@link JsonColumn}).
 *
 * <p><b>Variant</b>, Native: the state prefix is the discriminators mode (UInt64 0, "basic")
 * followed by each type's prefix; the data is one discriminator byte per value (the type's index,
 * 255 for NULL), then each type's column holding only the values of that type.
 *
 * <p><b>Dynamic</b>, Native: the state prefix is the structure (UInt64 version 1, VarUInt
 * max_types, VarUInt number of types, their names in the server's sorted order) followed by the
 * prefix of the Variant of those types and {@code SharedVariant}; the data is that Variant's. The
 * types are those of the block's values; a type whose values were all rolled back is not listed.
 * The structure lists every type of the block even beyond {@code max_types}: the server moves the
 * surplus into its shared variant when it inserts (checked against 26.7).
 *
 * <p><b>Rollback.</b> Each type's column counts its complete values; truncating to {@code n}
 * values subtracts the dropped discriminators from those counts and truncates each type's column
 * to its count, which also drops a value half-appended by a failed row.
 */
final class VariantColumns {
  private VariantColumns() {}

  static final RowAccessor<Object> VALUES = RowAccessors.values();
  private static final int NULL = VariantPicker.NULL;
  private static final byte[] SHARED_VARIANT = "SharedVariant".getBytes(StandardCharsets.UTF_8);

  static final class VariantColumn extends Column {
    private final VariantPicker picker;
    private final Column[] children;
    private final int[] counts;
    private final ChunkBuffer discriminators = new ChunkBuffer(64);
    private final Object[] box = new Object[1];

    VariantColumn(ClickHouseType type, String column) {
      super(type, column);
      this.picker = new VariantPicker(type);
      this.children = new Column[type.elements().size()];
      for (int i = 0; i < children.length; i++) {
        children[i] = Column.of(type.elements().get(i), column);
      }
      this.counts = new int[children.length];
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      int d = picker.pick(acc, row, field, column);
      if (d != NULL) {
        if (acc.kind(row, field) == ValueKind.OTHER
            && acc.getObject(row, field) instanceof TypedValue tv) {
          box[0] = tv.value();
          try {
            children[d].append(VALUES, (Object) box, 0);
          } finally {
            box[0] = null;
          }
        } else {
          children[d].append(acc, row, field);
        }
        counts[d]++;
      }
      discriminators.writeByte(d);
      count++;
    }

    @Override
    void appendDefault() {
      discriminators.writeByte(NULL);
      count++;
    }

    @Override
    void truncate(int n) {
      for (int r = n; r < count; r++) {
        int d = discriminators.getByte(r) & 0xFF;
        if (d != NULL) {
          counts[d]--;
        }
      }
      discriminators.truncate(n);
      count = n;
      for (int i = 0; i < children.length; i++) {
        children[i].truncate(counts[i]);
      }
    }

    @Override
    long prefixBytes() {
      long b = 8;
      for (Column c : children) {
        b += c.prefixBytes();
      }
      return b;
    }

    @Override
    void writePrefix(ChunkBuffer out) {
      out.writeLongLE(0); // discriminators mode: basic
      for (Column c : children) {
        c.writePrefix(out);
      }
    }

    @Override
    long dataBytes() {
      long b = count;
      for (Column c : children) {
        b += c.dataBytes();
      }
      return b;
    }

    @Override
    void writeData(ChunkBuffer out) {
      out.writeBuffer(discriminators);
      for (Column c : children) {
        c.writeData(out);
      }
    }

    @Override
    long retainedBytes() {
      long b = discriminators.capacity();
      for (Column c : children) {
        b += c.retainedBytes();
      }
      return b;
    }
  }

  static final class DynamicColumn extends Column {
    /** The JSON column whose dynamic path this is (JSON-mode types), or null. */
    private final ClickHouseType json;
    private final Map<ClickHouseType, Integer> ids = new HashMap<>();
    private ClickHouseType[] types = new ClickHouseType[4];
    private Column[] columns = new Column[4];
    /** Per type: its name as the structure writes it (VarUInt length, UTF-8). */
    private byte[][] names = new byte[4][];
    private int[] counts = new int[4];
    private int typeCount;
    /** Per value: the id of its type (creation order), 255 for NULL. */
    private final ChunkBuffer local = new ChunkBuffer(64);
    private final Object[] box = new Object[1];
    /** Scratch for writing: ids of the listed types in sorted order, and id -> discriminator. */
    private int[] sorted = new int[4];
    private int[] global = new int[4];

    DynamicColumn(ClickHouseType type, String column, ClickHouseType json) {
      super(type, column);
      this.json = json;
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      ClickHouseType t = DynamicValues.typeOf(acc, row, field, json, type, column);
      Object o = acc.kind(row, field) == ValueKind.OTHER ? acc.getObject(row, field) : null;
      if (o instanceof TypedValue tv && tv.value() == null) {
        t = null;
      }
      if (t == null) {
        appendDefault();
        return;
      }
      int id = id(t);
      if (o instanceof TypedValue tv) {
        appendBoxed(id, tv.value());
      } else if (o != null && DynamicValues.isJsonNode(o)) {
        appendBoxed(id, DynamicValues.plain(o));
      } else {
        columns[id].append(acc, row, field);
      }
      counts[id]++;
      local.writeByte(id);
      count++;
    }

    private void appendBoxed(int id, Object value) {
      box[0] = value;
      try {
        columns[id].append(VALUES, (Object) box, 0);
      } finally {
        box[0] = null;
      }
    }

    /** Returns the id of type {@code t}, adding its column on first use. */
    private int id(ClickHouseType t) {
      Integer id = ids.get(t);
      if (id != null) {
        return id;
      }
      if (typeCount == 254) {
        throw new IllegalStateException("column " + column
            + ": more than 254 types of Dynamic values in one block");
      }
      if (typeCount == types.length) {
        int n = typeCount * 2;
        types = Arrays.copyOf(types, n);
        columns = Arrays.copyOf(columns, n);
        names = Arrays.copyOf(names, n);
        counts = Arrays.copyOf(counts, n);
        sorted = new int[n];
        global = new int[n];
      }
      types[typeCount] = t;
      columns[typeCount] = Column.of(t, column);
      ChunkBuffer b = new ChunkBuffer(32);
      String name = t.toString();
      b.writeVarUInt(ChunkBuffer.utf8Length(name));
      b.writeUtf8(name);
      names[typeCount] = b.toByteArray();
      ids.put(t, typeCount);
      return typeCount++;
    }

    @Override
    void appendDefault() {
      local.writeByte(NULL);
      count++;
    }

    /** Returns whether a value of this column is not NULL. */
    boolean hasValues() {
      for (int i = 0; i < typeCount; i++) {
        if (counts[i] > 0) {
          return true;
        }
      }
      return false;
    }

    @Override
    void truncate(int n) {
      for (int r = n; r < count; r++) {
        int id = local.getByte(r) & 0xFF;
        if (id != NULL) {
          counts[id]--;
        }
      }
      local.truncate(n);
      count = n;
      for (int i = 0; i < typeCount; i++) {
        columns[i].truncate(counts[i]);
      }
      if (n == 0 && typeCount > FORGET_TYPES) {
        // A new block: forget the types of old blocks, so they never add up to the limit.
        ids.clear();
        Arrays.fill(types, null);
        Arrays.fill(columns, null);
        typeCount = 0;
      }
    }

    /** How many types an empty column keeps for the next block. */
    private static final int FORGET_TYPES = 32;

    @Override
    long prefixBytes() {
      int listed = 0;
      long b = 8 + 8;
      for (int i = 0; i < typeCount; i++) {
        if (counts[i] > 0) {
          listed++;
          b += names[i].length + columns[i].prefixBytes();
        }
      }
      return b + 2L * ChunkBuffer.varUIntSize(listed);
    }

    /**
     * Fills {@link #sorted} with the ids of the listed types in the server's order (their names'
     * bytes) and {@link #global} with each one's discriminator, counting SharedVariant among
     * them; returns how many are listed.
     */
    private int order() {
      int listed = 0;
      for (int i = 0; i < typeCount; i++) {
        if (counts[i] > 0) {
          sorted[listed++] = i;
        }
      }
      // Insertion sort: a block has few types.
      for (int a = 1; a < listed; a++) {
        int id = sorted[a];
        int b = a - 1;
        while (b >= 0 && compareNames(names[sorted[b]], names[id]) > 0) {
          sorted[b + 1] = sorted[b];
          b--;
        }
        sorted[b + 1] = id;
      }
      for (int k = 0; k < listed; k++) {
        boolean afterShared = compareNames(names[sorted[k]], null) > 0;
        global[sorted[k]] = afterShared ? k + 1 : k;
      }
      return listed;
    }

    /** Compares two names (null: SharedVariant) by their UTF-8 bytes, length prefixes skipped. */
    private static int compareNames(byte[] a, byte[] b) {
      int aFrom = a == null ? 0 : a.length - nameLength(a);
      int bFrom = b == null ? 0 : b.length - nameLength(b);
      byte[] x = a == null ? SHARED_VARIANT : a;
      byte[] y = b == null ? SHARED_VARIANT : b;
      return Arrays.compareUnsigned(x, aFrom, x.length, y, bFrom, y.length);
    }

    private static int nameLength(byte[] lengthAndName) {
      int n = 0;
      int shift = 0;
      int i = 0;
      while (true) {
        int b = lengthAndName[i++] & 0xFF;
        n |= (b & 0x7F) << shift;
        if (b < 0x80) {
          return n;
        }
        shift += 7;
      }
    }

    @Override
    void writePrefix(ChunkBuffer out) {
      int listed = order();
      out.writeLongLE(1); // structure version 1: with max_types
      out.writeVarUInt(listed);
      out.writeVarUInt(listed);
      for (int k = 0; k < listed; k++) {
        out.writeBytes(names[sorted[k]]);
      }
      out.writeLongLE(0); // the Variant's discriminators mode: basic
      for (int k = 0; k < listed; k++) {
        columns[sorted[k]].writePrefix(out); // SharedVariant (String) has no prefix
      }
    }

    @Override
    long dataBytes() {
      long b = count;
      for (int i = 0; i < typeCount; i++) {
        if (counts[i] > 0) {
          b += columns[i].dataBytes();
        }
      }
      return b;
    }

    @Override
    void writeData(ChunkBuffer out) {
      int listed = order();
      out.ensureWritable(count);
      for (int r = 0; r < count; r++) {
        int id = local.getByte(r) & 0xFF;
        out.writeByte(id == NULL ? NULL : global[id]);
      }
      for (int k = 0; k < listed; k++) {
        columns[sorted[k]].writeData(out); // SharedVariant holds no values
      }
    }

    @Override
    long retainedBytes() {
      long b = local.capacity();
      for (int i = 0; i < typeCount; i++) {
        b += columns[i].retainedBytes();
      }
      return b;
    }
  }
}
