package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Conversions;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * The fast path of {@link NativeEncoder} for {@code RowAccessors.objectArray()} rows: one {@link
 * MethodHandle} per encoder instance, {@code (Object[] row) -> void}, that appends the row's
 * values to the instance's columns in order. Each column is a static case below with the column
 * object and its constants (field index, width, range, decimal powers) bound into the handle; the
 * columns are joined in a balanced tree of {@code foldArguments}. This is the rowbinary encoder's
 * {@code RowProgram} with columns instead of one output buffer.
 *
 * <p><b>Why a method handle.</b> The JDK specializes a method handle that is invoked often: its
 * compiled form has the bound column objects and constants folded and the cases inlined in
 * column order, the schema's own straight-line code, where a loop over the columns pays a
 * dispatch and reloads per value (see docs/benchmarks.md, "Native").
 *
 * <p><b>Same bytes, same errors.</b> A case tests the value's class by identity and appends it
 * directly; anything else (another class, a value out of range, a null outside Nullable, a String
 * of more than 127 chars for a String column, every error) goes to the column's own {@code
 * append} with nothing appended yet, so the columns and the errors are the generic path's. A
 * RuntimeException from {@code append} that is not a {@link HandoffException} becomes the DATA
 * error the encoder's generic path gives it. On any exception the encoder truncates every column
 * back to the rows before the row.
 *
 * <p>Not thread-safe, like the encoder: the handle writes into the columns it was built with.
 */
final class NativeProgram {
  private NativeProgram() {}

  /**
   * Longest String appended by the String cases: as ASCII, its length is one varint byte. (The
   * LowCardinality case takes any length: it writes a value only once per block.)
   */
  private static final int FAST_STRING_MAX = 127;

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
  private static final MethodType ROW = MethodType.methodType(void.class, Object[].class);

  /**
   * Compiles the program that appends an {@code Object[]} row to {@code columns}, or returns
   * null when no column has a fast case (the generic path is then as fast).
   */
  static MethodHandle compile(TableSchema schema, ClickHouseType[] types, Column[] columns) {
    MethodHandle[] cases = new MethodHandle[columns.length];
    boolean any = false;
    for (int i = 0; i < columns.length; i++) {
      Fallback f = new Fallback(columns[i], types[i], schema.column(i).name(), i);
      cases[i] = fastCase(columns[i], f);
      any |= cases[i] != null;
      if (cases[i] == null) {
        cases[i] = bind("generic", f);
      }
    }
    return any ? tree(cases, 0, cases.length) : null;
  }

  /** The fast case of a column, or null for a column without one. */
  private static MethodHandle fastCase(Column c, Fallback f) {
    if (c instanceof Leaves.IntColumn) {
      Leaves.IntColumn ic = (Leaves.IntColumn) c;
      return MethodHandles.insertArguments(findLeaf("integer", Leaves.IntColumn.class, int.class,
          long.class, long.class), 0, ic, ic.data, f, f.field, ic.width,
          Conversions.minLong(c.type), Conversions.maxLong(c.type));
    }
    if (c instanceof Leaves.Float64Column) {
      return bindLeaf("float64", Leaves.Float64Column.class, (Leaf) c, f);
    }
    if (c instanceof Leaves.DateTimeColumn) {
      return bindLeaf("dateTime", Leaves.DateTimeColumn.class, (Leaf) c, f);
    }
    if (c instanceof Leaves.DateColumn && c.type.kind() == TypeKind.DATE) {
      return bindLeaf("date", Leaves.DateColumn.class, (Leaf) c, f);
    }
    if (c instanceof Leaves.StringColumn sc) {
      return bindLeaf(sc.hasOffsets() ? "string" : "stringWithoutOffsets",
          Leaves.StringColumn.class, sc, f);
    }
    if (c instanceof Leaves.UuidColumn) {
      return bindLeaf("uuid", Leaves.UuidColumn.class, (Leaf) c, f);
    }
    if (c instanceof Leaves.DecimalColumn) {
      ClickHouseType t = c.type;
      long pow = Conversions.pow10(t.scale());
      return MethodHandles.insertArguments(findLeaf("decimal", Leaves.DecimalColumn.class,
          int.class, int.class, double.class, long.class, long.class, long.class), 0, c,
          ((Leaf) c).data, f, f.field,
          ((Leaves.DecimalColumn) c).width, t.scale(), (double) pow, pow,
          Conversions.pow10(t.precision() - t.scale()), Conversions.pow10(t.precision()));
    }
    if (c instanceof Composites.NullableColumn
        && ((Composites.NullableColumn) c).inner instanceof Leaves.StringColumn) {
      return bind("nullableString", Composites.NullableColumn.class, c, f);
    }
    if (c instanceof LowCardinalityColumn lc && lc.hasStringDictionary()) {
      return bind("lowCardinalityString", LowCardinalityColumn.class, c, f);
    }
    if (c instanceof Composites.ArrayColumn
        && ((Composites.ArrayColumn) c).element instanceof Leaves.IntColumn
        && c.type.element().kind() == TypeKind.INT32) {
      return bind("arrayInt32", Composites.ArrayColumn.class, c, f);
    }
    return null;
  }

  /** The case {@code name} of a column class, with the column, its fallback and index bound. */
  private static MethodHandle bind(String name, Class<?> columnClass, Column c, Fallback f) {
    return MethodHandles.insertArguments(find(name, columnClass), 0, c, f, f.field);
  }

  /**
   * The case {@code name} of a leaf class, with the leaf, its data buffer, its fallback and
   * index bound: the buffer is then a constant of the compiled program, not a load per value.
   */
  private static MethodHandle bindLeaf(String name, Class<?> columnClass, Leaf c, Fallback f) {
    return MethodHandles.insertArguments(findLeaf(name, columnClass), 0, c, c.data, f, f.field);
  }

  /** {@link #find} for a leaf case: {@code (columnClass, ChunkBuffer data, Fallback, ...)}. */
  private static MethodHandle findLeaf(String name, Class<?> columnClass, Class<?>... constants) {
    MethodType t = ROW.insertParameterTypes(0, constants)
        .insertParameterTypes(0, columnClass, ChunkBuffer.class, Fallback.class, int.class);
    try {
      return LOOKUP.findStatic(NativeProgram.class, name, t);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("native: no case " + name + t, e);
    }
  }

  /** The generic case: the column's own append. */
  private static MethodHandle bind(String name, Fallback f) {
    try {
      return MethodHandles.insertArguments(LOOKUP.findStatic(NativeProgram.class, name,
          ROW.insertParameterTypes(0, Fallback.class, int.class)), 0, f, f.field);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("native: no case " + name, e);
    }
  }

  /** The case {@code (columnClass, Fallback, int field, constants..., Object[]) -> void}. */
  private static MethodHandle find(String name, Class<?> columnClass, Class<?>... constants) {
    MethodType t = ROW.insertParameterTypes(0, constants)
        .insertParameterTypes(0, columnClass, Fallback.class, int.class);
    try {
      return LOOKUP.findStatic(NativeProgram.class, name, t);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("native: no case " + name + t, e);
    }
  }

  /** Joins cases {@code from..to-1} into one handle that runs them in order. */
  private static MethodHandle tree(MethodHandle[] cases, int from, int to) {
    if (to - from == 1) {
      return cases[from];
    }
    int mid = (from + to) >>> 1;
    // foldArguments(target, combiner) runs the combiner (a void handle), then the target.
    return MethodHandles.foldArguments(tree(cases, mid, to), tree(cases, from, mid));
  }

  /** A top-level column with what its errors name: the generic path of one field. */
  static final class Fallback {
    private static final RowAccessor<Object[]> ROWS = RowAccessors.objectArray();

    final Column column;
    final ClickHouseType type;
    final String name;
    final int field;

    Fallback(Column column, ClickHouseType type, String name, int field) {
      this.column = column;
      this.type = type;
      this.name = name;
      this.field = field;
    }

    /** Appends the value through the column's own append: the generic path's columns and errors. */
    void append(Object[] row) {
      try {
        column.append(ROWS, row, field);
      } catch (HandoffException e) {
        throw e;
      } catch (RuntimeException e) {
        throw Conversions.unreadable(ROWS, row, field, type, name, e);
      }
    }
  }

  // The cases. Each reads row[field] once and returns after appending it, or hands the row,
  // untouched, to f.append. The field index is bound as an int of its own (f.field too), and a
  // leaf's data buffer as an argument of its own: bound arguments are constants in the
  // specialized code, a field of f or of the leaf is a load per value. The cases of top-level
  // leaves leave the leaf's count alone (see Column.count).

  private static void generic(Fallback f, int field, Object[] row) {
    f.append(row);
  }

  private static void integer(Leaves.IntColumn c, ChunkBuffer data, Fallback f, int field,
      int width, long min, long max, Object[] row) {
    Object v = row[field];
    if (v != null) {
      Class<?> k = v.getClass();
      long x;
      if (k == Long.class) {
        x = (Long) v;
      } else if (k == Integer.class) {
        x = (Integer) v;
      } else {
        f.append(row);
        return;
      }
      if (x >= min && x <= max) {
        switch (width) {
          case 1: data.writeByte((int) x); break;
          case 2: data.writeShortLE((int) x); break;
          case 4: data.writeIntLE((int) x); break;
          default: data.writeLongLE(x);
        }
        return;
      }
    }
    f.append(row);
  }

  private static void float64(Leaves.Float64Column c, ChunkBuffer data, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == Double.class) {
      data.writeDoubleLE((Double) v);
      return;
    }
    f.append(row);
  }

  private static void dateTime(Leaves.DateTimeColumn c, ChunkBuffer data, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == Instant.class) {
      long s = ((Instant) v).getEpochSecond();
      if (s >= 0 && s <= Conversions.DATETIME_MAX) {
        data.writeIntLE((int) s);
        return;
      }
    }
    f.append(row);
  }

  /** Date only (2 bytes); Date32 has no fast case. */
  private static void date(Leaves.DateColumn c, ChunkBuffer data, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == LocalDate.class) {
      long d = ((LocalDate) v).toEpochDay();
      if (d >= 0 && d <= Conversions.DATE_MAX) {
        data.writeShortLE((int) d);
        return;
      }
    }
    f.append(row);
  }

  private static void string(Leaves.StringColumn c, ChunkBuffer data, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == String.class && appendShortString(c, data, (String) v)) {
      return;
    }
    f.append(row);
  }

  /**
   * {@link #string} for a top-level column without offsets ({@code Leaf.Variable.dropOffsets}):
   * nothing is recorded after the value, not even its count (see {@code Column.count}).
   */
  private static void stringWithoutOffsets(Leaves.StringColumn c, ChunkBuffer data, Fallback f,
      int field, Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == String.class) {
      String s = (String) v;
      if (s.length() <= FAST_STRING_MAX) {
        if (!data.writeAsciiWithLength(s)) {
          data.writeUtf8WithLength(s);
        }
        return;
      }
    }
    f.append(row);
  }

  private static void nullableString(Composites.NullableColumn c, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v == null) {
      c.inner.appendDefault();
      c.nullMap.writeByte(1);
      c.count++;
      return;
    }
    Leaves.StringColumn inner = (Leaves.StringColumn) c.inner;
    if (v.getClass() == String.class && appendShortString(inner, inner.data, (String) v)) {
      c.nullMap.writeByte(0);
      c.count++;
      return;
    }
    f.append(row);
  }

  /**
   * Appends a String of at most 127 chars and returns true; false (nothing appended) for a
   * longer one. Non-ASCII text is encoded here too, with the bytes the column's own append
   * writes, so that it is not checked for ASCII a second time on the generic path.
   */
  private static boolean appendShortString(Leaves.StringColumn c, ChunkBuffer data, String s) {
    if (s.length() > FAST_STRING_MAX) {
      return false;
    }
    if (!data.writeAsciiWithLength(s)) {
      data.writeUtf8WithLength(s);
    }
    c.push();
    return true;
  }

  /**
   * LowCardinality(String) and LowCardinality(Nullable(String)): a String of any length (the
   * column's own cache and dictionary take it whole), or null for Nullable.
   */
  private static void lowCardinalityString(LowCardinalityColumn c, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v != null) {
      if (v.getClass() == String.class) {
        c.appendString((String) v);
        return;
      }
    } else if (c.nullable) {
      c.appendDefault(); // key 0: the NULL slot
      return;
    }
    f.append(row);
  }

  private static void uuid(Leaves.UuidColumn c, ChunkBuffer data, Fallback f, int field,
      Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == UUID.class) {
      UUID u = (UUID) v;
      data.writeLongLE(u.getMostSignificantBits());
      data.writeLongLE(u.getLeastSignificantBits());
      return;
    }
    f.append(row);
  }

  private static void arrayInt32(Composites.ArrayColumn c, Fallback f, int field, Object[] row) {
    Object v = row[field];
    if (v != null && v.getClass() == int[].class) {
      int[] a = (int[]) v;
      Leaves.IntColumn e = (Leaves.IntColumn) c.element;
      ChunkBuffer data = e.data;
      for (int x : a) {
        data.writeIntLE(x);
      }
      e.count += a.length;
      c.push(a.length);
      return;
    }
    f.append(row);
  }

  /** Decimal(P &lt;= 18): what {@code Conversions.decimalUnscaledFast} converts. */
  private static void decimal(Leaves.DecimalColumn c, ChunkBuffer data, Fallback f, int field,
      int width, int scale, double scaleDouble, long scaleLong, long integerLimit,
      long unscaledLimit, Object[] row) {
    long u = Conversions.decimalUnscaledFast(row[field], scale, scaleDouble, scaleLong,
        integerLimit, unscaledLimit);
    if (u == Conversions.NOT_FAST) {
      f.append(row);
      return;
    }
    if (width == 4) {
      data.writeIntLE((int) u);
    } else {
      data.writeLongLE(u);
    }
  }
}
