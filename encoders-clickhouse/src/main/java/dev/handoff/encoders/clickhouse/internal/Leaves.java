package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Conversions;
import dev.handoff.clickhouse.value.StringValues;
import java.math.BigInteger;
import java.util.UUID;

/**
 * The scalar columns. Every conversion goes through {@link Conversions}, exactly as in the
 * rowbinary encoder, so both encoders accept the same values and raise the same DATA errors; a
 * value's bytes are its RowBinary bytes (Native data of a fixed-width type is the values
 * concatenated). Conversions throw before anything is written, so a failed value leaves no bytes.
 */
final class Leaves {
  private Leaves() {}

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

  static final class IntColumn extends Leaf.Fixed {
    /** The type's range for a LONG value (UInt64: the non-negative longs). */
    private final long min;
    private final long max;

    IntColumn(ClickHouseType type, String column) {
      super(type, column, type.fixedWidth());
      this.min = Conversions.minLong(type);
      this.max = Conversions.maxLong(type);
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      count++;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      writeLong(Conversions.toLong(acc, row, field, type, column, min, max));
    }

    private void writeLong(long v) {
      switch (width) {
        case 1: data.writeByte((int) v); break;
        case 2: data.writeShortLE((int) v); break;
        case 4: data.writeIntLE((int) v); break;
        default: data.writeLongLE(v);
      }
    }
  }

  static final class BigIntColumn extends Leaf.Fixed {
    BigIntColumn(ClickHouseType type, String column) {
      super(type, column, type.fixedWidth());
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      writeBigLE(Conversions.toBigInteger(acc, row, field, type, column), width, data);
    }
  }

  static final class Float32Column extends Leaf.Fixed {
    Float32Column(ClickHouseType type, String column) {
      super(type, column, 4);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeFloatLE(Conversions.toFloat(acc, row, field, type, column));
    }
  }

  static final class Float64Column extends Leaf.Fixed {
    Float64Column(ClickHouseType type, String column) {
      super(type, column, 8);
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      count++;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeDoubleLE(Conversions.toDouble(acc, row, field, type, column));
    }
  }

  static final class BoolColumn extends Leaf.Fixed {
    BoolColumn(ClickHouseType type, String column) {
      super(type, column, 1);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeByte(Conversions.toBool(acc, row, field, type, column) ? 1 : 0);
    }
  }

  static final class DecimalColumn extends Leaf.Fixed {
    DecimalColumn(ClickHouseType type, String column) {
      super(type, column, type.decimalWidth());
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      long unscaled = Conversions.toDecimalLong(acc, row, field, type, column);
      if (width == 4) {
        data.writeIntLE((int) unscaled);
      } else {
        data.writeLongLE(unscaled);
      }
    }
  }

  static final class BigDecimalColumn extends Leaf.Fixed {
    BigDecimalColumn(ClickHouseType type, String column) {
      super(type, column, type.decimalWidth());
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      writeBigLE(Conversions.toDecimalBig(acc, row, field, type, column), width, data);
    }
  }

  static final class DateColumn extends Leaf.Fixed {
    DateColumn(ClickHouseType type, String column) {
      super(type, column, type.kind() == TypeKind.DATE32 ? 4 : 2);
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      count++;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      int days = Conversions.toEpochDay(acc, row, field, type, column);
      if (width == 4) {
        data.writeIntLE(days);
      } else {
        data.writeShortLE(days);
      }
    }
  }

  static final class DateTimeColumn extends Leaf.Fixed {
    DateTimeColumn(ClickHouseType type, String column) {
      super(type, column, 4);
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      count++;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeIntLE((int) Conversions.toEpochSecond(acc, row, field, type, column));
    }
  }

  static final class DateTime64Column extends Leaf.Fixed {
    DateTime64Column(ClickHouseType type, String column) {
      super(type, column, 8);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeLongLE(Conversions.toDateTime64Ticks(acc, row, field, type, column));
    }
  }

  static final class UuidColumn extends Leaf.Fixed {
    UuidColumn(ClickHouseType type, String column) {
      super(type, column, 16);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      UUID u = Conversions.toUuid(acc, row, field, type, column);
      data.writeLongLE(u.getMostSignificantBits());
      data.writeLongLE(u.getLeastSignificantBits());
    }
  }

  static final class IPv4Column extends Leaf.Fixed {
    IPv4Column(ClickHouseType type, String column) {
      super(type, column, 4);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeIntLE(Conversions.toIPv4(acc, row, field, type, column));
    }
  }

  static final class IPv6Column extends Leaf.Fixed {
    private final byte[] scratch = new byte[16];

    IPv6Column(ClickHouseType type, String column) {
      super(type, column, 16);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      Conversions.toIPv6(acc, row, field, type, column, scratch);
      data.writeBytes(scratch);
    }
  }

  static final class EnumColumn extends Leaf.Fixed {
    EnumColumn(ClickHouseType type, String column) {
      super(type, column, type.kind() == TypeKind.ENUM16 ? 2 : 1);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      int v = Conversions.toEnum(acc, row, field, type, column);
      if (width == 2) {
        data.writeShortLE(v);
      } else {
        data.writeByte(v);
      }
    }
  }

  static final class FixedStringColumn extends Leaf.Fixed {
    FixedStringColumn(ClickHouseType type, String column) {
      super(type, column, type.length());
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      StringValues.writeFixed(acc, row, field, type, column, width, data);
    }
  }

  /** String values stored with their VarUInt length, exactly as the block carries them. */
  static final class StringColumn extends Leaf.Variable {
    /** Scratch for long strings; columns are never shared between shards. */
    private final StringValues strings = new StringValues();

    StringColumn(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      push();
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      strings.write(acc, row, field, type, column, data);
    }

    @Override
    void writeDefault() {
      data.writeByte(0); // the empty string
    }
  }
}
