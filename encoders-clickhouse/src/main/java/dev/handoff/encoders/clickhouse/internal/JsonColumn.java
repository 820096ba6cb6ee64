package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.JsonPaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON column in Native (the object serialization, version 1 with {@code
 * max_dynamic_paths}): the state prefix is UInt64 0, VarUInt max_dynamic_paths, VarUInt number
 * of dynamic paths and their names (sorted by their bytes), then the prefixes of the typed paths'
 * columns (sorted by path) and of the dynamic paths' Dynamic columns; the data is each typed
 * path's column, each dynamic path's Dynamic column, and the shared data, an {@code
 * Array(Tuple(String, String))} that is empty in every row (only its offsets, zeros).
 *
 * <p>Every value has a slot in every column: a typed path the value lacks gets its type's
 * default, a dynamic path it lacks a NULL. A path first seen at row k gets a column with k NULLs.
 * The first {@code max_dynamic_paths} paths of a block are dynamic paths; a path first seen after
 * them goes to the shared data for the rest of the block: per value its entries sorted by path,
 * each the path and the value as the binary encoding of its type followed by its RowBinary
 * ({@link SharedValues}). (A block with more dynamic paths than the limit is read by 26.7, but
 * crashes it when an INSERT squashes such blocks.) A dynamic path whose values were all rolled
 * back is dropped and the shared paths are recomputed, so a rolled-back block is the good rows'
 * block.
 */
final class JsonColumn extends Column {
  private final JsonPaths paths;
  private final Column[] typed;
  private final boolean[] seen;
  private final ClickHouseType dynamicType;
  /**
   * The column of every dynamic path seen, active in this block or not: an inactive one is empty
   * and is reused when its path comes back, so a steady stream of the same paths allocates
   * nothing per block (no column, no map entry). At most {@link #RETIRED} inactive ones are kept.
   */
  private final Map<String, Slot> slots = new HashMap<>();
  private static final int RETIRED = 256;
  private int inactive;

  /** A dynamic path's column and whether the block holds the path. */
  private static final class Slot {
    final VariantColumns.DynamicColumn column;
    boolean active;

    Slot(VariantColumns.DynamicColumn column) {
      this.column = column;
    }
  }

  /** The dynamic paths in the order they were added, and their names as written. */
  private final List<String> order = new ArrayList<>();
  private final Map<String, byte[]> names = new HashMap<>();
  /** The paths of this block that live in the shared data (first seen with no room left). */
  private final java.util.Set<String> sharedPaths = new java.util.HashSet<>();
  private final SharedValues sharedValues;
  /** Shared data: cumulative entry count per value; per entry its path and value. */
  private long[] sharedOffsets = new long[64];
  private final ChunkBuffer sharedPathData = new ChunkBuffer(64);
  private final ChunkBuffer sharedValueData = new ChunkBuffer(64);
  private int[] pathEnds = new int[16];
  private int[] valueEnds = new int[16];
  private final List<String> entryPaths = new ArrayList<>();
  /** Scratch for one value's shared entries before they are sorted by path. */
  private final ChunkBuffer rowValues = new ChunkBuffer(64);
  private final List<String> rowPaths = new ArrayList<>();
  private int[] rowEnds = new int[8];
  private final Object[] box = new Object[1];

  JsonColumn(ClickHouseType type, String column) {
    super(type, column);
    this.paths = new JsonPaths(type);
    this.typed = new Column[type.elements().size()];
    for (int i = 0; i < typed.length; i++) {
      typed[i] = Column.of(type.elements().get(i), column + "." + type.names().get(i));
    }
    this.seen = new boolean[typed.length];
    this.dynamicType = ClickHouseType.dynamic(type.maxDynamicTypes());
    this.sharedValues = new SharedValues(column);
  }

  @Override
  <R> void append(RowAccessor<R> acc, R row, int field) {
    paths.read(acc, row, field, column);
    try {
      Arrays.fill(seen, false);
      for (int i = 0; i < paths.size(); i++) {
        int t = paths.typed(i);
        if (t >= 0) {
          typed[t].append(paths.accessor(i), paths.container(i), paths.field(i));
          seen[t] = true;
        } else if (isShared(paths.path(i))) {
          addShared(paths.path(i), paths.accessor(i), paths.container(i), paths.field(i));
        } else {
          dynamicPath(paths.path(i)).append(paths.accessor(i), paths.container(i),
              paths.field(i));
        }
      }
      pushShared();
    } finally {
      paths.clear();
      rowPaths.clear();
      rowValues.truncate(0);
    }
    for (int t = 0; t < typed.length; t++) {
      if (!seen[t]) {
        typed[t].appendDefault();
      }
    }
    count++;
    for (int k = 0; k < order.size(); k++) {
      VariantColumns.DynamicColumn d = active(order.get(k));
      if (d.count < count) {
        d.appendDefault();
      }
    }
  }

  /** Whether {@code path} goes to the shared data: it does already, or no room is left. */
  private boolean isShared(String path) {
    if (active(path) != null) {
      return false;
    }
    if (sharedPaths.contains(path) || order.size() >= type.maxDynamicPaths()) {
      sharedPaths.add(path);
      return true;
    }
    return false;
  }

  /** Encodes one shared entry of the current value into the scratch. */
  private void addShared(String path, RowAccessor<Object> acc, Object container, int field) {
    ClickHouseType t = dev.handoff.clickhouse.value.DynamicValues.typeOf(acc, container, field,
        type, dynamicType, column + "." + path);
    Object o = acc.kind(container, field) == dev.handoff.api.row.ValueKind.OTHER
        ? acc.getObject(container, field) : null;
    if (o instanceof dev.handoff.clickhouse.value.TypedValue tv) {
      if (tv.value() == null) {
        return;
      }
      box[0] = tv.value();
      acc = VariantColumns.VALUES;
      container = box;
      field = 0;
    } else if (o != null && dev.handoff.clickhouse.value.DynamicValues.isJsonNode(o)) {
      box[0] = dev.handoff.clickhouse.value.DynamicValues.plain(o);
      acc = VariantColumns.VALUES;
      container = box;
      field = 0;
    }
    if (t == null) {
      return;
    }
    try {
      sharedValues.write(t, acc, container, field, rowValues);
    } finally {
      box[0] = null;
    }
    if (rowPaths.size() == rowEnds.length) {
      rowEnds = Arrays.copyOf(rowEnds, rowEnds.length * 2);
    }
    rowEnds[rowPaths.size()] = rowValues.length();
    rowPaths.add(path);
  }

  /** Appends the current value's shared entries, sorted by path, and its offset. */
  private void pushShared() {
    int n = rowPaths.size();
    if (n == 0) {
      pushOffset(entries(count)); // no shared entry: nothing to sort or allocate
      return;
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    if (n > 1) {
      Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(
          rowPaths.get(a).getBytes(StandardCharsets.UTF_8),
          rowPaths.get(b).getBytes(StandardCharsets.UTF_8)));
    }
    int entries = entries(count);
    for (int k = 0; k < n; k++) {
      int i = order[k];
      int from = i == 0 ? 0 : rowEnds[i - 1];
      String p = rowPaths.get(i);
      sharedPathData.writeVarUInt(ChunkBuffer.utf8Length(p));
      sharedPathData.writeUtf8(p);
      byte[] value = new byte[rowEnds[i] - from];
      for (int b = 0; b < value.length; b++) {
        value[b] = rowValues.getByte(from + b);
      }
      sharedValueData.writeVarUInt(value.length);
      sharedValueData.writeBytes(value);
      if (entries + k == pathEnds.length) {
        pathEnds = Arrays.copyOf(pathEnds, pathEnds.length * 2);
        valueEnds = Arrays.copyOf(valueEnds, valueEnds.length * 2);
      }
      pathEnds[entries + k] = sharedPathData.length();
      valueEnds[entries + k] = sharedValueData.length();
      entryPaths.add(p);
    }
    pushOffset(entries + n);
  }

  private void pushOffset(int entriesSoFar) {
    if (count == sharedOffsets.length) {
      sharedOffsets = Arrays.copyOf(sharedOffsets, count * 2);
    }
    sharedOffsets[count] = entriesSoFar;
  }

  /** The number of shared entries of the first {@code n} values. */
  private int entries(int n) {
    return n == 0 ? 0 : (int) sharedOffsets[n - 1];
  }

  /** The column of {@code path} if the block holds the path, else {@code null}. */
  private VariantColumns.DynamicColumn active(String path) {
    Slot s = slots.get(path);
    return s != null && s.active ? s.column : null;
  }

  private VariantColumns.DynamicColumn dynamicPath(String path) {
    Slot s = slots.get(path);
    if (s == null) {
      s = new Slot(new VariantColumns.DynamicColumn(dynamicType, column + "." + path, type));
      slots.put(path, s);
    } else if (s.active) {
      return s.column;
    } else {
      inactive--;
    }
    VariantColumns.DynamicColumn d = s.column;
    for (int r = 0; r < count; r++) {
      d.appendDefault();
    }
    s.active = true;
    order.add(path);
    if (!names.containsKey(path)) {
      ChunkBuffer b = new ChunkBuffer(16);
      b.writeVarUInt(ChunkBuffer.utf8Length(path));
      b.writeUtf8(path);
      names.put(path, b.toByteArray());
    }
    return d;
  }

  @Override
  void appendDefault() {
    for (Column t : typed) {
      t.appendDefault();
    }
    if (count == sharedOffsets.length) {
      sharedOffsets = Arrays.copyOf(sharedOffsets, count * 2);
    }
    sharedOffsets[count] = entries(count);
    count++;
    for (int k = 0; k < order.size(); k++) {
      active(order.get(k)).appendDefault();
    }
  }

  @Override
  void truncate(int n) {
    int keep = entries(Math.min(n, count));
    sharedPathData.truncate(keep == 0 ? 0 : pathEnds[keep - 1]);
    sharedValueData.truncate(keep == 0 ? 0 : valueEnds[keep - 1]);
    if (entryPaths.size() > keep) {
      entryPaths.subList(keep, entryPaths.size()).clear();
    }
    // The shared paths are those of the entries left: a rolled-back value may have been the
    // first of a path. (An indexed loop: addAll's iterator is an allocation per block.)
    sharedPaths.clear();
    for (int i = 0, size = entryPaths.size(); i < size; i++) {
      sharedPaths.add(entryPaths.get(i));
    }
    count = n;
    for (Column t : typed) {
      t.truncate(n);
    }
    for (int k = order.size() - 1; k >= 0; k--) {
      String path = order.get(k);
      Slot s = slots.get(path);
      VariantColumns.DynamicColumn d = s.column;
      d.truncate(Math.min(n, d.count));
      if (!d.hasValues()) {
        // Dropped from the block; its column, emptied, waits for the path to come back.
        order.remove(k);
        d.truncate(0);
        s.active = false;
        if (inactive < RETIRED) {
          inactive++;
        } else {
          slots.remove(path);
        }
      }
    }
    if (n == 0 && names.size() > 4 * typed.length + 1024) {
      names.clear(); // names of paths long gone
    }
  }

  /**
   * Fills {@link #sorted} with the dynamic paths sorted as the server sorts them (by their UTF-8
   * bytes, read from {@link #names}, so that sealing a block allocates nothing for few paths);
   * returns how many.
   */
  private int sortedPaths() {
    int n = order.size();
    if (sorted.length < n) {
      sorted = new String[Math.max(n, sorted.length * 2)];
    }
    for (int k = 0; k < n; k++) {
      sorted[k] = order.get(k);
    }
    Arrays.sort(sorted, 0, n, byUtf8);
    return n;
  }

  private String[] sorted = new String[16];
  private final java.util.Comparator<String> byUtf8 = this::compareUtf8;

  /** Compares two paths' UTF-8 bytes: their names as written, past the VarUInt length. */
  private int compareUtf8(String a, String b) {
    byte[] x = names.get(a);
    byte[] y = names.get(b);
    return Arrays.compareUnsigned(x, pastLength(x), x.length, y, pastLength(y), y.length);
  }

  private static int pastLength(byte[] name) {
    int i = 0;
    while ((name[i] & 0x80) != 0) {
      i++;
    }
    return i + 1;
  }

  @Override
  long prefixBytes() {
    long b = 8 + 2L * ChunkBuffer.varUIntSize(order.size());
    for (Column t : typed) {
      b += t.prefixBytes();
    }
    for (int k = 0; k < order.size(); k++) {
      String path = order.get(k);
      b += names.get(path).length + active(path).prefixBytes();
    }
    return b;
  }

  @Override
  void writePrefix(ChunkBuffer out) {
    int n = sortedPaths();
    out.writeLongLE(0); // object serialization version 1 (with max_dynamic_paths)
    out.writeVarUInt(n);
    out.writeVarUInt(n);
    for (int k = 0; k < n; k++) {
      out.writeBytes(names.get(sorted[k]));
    }
    for (Column t : typed) {
      t.writePrefix(out);
    }
    for (int k = 0; k < n; k++) {
      active(sorted[k]).writePrefix(out);
    }
    Arrays.fill(sorted, 0, n, null);
  }

  @Override
  long dataBytes() {
    // The shared data: offsets, paths, values.
    long b = 8L * count + sharedPathData.length() + sharedValueData.length();
    for (Column t : typed) {
      b += t.dataBytes();
    }
    for (int k = 0; k < order.size(); k++) {
      b += active(order.get(k)).dataBytes();
    }
    return b;
  }

  @Override
  void writeData(ChunkBuffer out) {
    for (Column t : typed) {
      t.writeData(out);
    }
    int n = sortedPaths();
    for (int k = 0; k < n; k++) {
      active(sorted[k]).writeData(out);
    }
    Arrays.fill(sorted, 0, n, null);
    out.ensureWritable(8 * count);
    for (int i = 0; i < count; i++) {
      out.writeLongLE(sharedOffsets[i]);
    }
    out.writeBuffer(sharedPathData);
    out.writeBuffer(sharedValueData);
  }

  @Override
  long retainedBytes() {
    long b = 0;
    for (Column t : typed) {
      b += t.retainedBytes();
    }
    for (Slot s : slots.values()) {
      b += s.column.retainedBytes();
    }
    return b;
  }
}
