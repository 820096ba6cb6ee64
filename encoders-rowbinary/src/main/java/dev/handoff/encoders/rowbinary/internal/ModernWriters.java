package dev.handoff.encoders.rowbinary.internal;

import static dev.handoff.clickhouse.value.Containers.requireKind;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.clickhouse.value.Conversions;
import dev.handoff.clickhouse.value.ModernConversions;

/**
 * RowBinary writers of the scalar and vector types of ClickHouse 24-26: BFloat16 (2 bytes, the
 * upper half of the Float32), Time (Int32 seconds), Time64 (Int64 ticks) and QBit (written as
 * {@code Array(T)}: VarUInt N, then N elements). The geo types, SimpleAggregateFunction and
 * Nullable(Tuple) need no writer of their own: {@link ValueWriter#of} builds them from Tuple,
 * Array, Nullable and their value type.
 */
final class ModernWriters {
  private ModernWriters() {}

  static final class BFloat16Writer extends ValueWriter {
    BFloat16Writer(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      out.writeShortLE(ModernConversions.toBFloat16(acc, row, field, type, column));
    }
  }

  /** Time (4 bytes) and Time64(P) (8 bytes). */
  static final class TimeWriter extends ValueWriter {
    private final boolean wide;

    TimeWriter(ClickHouseType type, String column) {
      super(type, column);
      this.wide = type.kind() == TypeKind.TIME64;
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      if (wide) {
        out.writeLongLE(ModernConversions.toTime64Ticks(acc, row, field, type, column));
      } else {
        out.writeIntLE(ModernConversions.toTimeSeconds(acc, row, field, type, column));
      }
    }
  }

  /** QBit(T, N): a sequence of exactly N values of T, written as Array(T). */
  static final class QBitWriter extends ValueWriter {
    private final ValueWriter element;
    private final int dimension;

    QBitWriter(ClickHouseType type, String column, ValueWriter element) {
      super(type, column);
      this.element = element;
      this.dimension = type.length();
    }

    @Override
    <R> void write(RowAccessor<R> acc, R row, int field, ChunkBuffer out) {
      requireKind(acc, row, field, type, column, ValueKind.SEQUENCE);
      Object container = acc.getObject(row, field);
      RowAccessor<Object> nested = acc.nested(row, field);
      int size = nested.size(container);
      if (size != dimension) {
        throw Conversions.error(acc, row, field, type, column, "has " + size
            + " elements, but " + type + " holds exactly " + dimension);
      }
      out.writeVarUInt(size);
      for (int i = 0; i < size; i++) {
        element.write(nested, container, i, out);
      }
    }
  }
}
