package dev.handoff.encoders.rowbinary.internal;

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
 * The fast path of {@link RowBinaryEncoder} for {@code RowAccessors.objectArray()} rows: one
 * {@link MethodHandle} per table, {@code (Object[] row, ChunkBuffer out) -> void}, that writes the
 * row's columns in order. Each column is a static case below with its constants (column index,
 * width, range, decimal scale) bound into the handle; the columns are joined in a balanced tree
 * of {@code foldArguments}.
 *
 * <p><b>Why a method handle.</b> A loop that switches over a per-column code took about 1.25x
 * the time of code written out by hand for the narrow benchmark's schema. The JDK specializes a
 * method handle that is invoked often ("customization"): its compiled form has the bound
 * constants folded and the cases inlined in column order, which is the schema's own
 * straight-line code without generating any bytecode (it won back most of that difference; see
 * docs/benchmarks.md).
 *
 * <p><b>Same bytes, same errors.</b> A case tests the value's class by identity and writes it
 * directly; anything else (another class, a value out of the case's range, a null outside
 * Nullable(String), a String of more than 127 chars, every error) goes to the column's {@link
 * ValueWriter} with nothing written yet, so the output and the errors are the generic path's. An
 * exception from the writer that is not a {@link HandoffException} becomes the DATA error the
 * encoder's generic path gives it.
 */
final class RowProgram {
  private RowProgram() {}

  /** Longest String written by the fast case: as ASCII, its length is one varint byte. */
  private static final int FAST_STRING_MAX = 127;

  private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
  private static final MethodType ROW = MethodType.methodType(void.class, Object[].class,
      ChunkBuffer.class);

  /**
   * Compiles the row program of a table with these column types and writers, or returns null
   * when no column has a fast case (the generic path is then as fast).
   */
  static MethodHandle compile(TableSchema schema, ClickHouseType[] types, ValueWriter[] writers) {
    MethodHandle[] columns = new MethodHandle[types.length];
    boolean any = false;
    for (int i = 0; i < types.length; i++) {
      Fallback f = new Fallback(writers[i], types[i], schema.column(i).name(), i);
      columns[i] = column(types[i], f);
      any |= columns[i] != null;
      if (columns[i] == null) {
        columns[i] = bind("generic", f);
      }
    }
    return any ? tree(columns, 0, columns.length) : null;
  }

  /** The handle of one column, or null for a column without a fast case. */
  private static MethodHandle column(ClickHouseType type, Fallback f) {
    ClickHouseType t = type.kind() == TypeKind.LOW_CARDINALITY ? type.element() : type;
    switch (t.kind()) {
      case INT8: return integer(f, 1, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case UINT8: return integer(f, 1, 0, 0xFF);
      case INT16: return integer(f, 2, Short.MIN_VALUE, Short.MAX_VALUE);
      case UINT16: return integer(f, 2, 0, 0xFFFF);
      case INT32: return integer(f, 4, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case UINT32: return integer(f, 4, 0, 0xFFFF_FFFFL);
      case INT64: return integer(f, 8, Long.MIN_VALUE, Long.MAX_VALUE);
      case UINT64: return integer(f, 8, 0, Long.MAX_VALUE);
      case FLOAT64: return bind("float64", f);
      case DATETIME: return bind("dateTime", f);
      case DATE: return bind("date", f);
      case STRING: return bind("string", f);
      case UUID: return bind("uuid", f);
      case NULLABLE:
        return t.element().kind() == TypeKind.STRING ? bind("nullableString", f) : null;
      case ARRAY:
        return t.element().kind() == TypeKind.INT32 ? bind("arrayInt32", f) : null;
      case DECIMAL:
        if (t.precision() > 18) {
          return null;
        }
        long pow = Conversions.pow10(t.scale());
        MethodHandle decimal = find("decimal", MethodType.methodType(void.class, Fallback.class,
            int.class, int.class, int.class, double.class, long.class, long.class, long.class,
            Object[].class, ChunkBuffer.class));
        return MethodHandles.insertArguments(decimal, 0, f, f.column, t.decimalWidth(),
            t.scale(), (double) pow, pow, Conversions.pow10(t.precision() - t.scale()),
            Conversions.pow10(t.precision()));
      default:
        return null;
    }
  }

  private static MethodHandle integer(Fallback f, int width, long min, long max) {
    return MethodHandles.insertArguments(find("integer", MethodType.methodType(void.class,
        Fallback.class, int.class, int.class, long.class, long.class, Object[].class,
        ChunkBuffer.class)), 0, f, f.column, width, min, max);
  }

  /** The case {@code name}, with the column's fallback and index bound. */
  private static MethodHandle bind(String name, Fallback f) {
    return MethodHandles.insertArguments(
        find(name, ROW.insertParameterTypes(0, Fallback.class, int.class)), 0, f, f.column);
  }

  private static MethodHandle find(String name, MethodType type) {
    try {
      return LOOKUP.findStatic(RowProgram.class, name, type);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("rowbinary: no case " + name + type, e);
    }
  }

  /** Joins columns {@code from..to-1} into one handle that runs them in order. */
  private static MethodHandle tree(MethodHandle[] columns, int from, int to) {
    if (to - from == 1) {
      return columns[from];
    }
    int mid = (from + to) >>> 1;
    // foldArguments(target, combiner) runs the combiner (a void handle), then the target.
    return MethodHandles.foldArguments(tree(columns, mid, to), tree(columns, from, mid));
  }

  /** A column's writer with what its errors name. */
  static final class Fallback {
    private static final RowAccessor<Object[]> ROWS = RowAccessors.objectArray();

    final ValueWriter writer;
    final ClickHouseType type;
    final String name;
    final int column;

    Fallback(ValueWriter writer, ClickHouseType type, String name, int column) {
      this.writer = writer;
      this.type = type;
      this.name = name;
      this.column = column;
    }

    /** Writes the value through the column's writer: the generic path's bytes and errors. */
    void write(Object[] row, ChunkBuffer out) {
      try {
        writer.write(ROWS, row, column, out);
      } catch (HandoffException e) {
        throw e;
      } catch (RuntimeException e) {
        throw Conversions.unreadable(ROWS, row, column, type, name, e);
      }
    }
  }

  // The cases. Each reads row[column] once and returns after writing it, or hands the value,
  // untouched, to f.write. The column index is bound as an int of its own (f.column too):
  // bound arguments are constants in the specialized code, a field of f is a load.

  private static void generic(Fallback f, int column, Object[] row, ChunkBuffer out) {
    f.write(row, out);
  }

  private static void integer(Fallback f, int column, int width, long min, long max,
      Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null) {
      Class<?> c = v.getClass();
      long x;
      if (c == Long.class) {
        x = (Long) v;
      } else if (c == Integer.class) {
        x = (Integer) v;
      } else {
        f.write(row, out);
        return;
      }
      if (x >= min && x <= max) {
        switch (width) {
          case 1: out.writeByte((int) x); break;
          case 2: out.writeShortLE((int) x); break;
          case 4: out.writeIntLE((int) x); break;
          default: out.writeLongLE(x);
        }
        return;
      }
    }
    f.write(row, out);
  }

  private static void float64(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null && v.getClass() == Double.class) {
      out.writeDoubleLE((Double) v);
      return;
    }
    f.write(row, out);
  }

  private static void dateTime(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null && v.getClass() == Instant.class) {
      long s = ((Instant) v).getEpochSecond();
      if (s >= 0 && s <= Conversions.DATETIME_MAX) {
        out.writeIntLE((int) s);
        return;
      }
    }
    f.write(row, out);
  }

  private static void date(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null && v.getClass() == LocalDate.class) {
      long d = ((LocalDate) v).toEpochDay();
      if (d >= 0 && d <= 0xFFFF) {
        out.writeShortLE((int) d);
        return;
      }
    }
    f.write(row, out);
  }

  private static void string(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null && v.getClass() == String.class && writeShortString((String) v, out)) {
      return;
    }
    f.write(row, out);
  }

  private static void nullableString(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v == null) {
      out.writeByte(1);
      return;
    }
    if (v.getClass() == String.class && ((String) v).length() <= FAST_STRING_MAX) {
      out.writeByte(0);
      writeShortString((String) v, out);
      return;
    }
    f.write(row, out);
  }

  /**
   * Writes a String of at most 127 chars with its length and returns true; false (nothing
   * written) for a longer one. Non-ASCII text is encoded here too, with the bytes the column's
   * writer would write, so that it is not checked for ASCII a second time on the generic path.
   */
  private static boolean writeShortString(String s, ChunkBuffer out) {
    if (s.length() > FAST_STRING_MAX) {
      return false;
    }
    if (!out.writeAsciiWithLength(s)) {
      out.writeUtf8WithLength(s);
    }
    return true;
  }

  private static void uuid(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null && v.getClass() == UUID.class) {
      UUID u = (UUID) v;
      out.writeLongLE(u.getMostSignificantBits());
      out.writeLongLE(u.getLeastSignificantBits());
      return;
    }
    f.write(row, out);
  }

  private static void arrayInt32(Fallback f, int column, Object[] row, ChunkBuffer out) {
    Object v = row[column];
    if (v != null && v.getClass() == int[].class) {
      int[] a = (int[]) v;
      out.writeVarUInt(a.length);
      for (int x : a) {
        out.writeIntLE(x);
      }
      return;
    }
    f.write(row, out);
  }

  /**
   * Decimal(P &lt;= 18): the inputs {@code Conversions.decimalUnscaledFast} converts without
   * allocating, with its constants bound in (10^S as a double and a long, 10^(P-S), 10^P).
   */
  private static void decimal(Fallback f, int column, int width, int scale, double scaleDouble,
      long scaleLong, long integerLimit, long unscaledLimit, Object[] row, ChunkBuffer out) {
    long u = Conversions.decimalUnscaledFast(row[column], scale, scaleDouble, scaleLong,
        integerLimit, unscaledLimit);
    if (u == Conversions.NOT_FAST) {
      f.write(row, out);
    } else if (width == 4) {
      out.writeIntLE((int) u);
    } else {
      out.writeLongLE(u);
    }
  }
}
