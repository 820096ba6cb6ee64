package dev.handoff.clickhouse.row;

import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one place that decides the {@link ValueKind} of a Java object, and reads it; every adapter
 * of this package and {@link RowAccessors#values()} use it. The table in {@link RowAccessors} is
 * the contract this class implements.
 *
 * <p>The kind depends on the class only. The most common classes are tested by identity; the
 * others are looked up in a {@link ClassValue}, computed once per class, so {@link #kind} never
 * allocates. {@link #container} decides by class too: on JDK 17 an {@code instanceof} test that
 * fails against an interface scans the class's supertypes, which cost tens of nanoseconds per
 * value on the encoders' hot path.
 */
final class JavaValues {
  private JavaValues() {}

  private static final ClassValue<ValueKind> KINDS = new ClassValue<>() {
    @Override
    protected ValueKind computeValue(Class<?> type) {
      return classify(type);
    }
  };

  /**
   * How {@link #container} hands a value out, by class: as it is, as a map's flattened entries,
   * or as a collection's {@code toArray()}.
   */
  private static final int AS_IS = 0;
  private static final int FLATTEN = 1;
  private static final int TO_ARRAY = 2;

  private static final ClassValue<Integer> CONTAINERS = new ClassValue<>() {
    @Override
    protected Integer computeValue(Class<?> type) {
      if (Map.class.isAssignableFrom(type)) {
        return FLATTEN;
      }
      if (Collection.class.isAssignableFrom(type)
          && !(List.class.isAssignableFrom(type) && RandomAccess.class.isAssignableFrom(type))) {
        return TO_ARRAY;
      }
      return AS_IS;
    }
  };

  /** Returns the kind of {@code value}. */
  static ValueKind kind(Object value) {
    if (value == null) {
      return ValueKind.NULL;
    }
    // The commonest classes by identity (a compare each); the rest through the class cache.
    Class<?> c = value.getClass();
    if (c == Long.class || c == Integer.class) {
      return ValueKind.LONG;
    }
    if (c == String.class) {
      return ValueKind.TEXT;
    }
    if (c == Double.class) {
      return ValueKind.DOUBLE;
    }
    if (c == Instant.class || c == LocalDate.class || c == LocalDateTime.class) {
      return ValueKind.TEMPORAL;
    }
    if (c == UUID.class) {
      return ValueKind.UUID;
    }
    return KINDS.get(c);
  }

  /** Returns the kind of every instance of {@code c}; the order settles overlaps. */
  static ValueKind classify(Class<?> c) {
    if (c == Boolean.class) {
      return ValueKind.BOOLEAN;
    }
    if (c == Long.class || c == Integer.class || c == Short.class || c == Byte.class
        || AtomicLong.class.isAssignableFrom(c) || AtomicInteger.class.isAssignableFrom(c)) {
      return ValueKind.LONG;
    }
    if (c == Double.class || c == Float.class) {
      return ValueKind.DOUBLE;
    }
    if (BigInteger.class.isAssignableFrom(c)) {
      return ValueKind.BIG_INTEGER;
    }
    if (BigDecimal.class.isAssignableFrom(c)) {
      return ValueKind.BIG_DECIMAL;
    }
    if (CharSequence.class.isAssignableFrom(c) || c == Character.class || c == char[].class
        || Enum.class.isAssignableFrom(c)) {
      return ValueKind.TEXT;
    }
    if (c == byte[].class) {
      return ValueKind.BYTES;
    }
    if (c == UUID.class) {
      return ValueKind.UUID;
    }
    if (c == Instant.class || c == LocalDate.class || c == LocalDateTime.class
        || c == OffsetDateTime.class || c == ZonedDateTime.class) {
      return ValueKind.TEMPORAL;
    }
    if (InetAddress.class.isAssignableFrom(c)) {
      return ValueKind.INET;
    }
    if (Map.class.isAssignableFrom(c)) {
      return ValueKind.MAP;
    }
    if (Collection.class.isAssignableFrom(c) || Object[].class.isAssignableFrom(c)
        || c == long[].class || c == int[].class || c == short[].class || c == double[].class
        || c == float[].class || c == boolean[].class) {
      return ValueKind.SEQUENCE;
    }
    return ValueKind.OTHER;
  }

  /** Reads a LONG value (also any other {@code Number}, narrowed as {@code longValue} does). */
  static long longValue(Object value) {
    return ((Number) value).longValue();
  }

  /** Reads a DOUBLE value (also any other {@code Number}). */
  static double doubleValue(Object value) {
    return ((Number) value).doubleValue();
  }

  /** Reads a BOOLEAN value. */
  static boolean booleanValue(Object value) {
    return (Boolean) value;
  }

  /** Reads a BIG_INTEGER value. */
  static BigInteger bigInteger(Object value) {
    return (BigInteger) value;
  }

  /** Reads a BIG_DECIMAL value. */
  static BigDecimal bigDecimal(Object value) {
    return (BigDecimal) value;
  }

  /** Reads a BYTES value; the array itself, not a copy. */
  static byte[] bytes(Object value) {
    return (byte[]) value;
  }

  /**
   * Reads a TEXT value: a {@code CharSequence} as it is, an enum constant as its {@code name()},
   * a {@code Character} or a {@code char[]} as a new {@code String}.
   */
  static CharSequence text(Object value) {
    if (value instanceof CharSequence s) {
      return s;
    }
    if (value instanceof Enum<?> e) {
      return e.name();
    }
    if (value instanceof char[] chars) {
      return String.valueOf(chars);
    }
    if (value instanceof Character c) {
      return c.toString();
    }
    throw new ClassCastException(
        value.getClass().getName() + " is not text (CharSequence, Character, char[] or enum)");
  }

  /**
   * Returns what {@code getObject} gives for {@code value}: the value itself, except that a
   * {@code Map} becomes its flattened entries (see {@link #flatten}) and a {@code Collection}
   * that is not a random-access {@code List} becomes {@code toArray()}, so that {@link
   * ValuesAccessor} reads every container field in O(1).
   */
  static Object container(Object value) {
    if (value == null) {
      return null;
    }
    // Decided by class, never by instanceof: on JDK 17 a failed interface test scans the class's
    // interfaces (tens of ns for java.time values), and tests of several interfaces against one
    // class defeat its one-entry cache. Arrays and the common value classes are as they are.
    Class<?> c = value.getClass();
    if (c.isArray() || c == Instant.class || c == LocalDate.class || c == UUID.class
        || c == LocalDateTime.class || c == ArrayList.class) {
      return value;
    }
    switch (CONTAINERS.get(c)) {
      case FLATTEN:
        return flatten((Map<?, ?>) value);
      case TO_ARRAY:
        return ((Collection<?>) value).toArray();
      default:
        return value;
    }
  }

  /**
   * Returns the entries of {@code map} as {@code {key0, value0, key1, value1, ...}} in the map's
   * iteration order: one array per call, the only allocation a map value costs.
   */
  static Object[] flatten(Map<?, ?> map) {
    Object[] out = new Object[map.size() * 2];
    int n = 0;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (n == out.length) {
        out = Arrays.copyOf(out, Math.max(2, n * 2));
      }
      out[n++] = e.getKey();
      out[n++] = e.getValue();
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }
}
