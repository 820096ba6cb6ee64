package dev.handoff.encoders.clickhouse.internal;

import static dev.handoff.clickhouse.value.Containers.requireKind;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Conversions;
import dev.handoff.clickhouse.value.ModernConversions;
import java.util.Arrays;

/**
 * Native columns of the scalar and vector types of ClickHouse 24-26: BFloat16 (2 bytes per
 * value), Time (Int32 seconds), Time64 (Int64 ticks), and QBit, whose block data is bit planes.
 * The geo types, SimpleAggregateFunction and Nullable(Tuple) need no column of their own: {@link
 * Column#of} builds them from Tuple, Array, Nullable and their value type.
 */
final class ModernColumns {
  private ModernColumns() {}

  static final class BFloat16Column extends Leaf.Fixed {
    BFloat16Column(ClickHouseType type, String column) {
      super(type, column, 2);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      data.writeShortLE(ModernConversions.toBFloat16(acc, row, field, type, column));
    }
  }

  /** Time (4 bytes) and Time64(P) (8 bytes). */
  static final class TimeColumn extends Leaf.Fixed {
    TimeColumn(ClickHouseType type, String column) {
      super(type, column, type.kind() == TypeKind.TIME64 ? 8 : 4);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field) {
      if (width == 8) {
        data.writeLongLE(ModernConversions.toTime64Ticks(acc, row, field, type, column));
      } else {
        data.writeIntLE(ModernConversions.toTimeSeconds(acc, row, field, type, column));
      }
    }
  }

  /**
   * {@code QBit(T, N)}: in a block, one stream per bit of T (the sign bit first), each holding
   * per row a FixedString of B = ceil(N / 8) bytes in which that bit of element j is bit {@code
   * j % 8} of byte {@code B - 1 - j / 8} (the bytes in reverse: element 0 in the last byte, as
   * the 26.7 engine writes it); that is, {@code Tuple(FixedString(B) x bits(T))}. With a stride S
   * ({@code QBit(T, N, S)}) the elements form N / S groups of S, and the block holds each group's
   * streams as a {@code QBit(T, S)} column would, the groups one after the other. The column
   * keeps each row's element bits and transposes them when the block is written, into a scratch
   * array kept from block to block.
   */
  static final class QBitColumn extends Column {
    private final ClickHouseType elementType;
    private final String elementColumn;
    private final int dimension;
    private final int bits;
    /** Elements per group: the stride, N without one. */
    private final int stride;
    private final int groups;
    /** Bytes per row in one stream of one group: ceil(stride / 8). */
    private final int planeBytes;
    /** The element bits of every row, N per row. */
    private long[] values;
    private byte[] planes = new byte[0];

    QBitColumn(ClickHouseType type, String column) {
      super(type, column);
      this.elementType = type.element();
      this.elementColumn = column + "[]";
      this.dimension = type.length();
      this.bits = switch (elementType.kind()) {
        case INT8 -> 8;
        case BFLOAT16 -> 16;
        case FLOAT32 -> 32;
        default -> 64;
      };
      this.stride = type.stride();
      this.groups = dimension / stride;
      this.planeBytes = (stride + 7) / 8;
      this.values = new long[Math.max(16, dimension * 4)];
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      requireKind(acc, row, field, type, column, ValueKind.SEQUENCE);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int size = nested.size(container);
      if (size != dimension) {
        throw Conversions.error(acc, row, field, type, column, "has " + size
            + " elements, but " + type + " holds exactly " + dimension);
      }
      int at = reserve();
      for (int i = 0; i < size; i++) {
        values[at + i] = elementBits(nested, container, i);
      }
      count++;
    }

    private <R> long elementBits(RowAccessor<R> acc, R row, int field) {
      switch (elementType.kind()) {
        case INT8:
          return Conversions.toLong(acc, row, field, elementType, elementColumn, Byte.MIN_VALUE,
              Byte.MAX_VALUE) & 0xFF;
        case BFLOAT16:
          return ModernConversions.toBFloat16(acc, row, field, elementType, elementColumn);
        case FLOAT32:
          return Float.floatToRawIntBits(
              Conversions.toFloat(acc, row, field, elementType, elementColumn)) & 0xFFFF_FFFFL;
        default:
          return Double.doubleToRawLongBits(
              Conversions.toDouble(acc, row, field, elementType, elementColumn));
      }
    }

    /** Makes room for one more row's elements and returns where they start. */
    private int reserve() {
      int at = count * dimension;
      if (at + dimension > values.length) {
        values = Arrays.copyOf(values, Math.max(values.length * 2, at + dimension));
      }
      return at;
    }

    @Override
    void appendDefault() {
      int at = reserve(); // before reading values: reserve() may replace the array
      Arrays.fill(values, at, at + dimension, 0L);
      count++;
    }

    @Override
    void truncate(int n) {
      count = n;
    }

    @Override
    long dataBytes() {
      return (long) groups * bits * count * planeBytes;
    }

    @Override
    void writeData(ChunkBuffer out) {
      int total = (int) dataBytes();
      if (planes.length < total) {
        planes = new byte[Math.max(total, planes.length * 2)];
      }
      Arrays.fill(planes, 0, total, (byte) 0);
      int planeSize = count * planeBytes;
      int groupSize = bits * planeSize;
      for (int r = 0; r < count; r++) {
        int rowAt = r * dimension;
        for (int j = 0; j < dimension; j++) {
          long v = values[rowAt + j];
          if (v == 0) {
            continue;
          }
          int g = j / stride;
          int k = j - g * stride; // the element's place in its group
          int at = g * groupSize + r * planeBytes + planeBytes - 1 - (k >> 3);
          byte mask = (byte) (1 << (k & 7));
          for (int bit = 0; bit < bits; bit++) {
            if ((v >>> bit & 1) != 0) {
              planes[(bits - 1 - bit) * planeSize + at] |= mask;
            }
          }
        }
      }
      out.writeBytes(planes, 0, total);
    }

    @Override
    long retainedBytes() {
      return 8L * values.length + planes.length;
    }
  }
}
