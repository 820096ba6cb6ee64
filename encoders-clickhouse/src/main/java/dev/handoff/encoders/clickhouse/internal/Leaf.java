package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;

/**
 * A scalar column: its values are written straight into {@link #data} in their final Native
 * encoding, so a block's data is one copy of that buffer. Fixed-width leaves locate value
 * {@code i} by arithmetic; variable-width ones (String) keep the end offset of every value.
 *
 * <p>Each value is one contiguous slice of {@link #data}, which is what LowCardinality needs:
 * its dictionary is a leaf, and two values are equal exactly when their slices are.
 */
abstract class Leaf extends Column {
  final ChunkBuffer data = new ChunkBuffer(256);

  Leaf(ClickHouseType type, String column) {
    super(type, column);
  }

  /** Converts field {@code field} and writes its encoding to {@link #data}. */
  abstract <R> void write(RowAccessor<R> acc, R row, int field);

  /** Writes the type's default value to {@link #data}. */
  abstract void writeDefault();

  /** Returns where value {@code i} starts in {@link #data}. */
  abstract int start(int i);

  /** Returns where value {@code i} ends in {@link #data}. */
  final int end(int i) {
    return start(i + 1);
  }

  @Override
  final long dataBytes() {
    return data.length();
  }

  @Override
  final void writeData(ChunkBuffer out) {
    out.writeBuffer(data);
  }

  @Override
  long retainedBytes() {
    return data.capacity();
  }

  /** A leaf whose values all have {@link #width} bytes. */
  abstract static class Fixed extends Leaf {
    final int width;

    Fixed(ClickHouseType type, String column, int width) {
      super(type, column);
      this.width = width;
    }

    /**
     * Not final: the hot leaves override it with the same two steps so that {@code write} is
     * bound statically there (one virtual call per value instead of two).
     */
    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      count++;
    }

    @Override
    final void appendDefault() {
      writeDefault();
      count++;
    }

    @Override
    void writeDefault() {
      data.writeZeros(width);
    }

    @Override
    final void truncate(int n) {
      count = n;
      data.truncate(n * width);
    }

    @Override
    final int start(int i) {
      return i * width;
    }
  }

  /** A leaf of variable-width values: it records where each value ends. */
  abstract static class Variable extends Leaf {
    private int[] ends = new int[64];

    Variable(ClickHouseType type, String column) {
      super(type, column);
    }

    @Override
    <R> void append(RowAccessor<R> acc, R row, int field) {
      write(acc, row, field);
      push();
    }

    @Override
    final void appendDefault() {
      writeDefault();
      push();
    }

    final void push() {
      if (count == ends.length) {
        ends = java.util.Arrays.copyOf(ends, count * 2);
      }
      ends[count++] = data.length();
    }

    @Override
    final void truncate(int n) {
      count = n;
      data.truncate(n == 0 ? 0 : ends[n - 1]);
    }

    @Override
    final int start(int i) {
      return i == 0 ? 0 : ends[i - 1];
    }

    @Override
    long retainedBytes() {
      return data.capacity() + 4L * ends.length;
    }
  }
}
