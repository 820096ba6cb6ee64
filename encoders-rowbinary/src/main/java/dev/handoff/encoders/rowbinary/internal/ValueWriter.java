package dev.handoff.encoders.rowbinary.internal;

import static dev.handoff.clickhouse.value.Containers.requireKind;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Containers;
import dev.handoff.clickhouse.value.Conversions;
import dev.handoff.clickhouse.value.RecordValues;
import dev.handoff.clickhouse.value.StringValues;
import java.math.BigInteger;
import java.util.List;
import java.util.UUID;

/**
 * Writes one value of one ClickHouse type in RowBinary. A tree of writers mirrors a column's
 * type; composite writers call their children with the nested accessor and container.
 *
 * <p>Writers are compiled once per encoder instance (they may hold scratch space, so an instance
 * is never shared between shards). On bad input they throw the {@code DATA} error of {@link
 * Conversions}; the stage rolls the chunk buffer back to the row's start.
 */
abstract class ValueWriter {
  final ClickHouseType type;
  final String column;

  ValueWriter(ClickHouseType type, String column) {
    this.type = type;
    this.column = column;
  }

  /** Writes field {@code field} of {@code row}. */
  abstract <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out);

  /** Compiles the writer tree of {@code type}; {@code column} names the value in errors. */
  static ValueWriter of(ClickHouseType type, String column) {
    switch (type.kind()) {
      case INT8: case UINT8: case INT16: case UINT16: case INT32: case UINT32: case INT64:
      case UINT64:
        return new IntWriter(type, column);
      case INT128: case UINT128: case INT256: case UINT256:
        return new BigIntWriter(type, column);
      case FLOAT32:
        return new Float32Writer(type, column);
      case FLOAT64:
        return new Float64Writer(type, column);
      case BOOL:
        return new BoolWriter(type, column);
      case DECIMAL:
        return type.decimalWidth() <= 8 ? new DecimalWriter(type, column)
            : new BigDecimalWriter(type, column);
      case STRING:
        return new StringWriter(type, column);
      case FIXED_STRING:
        return new FixedStringWriter(type, column);
      case DATE:
      case DATE32:
        return new DateWriter(type, column);
      case DATETIME:
        return new DateTimeWriter(type, column);
      case DATETIME64:
        return new DateTime64Writer(type, column);
      case UUID:
        return new UuidWriter(type, column);
      case IPV4:
        return new IPv4Writer(type, column);
      case IPV6:
        return new IPv6Writer(type, column);
      case ENUM8:
      case ENUM16:
        return new EnumWriter(type, column);
      case NULLABLE:
        return new NullableWriter(type, column, of(type.element(), column));
      case LOW_CARDINALITY:
        return of(type.element(), column); // invisible in RowBinary
      case ARRAY:
        return new ArrayWriter(type, column, of(type.element(), column + "[]"));
      case TUPLE:
        return new TupleWriter(type, column, children(type.elements(), type.names(), column));
      case NESTED:
        // A single Nested column is Array(Tuple(...)) on the wire.
        return new ArrayWriter(type, column, new TupleWriter(type, column + "[]",
            children(type.elements(), type.names(), column + "[]")));
      case MAP:
        return new MapWriter(type, column, of(type.elements().get(0), column + ".key"),
            of(type.elements().get(1), column + ".value"));
      // Types of ClickHouse 20-26 (issue 15): see ModernWriters.
      case BFLOAT16:
        return new ModernWriters.BFloat16Writer(type, column);
      case TIME:
      case TIME64:
        return new ModernWriters.TimeWriter(type, column);
      case SIMPLE_AGGREGATE_FUNCTION:
        return of(type.element(), column); // a value of T, written as T
      case QBIT:
        return new ModernWriters.QBitWriter(type, column, of(type.element(), column + "[]"));
      case POINT:
        return new TupleWriter(type, column, children(type.elements(), null, column));
      case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON: case MULTI_POLYGON:
        return new ArrayWriter(type, column, of(type.element(), column + "[]"));
      case VARIANT:
        return new VariantWriters.VariantWriter(type, column);
      case DYNAMIC:
        return new VariantWriters.DynamicWriter(type, column, null);
      case JSON:
        return new VariantWriters.JsonWriter(type, column);
      default:
        throw new IllegalArgumentException(
            "column " + column + ": type " + type + " cannot be written in RowBinary");
    }
  }

  private static ValueWriter[] children(List<ClickHouseType> types, List<String> names,
      String column) {
    ValueWriter[] w = new ValueWriter[types.size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = of(types.get(i), column + "." + (names == null ? String.valueOf(i + 1) : names.get(i)));
    }
    return w;
  }

  /** Writes {@code v} as a little-endian two's-complement integer of {@code width} bytes. */
  static void writeBigLE(BigInteger v, int width, ChunkBuffer out) {
    byte[] be = v.toByteArray(); // big-endian, minimal, sign-extended
    int n = Math.min(be.length, width);
    for (int i = 0; i < n; i++) {
      out.writeByte(be[be.length - 1 - i]);
    }
    byte fill = (byte) (v.signum() < 0 ? 0xFF : 0x00);
    for (int i = n; i < width; i++) {
      out.writeByte(fill);
    }
  }

  /* ------------------------------------------------------------------ Scalars */

  static final class IntWriter extends ValueWriter {
    private final int width;
    /** The type's range for a LONG value (UInt64: the non-negative longs). */
    private final long min;
    private final long max;

    IntWriter(ClickHouseType type, String column) {
      super(type, column);
      this.width = type.fixedWidth();
      this.min = Conversions.minLong(type);
      this.max = Conversions.maxLong(type);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      writeInt(Conversions.toLong(acc, row, field, type, column, min, max), out);
    }

    private void writeInt(long v, ChunkBuffer out) {
      switch (width) {
        case 1: out.writeByte((int) v); break;
        case 2: out.writeShortLE((int) v); break;
        case 4: out.writeIntLE((int) v); break;
        default: out.writeLongLE(v);
      }
    }
  }

  static final class BigIntWriter extends ValueWriter {
    BigIntWriter(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      writeBigLE(Conversions.toBigInteger(acc, row, field, type, column), type.fixedWidth(), out);
    }
  }

  static final class Float32Writer extends ValueWriter {
    Float32Writer(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeFloatLE(Conversions.toFloat(acc, row, field, type, column));
    }
  }

  static final class Float64Writer extends ValueWriter {
    Float64Writer(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeDoubleLE(Conversions.toDouble(acc, row, field, type, column));
    }
  }

  static final class BoolWriter extends ValueWriter {
    BoolWriter(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeByte(Conversions.toBool(acc, row, field, type, column) ? 1 : 0);
    }
  }

  static final class DecimalWriter extends ValueWriter {
    private final boolean narrow;

    DecimalWriter(ClickHouseType type, String column) {
      super(type, column);
      this.narrow = type.decimalWidth() == 4;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      long unscaled = Conversions.toDecimalLong(acc, row, field, type, column);
      if (narrow) {
        out.writeIntLE((int) unscaled);
      } else {
        out.writeLongLE(unscaled);
      }
    }
  }

  static final class BigDecimalWriter extends ValueWriter {
    BigDecimalWriter(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      writeBigLE(Conversions.toDecimalBig(acc, row, field, type, column), type.decimalWidth(),
          out);
    }
  }

  static final class StringWriter extends ValueWriter {
    /** Scratch for long strings; writers are never shared between shards. */
    private final StringValues strings = new StringValues();

    StringWriter(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      strings.write(acc, row, field, type, column, out);
    }
  }

  static final class FixedStringWriter extends ValueWriter {
    private final int n;

    FixedStringWriter(ClickHouseType type, String column) {
      super(type, column);
      this.n = type.length();
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      StringValues.writeFixed(acc, row, field, type, column, n, out);
    }
  }

  static final class DateWriter extends ValueWriter {
    private final boolean date32;

    DateWriter(ClickHouseType type, String column) {
      super(type, column);
      this.date32 = type.kind() == dev.handoff.clickhouse.type.TypeKind.DATE32;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      int days = Conversions.toEpochDay(acc, row, field, type, column);
      if (date32) {
        out.writeIntLE(days);
      } else {
        out.writeShortLE(days);
      }
    }
  }

  static final class DateTimeWriter extends ValueWriter {
    DateTimeWriter(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeIntLE((int) Conversions.toEpochSecond(acc, row, field, type, column));
    }
  }

  static final class DateTime64Writer extends ValueWriter {
    DateTime64Writer(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeLongLE(Conversions.toDateTime64Ticks(acc, row, field, type, column));
    }
  }

  static final class UuidWriter extends ValueWriter {
    UuidWriter(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      UUID u = Conversions.toUuid(acc, row, field, type, column);
      out.writeLongLE(u.getMostSignificantBits());
      out.writeLongLE(u.getLeastSignificantBits());
    }
  }

  static final class IPv4Writer extends ValueWriter {
    IPv4Writer(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeIntLE(Conversions.toIPv4(acc, row, field, type, column));
    }
  }

  static final class IPv6Writer extends ValueWriter {
    private final byte[] scratch = new byte[16];

    IPv6Writer(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      Conversions.toIPv6(acc, row, field, type, column, scratch);
      out.writeBytes(scratch);
    }
  }

  static final class EnumWriter extends ValueWriter {
    private final boolean wide;

    EnumWriter(ClickHouseType type, String column) {
      super(type, column);
      this.wide = type.kind() == dev.handoff.clickhouse.type.TypeKind.ENUM16;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      int v = Conversions.toEnum(acc, row, field, type, column);
      if (wide) {
        out.writeShortLE(v);
      } else {
        out.writeByte(v);
      }
    }
  }

  /* ------------------------------------------------------------------ Composites */

  static final class NullableWriter extends ValueWriter {
    private final ValueWriter inner;

    NullableWriter(ClickHouseType type, String column, ValueWriter inner) {
      super(type, column);
      this.inner = inner;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      if (acc.isNull(row, field)) {
        out.writeByte(1); // NULL: nothing follows
      } else {
        out.writeByte(0);
        inner.write(acc, row, field, out);
      }
    }
  }

  static final class ArrayWriter extends ValueWriter {
    private final ValueWriter element;

    ArrayWriter(ClickHouseType type, String column, ValueWriter element) {
      super(type, column);
      this.element = element;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      requireKind(acc, row, field, type, column, ValueKind.SEQUENCE);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int size = nested.size(container);
      out.writeVarUInt(size);
      for (int i = 0; i < size; i++) {
        element.write(nested, container, i, out);
      }
    }
  }

  static final class TupleWriter extends ValueWriter {
    private final ValueWriter[] elements;
    private final List<String> names;

    TupleWriter(ClickHouseType type, String column, ValueWriter[] elements) {
      super(type, column);
      this.elements = elements;
      this.names = type.names();
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      ValueKind kind = acc.kind(row, field);
      if (names != null && kind == ValueKind.MAP) {
        writeByName(acc, row, field, out);
        return;
      }
      if (kind == ValueKind.OTHER && acc.getObject(row, field) instanceof Record r) {
        writeRecord(acc, row, field, r, out);
        return;
      }
      requireKind(acc, row, field, type, column, ValueKind.SEQUENCE);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int size = nested.size(container);
      Containers.requireTupleSize(acc, row, field, type, column, elements.length, size);
      for (int i = 0; i < size; i++) {
        elements[i].write(nested, container, i, out);
      }
    }

    /**
     * Writes a tuple given as a Java record: an unnamed tuple takes its components in order, a
     * named one the components of its element names (exactly those, in any order).
     */
    private <R> void writeRecord(RowAccessor<R> acc, R row, int field, Record r,
        ChunkBuffer out) {
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
          elements[i].write(nested, values, i, out);
        }
        return;
      }
      Containers.requireNamedTupleSize(acc, row, field, type, column, elements.length,
          values.length);
      for (int e = 0; e < elements.length; e++) {
        int at = Containers.namedValueIndex(acc, row, field, type, column, nested, values,
            values.length, names.get(e));
        elements[e].write(nested, values, at, out);
      }
    }

    /**
     * Writes a named tuple given as an object or map (a JSON object, a {@code Map}): each
     * element is the value of the field with its name; a field too many or too few is an error.
     */
    private <R> void writeByName(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int fields = nested.size(container); // names and values alternate
      Containers.requireNamedTupleSize(acc, row, field, type, column, elements.length, fields);
      for (int e = 0; e < elements.length; e++) {
        int at = Containers.namedValueIndex(acc, row, field, type, column, nested, container,
            fields, names.get(e));
        elements[e].write(nested, container, at, out);
      }
    }
  }

  static final class MapWriter extends ValueWriter {
    private final ValueWriter key;
    private final ValueWriter value;

    MapWriter(ClickHouseType type, String column, ValueWriter key, ValueWriter value) {
      super(type, column);
      this.key = key;
      this.value = value;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      requireKind(acc, row, field, type, column, ValueKind.MAP);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int fields = nested.size(container);
      out.writeVarUInt(fields / 2);
      for (int i = 0; i < fields; i += 2) {
        Containers.requireMapKey(acc, row, field, type, column, nested, container, i);
        key.write(nested, container, i, out);
        value.write(nested, container, i + 1, out);
      }
    }
  }
}
