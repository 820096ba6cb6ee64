package dev.handoff.encoders.clickhouse.internal;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;

/**
 * A scalar column: its values are written straight into {@link #data} in their final Native
 * encoding, so a block's data is one copy of that buffer. Fixed-width leaves locate value
 * {@code i} by arithmetic; variable-width ones (String) keep the end offset of every value,
 * except at the top level of a block, where nothing asks for it.
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

  /**
   * A leaf of variable-width values, each a VarUInt byte count and that many bytes (String). It
   * records where each value ends, unless {@link #dropOffsets} said it need not: a top-level
   * column is only ever truncated to the rows before a failed row or to 0, so it finds that
   * point by reading the lengths forward from the last point it truncated to. Appending a value
   * is then one count, and the walks of a block read each length at most once.
   */
  abstract static class Variable extends Leaf {
    /** Where each value ends, or null without offsets. */
    private int[] ends = new int[64];
    /** Without offsets: value {@link #markCount} starts at {@link #markStart}, a known boundary. */
    private int markCount;
    private int markStart;

    Variable(ClickHouseType type, String column) {
      super(type, column);
    }

    /**
     * Stops recording value ends: {@link #start} is then unsupported, and a value is complete
     * once written (the row program does not count it: see {@link Column#count}). For a
     * top-level column with no values yet.
     */
    final void dropOffsets() {
      if (count != 0) {
        throw new IllegalStateException("column " + column + " has values");
      }
      ends = null;
    }

    /** Returns whether the column records value ends ({@link #push}) or only counts them. */
    final boolean hasOffsets() {
      return ends != null;
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

    /** Completes the value just written to {@link #data}. */
    final void push() {
      int[] e = ends;
      if (e == null) {
        count++;
        return;
      }
      if (count == e.length) {
        ends = e = java.util.Arrays.copyOf(e, count * 2);
      }
      e[count++] = data.length();
    }

    @Override
    final void truncate(int n) {
      if (ends != null) {
        count = n;
        data.truncate(n == 0 ? 0 : ends[n - 1]);
        return;
      }
      if (n < markCount) {
        markCount = 0;
        markStart = 0;
      }
      int pos = markStart;
      for (int i = markCount; i < n; i++) {
        int len = 0;
        int shift = 0;
        byte b;
        do {
          b = data.getByte(pos++);
          len |= (b & 0x7F) << shift;
          shift += 7;
        } while (b < 0);
        pos += len;
      }
      markCount = n;
      markStart = pos;
      count = n;
      data.truncate(pos);
    }

    @Override
    final int start(int i) {
      if (ends == null) {
        throw new IllegalStateException("column " + column + " keeps no offsets");
      }
      return i == 0 ? 0 : ends[i - 1];
    }

    @Override
    long retainedBytes() {
      return data.capacity() + (ends == null ? 0 : 4L * ends.length);
    }
  }
}
