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
 * <p>The kind depends on the class only. The four most common classes are tested by identity;
 * the others are looked up in a {@link ClassValue}, computed once per class, so {@link #kind} never
 * allocates.
 */
final class JavaValues {
  private JavaValues() {}

  private static final ClassValue<ValueKind> KINDS = new ClassValue<>() {
    @Override
    protected ValueKind computeValue(Class<?> type) {
      return classify(type);
    }
  };

  /** Returns the kind of {@code value}. */
  static ValueKind kind(Object value) {
    if (value == null) {
      return ValueKind.NULL;
    }
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
    if (value instanceof Map<?, ?> map) {
      return flatten(map);
    }
    if (value instanceof Collection<?> c
        && !(value instanceof List<?> && value instanceof RandomAccess)) {
      return c.toArray();
    }
    return value;
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
