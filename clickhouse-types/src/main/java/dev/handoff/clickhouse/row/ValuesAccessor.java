package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The accessor for nested Java values ({@link RowAccessors#values()}): a container read as
 * fields {@code 0..size-1}.
 *
 * <p>Containers read in O(1) per field, which are what {@code getObject} of every adapter of this
 * package returns for SEQUENCE and MAP values: {@code Object[]} (also the flattened entries of a
 * map, {@code {key0, value0, key1, value1, ...}}), a {@code List} (by {@code get(i)}, so a
 * random-access list), and the primitive arrays {@code long[]}, {@code int[]}, {@code short[]},
 * {@code byte[]}, {@code double[]}, {@code float[]}, {@code boolean[]}, whose elements are read
 * by {@link #getLong}, {@link #getDouble} and {@link #getBoolean} without boxing, and whose
 * {@link #kind} is a constant of the array type.
 *
 * <p>A {@code Map}, or a {@code Collection} that is not a random-access {@code List}, handed in
 * directly is also read, by walking to the field: correct, but O(n) per field. {@link #getObject}
 * of a nested container returns the O(1) form (a map's flattened entries, a collection's {@code
 * toArray()}).
 */
final class ValuesAccessor implements RowAccessor<Object> {
  static final ValuesAccessor INSTANCE = new ValuesAccessor();

  private ValuesAccessor() {}

  @Override
  public ValueKind kind(Object c, int i) {
    if (c instanceof Object[] a) {
      return JavaValues.kind(a[i]);
    }
    if (c instanceof List<?> l) {
      return JavaValues.kind(l.get(i));
    }
    if (c instanceof long[] || c instanceof int[] || c instanceof short[] || c instanceof byte[]) {
      Objects.checkIndex(i, size(c));
      return ValueKind.LONG;
    }
    if (c instanceof double[] || c instanceof float[]) {
      Objects.checkIndex(i, size(c));
      return ValueKind.DOUBLE;
    }
    if (c instanceof boolean[] a) {
      Objects.checkIndex(i, a.length);
      return ValueKind.BOOLEAN;
    }
    return JavaValues.kind(slowElement(c, i));
  }

  @Override
  public boolean isNull(Object c, int i) {
    if (c instanceof Object[] a) {
      return a[i] == null;
    }
    if (c instanceof List<?> l) {
      return l.get(i) == null;
    }
    return kind(c, i) == ValueKind.NULL;
  }

  @Override
  public Object getObject(Object c, int i) {
    return JavaValues.container(element(c, i));
  }

  @Override
  public long getLong(Object c, int i) {
    if (c instanceof Object[] a) {
      return JavaValues.longValue(a[i]);
    }
    if (c instanceof long[] a) {
      return a[i];
    }
    if (c instanceof int[] a) {
      return a[i];
    }
    if (c instanceof List<?> l) {
      return JavaValues.longValue(l.get(i));
    }
    if (c instanceof short[] a) {
      return a[i];
    }
    if (c instanceof byte[] a) {
      return a[i];
    }
    return JavaValues.longValue(element(c, i));
  }

  @Override
  public double getDouble(Object c, int i) {
    if (c instanceof Object[] a) {
      return JavaValues.doubleValue(a[i]);
    }
    if (c instanceof double[] a) {
      return a[i];
    }
    if (c instanceof float[] a) {
      return a[i];
    }
    if (c instanceof List<?> l) {
      return JavaValues.doubleValue(l.get(i));
    }
    if (c instanceof long[] a) {
      return a[i];
    }
    if (c instanceof int[] a) {
      return a[i];
    }
    return JavaValues.doubleValue(element(c, i));
  }

  @Override
  public boolean getBoolean(Object c, int i) {
    if (c instanceof Object[] a) {
      return JavaValues.booleanValue(a[i]);
    }
    if (c instanceof boolean[] a) {
      return a[i];
    }
    return JavaValues.booleanValue(element(c, i));
  }

  @Override
  public BigInteger getBigInteger(Object c, int i) {
    return JavaValues.bigInteger(element(c, i));
  }

  @Override
  public BigDecimal getBigDecimal(Object c, int i) {
    return JavaValues.bigDecimal(element(c, i));
  }

  @Override
  public CharSequence getText(Object c, int i) {
    return JavaValues.text(element(c, i));
  }

  @Override
  public byte[] getBytes(Object c, int i) {
    return JavaValues.bytes(element(c, i));
  }

  @Override
  public RowAccessor<Object> nested(Object c, int i) {
    return this;
  }

  /** Returns the number of elements, or twice the entries of a {@code Map}. */
  @Override
  public int size(Object c) {
    if (c instanceof Object[] a) {
      return a.length;
    }
    if (c instanceof Collection<?> l) {
      return l.size();
    }
    if (c instanceof Map<?, ?> m) {
      return 2 * m.size();
    }
    if (c instanceof long[] a) {
      return a.length;
    }
    if (c instanceof int[] a) {
      return a.length;
    }
    if (c instanceof double[] a) {
      return a.length;
    }
    if (c instanceof float[] a) {
      return a.length;
    }
    if (c instanceof short[] a) {
      return a.length;
    }
    if (c instanceof byte[] a) {
      return a.length;
    }
    if (c instanceof boolean[] a) {
      return a.length;
    }
    throw notContainer(c);
  }

  /** Returns element {@code i}, boxed if the container is a primitive array. */
  private static Object element(Object c, int i) {
    if (c instanceof Object[] a) {
      return a[i];
    }
    if (c instanceof List<?> l) {
      return l.get(i);
    }
    if (c instanceof long[] a) {
      return a[i];
    }
    if (c instanceof int[] a) {
      return a[i];
    }
    if (c instanceof double[] a) {
      return a[i];
    }
    if (c instanceof float[] a) {
      return a[i];
    }
    if (c instanceof short[] a) {
      return a[i];
    }
    if (c instanceof byte[] a) {
      return a[i];
    }
    if (c instanceof boolean[] a) {
      return a[i];
    }
    return slowElement(c, i);
  }

  /** Walks a {@code Map} (key, value, key, ...) or a {@code Collection} to field {@code i}. */
  private static Object slowElement(Object c, int i) {
    if (c instanceof Map<?, ?> m) {
      Objects.checkIndex(i, 2 * m.size());
      Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
      for (int k = 0; k < i / 2; k++) {
        it.next();
      }
      Map.Entry<?, ?> e = it.next();
      return (i & 1) == 0 ? e.getKey() : e.getValue();
    }
    if (c instanceof Collection<?> col) {
      Objects.checkIndex(i, col.size());
      Iterator<?> it = col.iterator();
      for (int k = 0; k < i; k++) {
        it.next();
      }
      return it.next();
    }
    throw notContainer(c);
  }

  private static IllegalArgumentException notContainer(Object c) {
    return new IllegalArgumentException("not a container (Object[], List, Collection, Map or a"
        + " primitive array): " + (c == null ? "null" : c.getClass().getName()));
  }
}
