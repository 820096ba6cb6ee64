package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a RowBinary frame into one frame per row by walking the values with the columns' types:
 * fixed widths (numbers, Bool, Decimal, Date, DateTime, DateTime64, UUID, IPs, enums,
 * FixedString), VarUInt-prefixed String, Nullable's marker byte, Array's and Map's VarUInt count,
 * Tuple's and Nested's elements, LowCardinality as its inner type (it is invisible in RowBinary);
 * and the types of ClickHouse 20-26 by what they are on the wire (BFloat16, Time, Time64 fixed,
 * SimpleAggregateFunction its value type, QBit and the array-like geo types arrays, Point two
 * Float64).
 */
public final class RowBinarySplitter {
  private RowBinarySplitter() {}

  /**
   * Returns the row boundaries of {@code data}: offsets {@code b[0] = 0 < b[1] < ... < b[n] =
   * length}, or {@code null} when the bytes are not whole rows of {@code types}.
   */
  public static int[] rowBounds(byte[] data, List<ClickHouseType> types) {
    int[] bounds = new int[16];
    int n = 0;
    int pos = 0;
    while (pos < data.length) {
      for (ClickHouseType t : types) {
        pos = skip(t, data, pos);
        if (pos < 0) {
          return null;
        }
      }
      if (n + 2 > bounds.length) {
        bounds = Arrays.copyOf(bounds, bounds.length * 2);
      }
      bounds[++n] = pos;
    }
    return Arrays.copyOf(bounds, n + 1);
  }

  /**
   * Returns one frame per row of {@code frame}, or {@code null} when its bytes are not whole rows
   * of {@code types}.
   */
  public static List<Frame> split(Frame frame, List<ClickHouseType> types) {
    byte[] data = frame.toByteArray();
    int[] bounds = rowBounds(data, types);
    if (bounds == null) {
      return null;
    }
    List<Frame> rows = new ArrayList<>(bounds.length - 1);
    for (int i = 1; i < bounds.length; i++) {
      rows.add(Frame.copyOf(Arrays.copyOfRange(data, bounds[i - 1], bounds[i])));
    }
    return rows;
  }

  /** Returns the offset after one value of {@code type} at {@code pos}, or -1 past the end. */
  static int skip(ClickHouseType type, byte[] data, int pos) {
    int end = data.length;
    switch (type.kind()) {
      case STRING: {
        int[] p = {pos};
        long len = Bytes.varUInt(data, p, end);
        return len < 0 || len > end - p[0] ? -1 : p[0] + (int) len;
      }
      case NULLABLE:
        if (pos >= end) {
          return -1;
        }
        if (data[pos] == 1) {
          return pos + 1;
        }
        return data[pos] == 0 ? skip(type.element(), data, pos + 1) : -1;
      case LOW_CARDINALITY:
        return skip(type.element(), data, pos);
      case ARRAY:
        return skipRepeated(List.of(type.element()), data, pos);
      case NESTED:
        return skipRepeated(type.elements(), data, pos);
      case MAP:
        return skipRepeated(type.elements(), data, pos);
      case TUPLE: {
        int p = pos;
        for (ClickHouseType e : type.elements()) {
          p = skip(e, data, p);
          if (p < 0) {
            return -1;
          }
        }
        return p;
      }
      case NOTHING:
        return pos;
      // Types of ClickHouse 20-26: SimpleAggregateFunction is its value type, QBit and the
      // array-like geo types are arrays, Point is a tuple (BFloat16, Time, Time64: fixed width).
      case SIMPLE_AGGREGATE_FUNCTION:
        return skip(type.element(), data, pos);
      case QBIT: case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON:
      case MULTI_POLYGON:
        return skipRepeated(List.of(type.element()), data, pos);
      case POINT:
        return pos + 16 > end ? -1 : pos + 16;
      default: {
        int w = type.fixedWidth();
        if (w <= 0) {
          throw new IllegalArgumentException("cannot scan RowBinary values of " + type);
        }
        return w > end - pos ? -1 : pos + w;
      }
    }
  }

  /** A VarUInt count, then that many groups of one value per type in {@code group}. */
  private static int skipRepeated(List<ClickHouseType> group, byte[] data, int pos) {
    int[] p = {pos};
    long count = Bytes.varUInt(data, p, data.length);
    if (count < 0 || count > data.length - p[0]) { // every value takes at least one byte
      return -1;
    }
    int at = p[0];
    for (long i = 0; i < count; i++) {
      for (ClickHouseType t : group) {
        at = skip(t, data, at);
        if (at < 0) {
          return -1;
        }
      }
    }
    return at;
  }
}
