package dev.handoff.clickhouse.row;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads a field the way an encoder does (kind first, then the matching getter; containers through
 * {@code getObject}, {@code nested} and {@code size}) into plain values that tests compare:
 * LONG as {@code Long}, DOUBLE as {@code Double}, TEXT as {@code String}, BYTES as {@link Bytes},
 * SEQUENCE as a {@code List}, MAP as {@link Pairs}. Checks on the way that {@code isNull} agrees
 * with the kind and that {@code nested} is one shared accessor.
 */
public final class Walk {
  private Walk() {}

  /** A BYTES value, compared by content. */
  public record Bytes(String hex) {
    /** Returns the bytes as a value. */
    public static Bytes of(byte... bytes) {
      return new Bytes(HexFormat.of().formatHex(bytes));
    }
  }

  /** A MAP value: key, value, key, value. */
  public record Pairs(List<Object> flat) {
    /** Returns the pairs {@code k0, v0, k1, v1, ...}. */
    public static Pairs of(Object... flat) {
      return new Pairs(Arrays.asList(flat));
    }
  }

  /** Returns the kinds of fields {@code 0..n-1}. */
  public static <T> List<ValueKind> kinds(RowAccessor<T> acc, T row, int n) {
    List<ValueKind> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(acc.kind(row, i));
    }
    return out;
  }

  /** Returns fields {@code 0..n-1} read as plain values. */
  public static <T> List<Object> row(RowAccessor<T> acc, T row, int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(field(acc, row, i));
    }
    return out;
  }

  /** Returns field {@code f} read as a plain value. */
  public static <T> Object field(RowAccessor<T> acc, T row, int f) {
    ValueKind kind = acc.kind(row, f);
    assertThat(acc.isNull(row, f)).as("isNull of field %d (%s)", f, kind)
        .isEqualTo(kind == ValueKind.NULL);
    switch (kind) {
      case NULL:
        assertThat(acc.getObject(row, f)).isNull();
        return null;
      case BOOLEAN:
        return acc.getBoolean(row, f);
      case LONG:
        return acc.getLong(row, f);
      case DOUBLE:
        return acc.getDouble(row, f);
      case BIG_INTEGER:
        return acc.getBigInteger(row, f);
      case BIG_DECIMAL:
        return acc.getBigDecimal(row, f);
      case TEXT:
        return acc.getText(row, f).toString();
      case BYTES:
        return Bytes.of(acc.getBytes(row, f));
      case SEQUENCE:
      case MAP: {
        Object c = acc.getObject(row, f);
        RowAccessor<Object> n = acc.nested(row, f);
        assertThat(acc.nested(row, f)).as("nested is shared").isSameAs(n);
        int size = n.size(c);
        List<Object> elements = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          elements.add(field(n, c, i));
        }
        if (kind == ValueKind.MAP) {
          assertThat(size % 2).as("a map has pairs").isZero();
          return new Pairs(elements);
        }
        return elements;
      }
      default:
        return acc.getObject(row, f);
    }
  }
}
