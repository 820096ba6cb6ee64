package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
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

  /*
   * The shape of a container, decided by its class (identity for the common ones, a class cache
   * for the rest), never by a chain of instanceof tests: on JDK 17 a failed test against an
   * interface or Object[] scans the class's supertypes, tens of ns per element of an int[].
   */
  private static final int OBJECTS = 0;
  private static final int LIST = 1;
  private static final int LONGS = 2;
  private static final int INTS = 3;
  private static final int SHORTS = 4;
  private static final int BYTES = 5;
  private static final int DOUBLES = 6;
  private static final int FLOATS = 7;
  private static final int BOOLEANS = 8;
  /** Anything else: a Map, another Collection, or no container; read by the slow paths. */
  private static final int OTHER = 9;

  private static final ClassValue<Integer> SHAPES = new ClassValue<>() {
    @Override
    protected Integer computeValue(Class<?> type) {
      if (Object[].class.isAssignableFrom(type)) {
        return OBJECTS;
      }
      if (List.class.isAssignableFrom(type)) {
        return LIST;
      }
      if (type == long[].class) {
        return LONGS;
      }
      if (type == int[].class) {
        return INTS;
      }
      if (type == short[].class) {
        return SHORTS;
      }
      if (type == byte[].class) {
        return BYTES;
      }
      if (type == double[].class) {
        return DOUBLES;
      }
      if (type == float[].class) {
        return FLOATS;
      }
      if (type == boolean[].class) {
        return BOOLEANS;
      }
      return OTHER;
    }
  };

  private static int shape(Object c) {
    if (c == null) {
      return OTHER;
    }
    Class<?> k = c.getClass();
    if (k == Object[].class) {
      return OBJECTS;
    }
    if (k == int[].class) {
      return INTS;
    }
    if (k == long[].class) {
      return LONGS;
    }
    if (k == double[].class) {
      return DOUBLES;
    }
    if (k == ArrayList.class) {
      return LIST;
    }
    return SHAPES.get(k);
  }

  @Override
  public ValueKind kind(Object c, int i) {
    switch (shape(c)) {
      case OBJECTS:
        return JavaValues.kind(((Object[]) c)[i]);
      case LIST:
        return JavaValues.kind(((List<?>) c).get(i));
      case LONGS:
      case INTS:
      case SHORTS:
      case BYTES:
        Objects.checkIndex(i, size(c));
        return ValueKind.LONG;
      case DOUBLES:
      case FLOATS:
        Objects.checkIndex(i, size(c));
        return ValueKind.DOUBLE;
      case BOOLEANS:
        Objects.checkIndex(i, ((boolean[]) c).length);
        return ValueKind.BOOLEAN;
      default:
        return JavaValues.kind(slowElement(c, i));
    }
  }

  @Override
  public boolean isNull(Object c, int i) {
    switch (shape(c)) {
      case OBJECTS:
        return ((Object[]) c)[i] == null;
      case LIST:
        return ((List<?>) c).get(i) == null;
      default:
        return kind(c, i) == ValueKind.NULL;
    }
  }

  @Override
  public Object getObject(Object c, int i) {
    return JavaValues.container(element(c, i));
  }

  @Override
  public long getLong(Object c, int i) {
    switch (shape(c)) {
      case OBJECTS:
        return JavaValues.longValue(((Object[]) c)[i]);
      case LONGS:
        return ((long[]) c)[i];
      case INTS:
        return ((int[]) c)[i];
      case LIST:
        return JavaValues.longValue(((List<?>) c).get(i));
      case SHORTS:
        return ((short[]) c)[i];
      case BYTES:
        return ((byte[]) c)[i];
      default:
        return JavaValues.longValue(element(c, i));
    }
  }

  @Override
  public double getDouble(Object c, int i) {
    switch (shape(c)) {
      case OBJECTS:
        return JavaValues.doubleValue(((Object[]) c)[i]);
      case DOUBLES:
        return ((double[]) c)[i];
      case FLOATS:
        return ((float[]) c)[i];
      case LIST:
        return JavaValues.doubleValue(((List<?>) c).get(i));
      case LONGS:
        return ((long[]) c)[i];
      case INTS:
        return ((int[]) c)[i];
      default:
        return JavaValues.doubleValue(element(c, i));
    }
  }

  @Override
  public boolean getBoolean(Object c, int i) {
    switch (shape(c)) {
      case OBJECTS:
        return JavaValues.booleanValue(((Object[]) c)[i]);
      case BOOLEANS:
        return ((boolean[]) c)[i];
      default:
        return JavaValues.booleanValue(element(c, i));
    }
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
    switch (shape(c)) {
      case OBJECTS:
        return ((Object[]) c).length;
      case LIST:
        return ((List<?>) c).size();
      case LONGS:
        return ((long[]) c).length;
      case INTS:
        return ((int[]) c).length;
      case SHORTS:
        return ((short[]) c).length;
      case BYTES:
        return ((byte[]) c).length;
      case DOUBLES:
        return ((double[]) c).length;
      case FLOATS:
        return ((float[]) c).length;
      case BOOLEANS:
        return ((boolean[]) c).length;
      default:
        if (c instanceof Collection<?> l) {
          return l.size();
        }
        if (c instanceof Map<?, ?> m) {
          return 2 * m.size();
        }
        throw notContainer(c);
    }
  }

  /** Returns element {@code i}, boxed if the container is a primitive array. */
  private static Object element(Object c, int i) {
    switch (shape(c)) {
      case OBJECTS:
        return ((Object[]) c)[i];
      case LIST:
        return ((List<?>) c).get(i);
      case LONGS:
        return ((long[]) c)[i];
      case INTS:
        return ((int[]) c)[i];
      case DOUBLES:
        return ((double[]) c)[i];
      case FLOATS:
        return ((float[]) c)[i];
      case SHORTS:
        return ((short[]) c)[i];
      case BYTES:
        return ((byte[]) c)[i];
      case BOOLEANS:
        return ((boolean[]) c)[i];
      default:
        return slowElement(c, i);
    }
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
