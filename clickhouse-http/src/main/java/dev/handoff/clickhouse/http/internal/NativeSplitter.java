package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.Frame;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a Native frame (one or more blocks, as the {@code native} encoder writes them)
 * into one single-row block per row. Each block is read column by column with the types its own
 * header names: fixed-width data, String values, Nullable null maps, Array, Map and Nested
 * offsets, Tuple elements, LowCardinality dictionaries and keys, and the types of ClickHouse
 * 20-26 as what they are on the wire (QBit's bit planes sliced per row). A row's block repeats each
 * column's name, type and prefix, and holds that row's slice of every column: offsets rebased to
 * the row, and for LowCardinality the whole dictionary with the row's keys.
 *
 * <p>Returns {@code null} for bytes it cannot read: not whole blocks, BlockInfo fields, a global
 * LowCardinality dictionary, a type the type model does not parse.
 */
public final class NativeSplitter {
  private static final long LC_VERSION = 1;
  private static final long LC_HAS_ADDITIONAL_KEYS = 0x200;
  private static final long LC_NEEDS_GLOBAL_DICTIONARY = 0x100;
  private static final long LC_UPDATES_DICTIONARY = 0x400;

  private final byte[] data;
  private int pos;

  private NativeSplitter(byte[] data) {
    this.data = data;
  }

  /** Returns one single-row block per row of the frame's blocks, or {@code null}. */
  public static List<Frame> split(Frame frame) {
    try {
      return new NativeSplitter(frame.toByteArray()).splitAll();
    } catch (Malformed | IllegalArgumentException e) {
      return null;
    }
  }

  private List<Frame> splitAll() {
    List<Frame> out = new ArrayList<>();
    while (pos < data.length) {
      int columns = count();
      int rows = count();
      int[] headers = new int[columns];
      int[] prefixEnds = new int[columns];
      Column[] cols = new Column[columns];
      for (int c = 0; c < columns; c++) {
        headers[c] = pos;
        skipString(); // name
        String type = string();
        ClickHouseType t = ClickHouseType.parse(type);
        readPrefix(t); // name, type and prefix are contiguous: copied as they are
        prefixEnds[c] = pos;
        cols[c] = readData(t, rows);
      }
      for (int r = 0; r < rows; r++) {
        ChunkBuffer b = new ChunkBuffer(64);
        b.writeVarUInt(columns);
        b.writeVarUInt(1);
        for (int c = 0; c < columns; c++) {
          int start = headers[c];
          b.writeBytes(data, start, prefixEnds[c] - start);
          cols[c].write(b, r, r + 1);
        }
        out.add(b.split());
      }
    }
    return out;
  }

  private void readPrefix(ClickHouseType t) {
    switch (t.kind()) {
      case LOW_CARDINALITY:
        if (need(8) && Bytes.longLE(data, pos) != LC_VERSION) {
          throw new Malformed();
        }
        pos += 8;
        return;
      case NULLABLE:
      case ARRAY:
      case SIMPLE_AGGREGATE_FUNCTION:
        readPrefix(t.element());
        return;
      case TUPLE:
      case NESTED:
      case MAP:
        for (ClickHouseType e : t.elements()) {
          readPrefix(e);
        }
        return;
      default:
    }
  }

  private Column readData(ClickHouseType t, int rows) {
    switch (t.kind()) {
      case STRING: {
        int[] starts = new int[rows + 1];
        for (int r = 0; r < rows; r++) {
          starts[r] = pos;
          skipString();
        }
        starts[rows] = pos;
        return (b, from, to) -> b.writeBytes(data, starts[from], starts[to] - starts[from]);
      }
      case NULLABLE: {
        int map = pos;
        skip(rows);
        Column inner = readData(t.element(), rows);
        return (b, from, to) -> {
          b.writeBytes(data, map + from, to - from);
          inner.write(b, from, to);
        };
      }
      case ARRAY:
        return repeated(List.of(t.element()), rows);
      case NESTED:
      case MAP:
        return repeated(t.elements(), rows);
      case TUPLE: {
        Column[] elements = new Column[t.elements().size()];
        for (int i = 0; i < elements.length; i++) {
          elements[i] = readData(t.elements().get(i), rows);
        }
        return (b, from, to) -> {
          for (Column e : elements) {
            e.write(b, from, to);
          }
        };
      }
      case LOW_CARDINALITY:
        return lowCardinality(t, rows);
      // Types of ClickHouse 20-26 (BFloat16, Time, Time64 are fixed width below).
      case SIMPLE_AGGREGATE_FUNCTION:
        return readData(t.element(), rows);
      case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON: case MULTI_POLYGON:
        return repeated(List.of(t.element()), rows);
      case POINT: {
        Column x = readData(t.elements().get(0), rows);
        Column y = readData(t.elements().get(1), rows);
        return (b, from, to) -> {
          x.write(b, from, to);
          y.write(b, from, to);
        };
      }
      case QBIT:
        return qbit(t, rows);
      default: {
        int w = t.fixedWidth();
        if (w <= 0) {
          throw new Malformed();
        }
        int start = pos;
        skip((long) w * rows);
        return (b, from, to) -> b.writeBytes(data, start + from * w, (to - from) * w);
      }
    }
  }

  /**
   * Array (one element type), Map (key and value) and Nested (its fields, as one Tuple): UInt64
   * cumulative offsets, then the element columns of offsets[rows - 1] values each.
   */
  private Column repeated(List<ClickHouseType> elements, int rows) {
    long[] offsets = new long[rows];
    need((long) rows * 8);
    long last = 0;
    for (int r = 0; r < rows; r++) {
      offsets[r] = Bytes.longLE(data, pos);
      pos += 8;
      if (offsets[r] < last || offsets[r] > data.length) {
        throw new Malformed();
      }
      last = offsets[r];
    }
    int total = (int) last;
    Column[] inner = new Column[elements.size()];
    for (int i = 0; i < inner.length; i++) {
      inner[i] = readData(elements.get(i), total);
    }
    return (b, from, to) -> {
      long base = from == 0 ? 0 : offsets[from - 1];
      for (int r = from; r < to; r++) {
        b.writeLongLE(offsets[r] - base);
      }
      long end = to == 0 ? 0 : offsets[to - 1];
      for (Column c : inner) {
        c.write(b, (int) base, (int) end);
      }
    };
  }

  /**
   * QBit(T, N): one plane per bit of T (8 times T's width), each {@code rows} values of
   * ceil(N / 8) bytes; QBit(T, N, S) those planes of ceil(S / 8) bytes for each of the N / S
   * groups, one group after the other. A part takes its rows' slice of every plane.
   */
  private Column qbit(ClickHouseType t, int rows) {
    int planes = t.length() / t.stride() * 8 * t.element().fixedWidth();
    int width = (t.stride() + 7) / 8;
    int start = pos;
    skip((long) planes * rows * width);
    return (b, from, to) -> {
      for (int p = 0; p < planes; p++) {
        b.writeBytes(data, start + (p * rows + from) * width, (to - from) * width);
      }
    };
  }

  /**
   * LowCardinality data: nothing when the column has no values (the encoder's short form), else
   * UInt64 flags, UInt64 dictionary size, the dictionary (plain values of the inner type without
   * Nullable), UInt64 key count and the keys. A part keeps the whole dictionary and its own keys.
   */
  private Column lowCardinality(ClickHouseType t, int rows) {
    if (rows == 0) {
      return (b, from, to) -> { };
    }
    ClickHouseType inner = t.element();
    ClickHouseType dictType = inner.isNullable() ? inner.element() : inner;
    need(16);
    long flags = Bytes.longLE(data, pos);
    long entries = Bytes.longLE(data, pos + 8);
    pos += 16;
    if ((flags & LC_NEEDS_GLOBAL_DICTIONARY) != 0 || (flags & LC_UPDATES_DICTIONARY) == 0
        || (flags & LC_HAS_ADDITIONAL_KEYS) == 0 || (flags & 0xFF) > 3
        || entries < 0 || entries > data.length) {
      throw new Malformed();
    }
    int width = 1 << (int) (flags & 0xFF);
    Column dict = readData(dictType, (int) entries);
    need(8);
    long keyCount = Bytes.longLE(data, pos);
    pos += 8;
    if (keyCount != rows) {
      throw new Malformed();
    }
    int keys = pos;
    skip((long) rows * width);
    int dictSize = (int) entries;
    return (b, from, to) -> {
      if (to == from) {
        return;
      }
      b.writeLongLE(flags);
      b.writeLongLE(dictSize);
      dict.write(b, 0, dictSize);
      b.writeLongLE(to - from);
      b.writeBytes(data, keys + from * width, (to - from) * width);
    };
  }

  private int count() {
    int[] p = {pos};
    long v = Bytes.varUInt(data, p, data.length);
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new Malformed();
    }
    pos = p[0];
    return (int) v;
  }

  private void skipString() {
    int len = count();
    skip(len);
  }

  private String string() {
    int len = count();
    int start = pos;
    skip(len);
    return new String(data, start, len, UTF_8);
  }

  private void skip(long n) {
    need(n);
    pos += (int) n;
  }

  private boolean need(long n) {
    if (n < 0 || n > data.length - pos) {
      throw new Malformed();
    }
    return true;
  }

  /** Writes rows [from, to) of one column as a column of to - from rows. */
  @FunctionalInterface
  private interface Column {
    void write(ChunkBuffer out, int from, int to);
  }

  /** The bytes are not what this reader understands. */
  private static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed() {
      super(null, null, false, false);
    }
  }
}
