package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks the ClickHouse type of a value written to a {@code Dynamic} column or to a dynamic path of
 * a {@code JSON} column, from its Java type; a {@link TypedValue} names the type itself.
 *
 * <p>Two modes. For a Dynamic column the Java type decides exactly: {@code Long} is Int64, {@code
 * Integer} Int32, {@code Short} Int16, {@code Byte} Int8, {@code Double} Float64, {@code Float}
 * Float32, a list {@code Array(T)} of its elements' common type ({@code Array(Nullable(T))} with
 * null elements, {@code Array(Dynamic)} when they differ), a map {@code Map(K, V)}. For a JSON
 * path it follows what the server infers from JSON text: every integer is Int64 (UInt64 above
 * it), every other number Float64 (a mix of both Float64), an array {@code Array(Nullable(T))},
 * an array of objects {@code Array(JSON(max_dynamic_types=D/2, max_dynamic_paths=P/4))}. In both
 * modes a BigInteger takes the narrowest of Int64, UInt64, Int128, Int256 and UInt256 that holds
 * it, a BigDecimal {@code Decimal(P, S)} of its scale and the narrowest width, text and bytes
 * String, a UUID UUID, a LocalDate Date32, a LocalDateTime DateTime64(9), any other date-time
 * DateTime64(9, 'UTC'), an IP address IPv4 or IPv6, a Boolean Bool.
 */
public final class DynamicValues {
  private DynamicValues() {}

  private static final ClickHouseType INT8 = ClickHouseType.of(TypeKind.INT8);
  private static final ClickHouseType INT16 = ClickHouseType.of(TypeKind.INT16);
  private static final ClickHouseType INT32 = ClickHouseType.of(TypeKind.INT32);
  private static final ClickHouseType INT64 = ClickHouseType.of(TypeKind.INT64);
  private static final ClickHouseType UINT64 = ClickHouseType.of(TypeKind.UINT64);
  private static final ClickHouseType INT128 = ClickHouseType.of(TypeKind.INT128);
  private static final ClickHouseType INT256 = ClickHouseType.of(TypeKind.INT256);
  private static final ClickHouseType UINT256 = ClickHouseType.of(TypeKind.UINT256);
  private static final ClickHouseType FLOAT32 = ClickHouseType.of(TypeKind.FLOAT32);
  private static final ClickHouseType FLOAT64 = ClickHouseType.of(TypeKind.FLOAT64);
  private static final ClickHouseType BOOL = ClickHouseType.of(TypeKind.BOOL);
  private static final ClickHouseType STRING = ClickHouseType.of(TypeKind.STRING);
  private static final ClickHouseType UUID = ClickHouseType.of(TypeKind.UUID);
  private static final ClickHouseType IPV4 = ClickHouseType.of(TypeKind.IPV4);
  private static final ClickHouseType IPV6 = ClickHouseType.of(TypeKind.IPV6);
  private static final ClickHouseType DATE32 = ClickHouseType.of(TypeKind.DATE32);
  private static final ClickHouseType DATETIME64 = ClickHouseType.dateTime64(9, null);
  private static final ClickHouseType DATETIME64_UTC = ClickHouseType.dateTime64(9, "UTC");
  private static final ClickHouseType DYNAMIC = ClickHouseType.of(TypeKind.DYNAMIC);
  private static final ClickHouseType EMPTY_ARRAY =
      ClickHouseType.array(ClickHouseType.nullable(STRING));
  private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  /** Composite types built once: Decimal(P, S). */
  private static final Map<String, ClickHouseType> BUILT = new ConcurrentHashMap<>();
  /**
   * Composite types built once, found by their parts without building a key (so that picking
   * the type of a list allocates nothing): Array(T) by T, Nullable(T) by T, the JSON of arrays
   * of objects by the JSON column's type, Map(K, V) by K then V.
   */
  private static final Map<ClickHouseType, ClickHouseType> ARRAYS = new ConcurrentHashMap<>();
  private static final Map<ClickHouseType, ClickHouseType> NULLABLES = new ConcurrentHashMap<>();
  private static final Map<ClickHouseType, ClickHouseType> NESTED_JSON = new ConcurrentHashMap<>();
  private static final Map<ClickHouseType, Map<ClickHouseType, ClickHouseType>> MAPS =
      new ConcurrentHashMap<>();

  /** Whether a class is (a subclass of) Jackson's JsonNode, decided without Jackson. */
  private static final ClassValue<Boolean> JSON_NODES = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        if (c.getName().equals("com.fasterxml.jackson.databind.JsonNode")) {
          return true;
        }
      }
      return false;
    }
  };

  /** Returns whether {@code value} is a Jackson {@code JsonNode}. */
  public static boolean isJsonNode(Object value) {
    return value != null && JSON_NODES.get(value.getClass());
  }

  /**
   * Returns {@code value} as plain Java values when it is a Jackson {@code JsonNode} (through its
   * JSON text: maps, lists, numbers, strings, booleans, null), else {@code value} itself.
   */
  public static Object plain(Object value) {
    return isJsonNode(value) ? JsonText.parse(value.toString()) : value;
  }

  /**
   * Returns the type field {@code field} of {@code row} is written as, or {@code null} for a
   * NULL.
   *
   * @param json the JSON column the value is a path of (JSON mode), or {@code null} (Dynamic
   *     mode)
   * @param type the column's type, for the error
   * @param column the column's name, for the error
   * @throws dev.handoff.api.HandoffException a DATA error when no type fits
   */
  public static <R> ClickHouseType typeOf(RowAccessor<R> acc, R row, int field,
      ClickHouseType json, ClickHouseType type, String column) {
    try {
      return typeOf(acc, row, field, json);
    } catch (Rejected e) {
      throw ConversionErrors.error(acc, row, field, type, column, e.getMessage());
    } catch (IllegalArgumentException e) {
      throw ConversionErrors.error(acc, row, field, type, column, e.getMessage());
    }
  }

  static <R> ClickHouseType typeOf(RowAccessor<R> acc, R row, int field,
      ClickHouseType json) {
    ValueKind kind = acc.kind(row, field);
    switch (kind) {
      case NULL:
        return null;
      case BOOLEAN:
        return BOOL;
      case LONG:
        if (json != null || acc instanceof JsonFlatLeaves) {
          return INT64; // JSON text holds no narrower integer (and nothing to box here)
        }
        Object o = acc.getObject(row, field);
        Class<?> c = o == null ? Long.class : o.getClass();
        return c == Integer.class ? INT32 : c == Short.class ? INT16 : c == Byte.class ? INT8
            : c == java.util.concurrent.atomic.AtomicInteger.class ? INT32 : INT64;
      case DOUBLE:
        return json == null && !(acc instanceof JsonFlatLeaves)
            && acc.getObject(row, field) instanceof Float ? FLOAT32 : FLOAT64;
      case BIG_INTEGER:
        return bigInteger(acc.getBigInteger(row, field));
      case BIG_DECIMAL:
        return decimal(acc.getBigDecimal(row, field));
      case TEXT:
      case BYTES:
        return STRING;
      case UUID:
        return UUID;
      case TEMPORAL: {
        Object t = acc.getObject(row, field);
        return t instanceof LocalDate ? DATE32 : t instanceof LocalDateTime ? DATETIME64
            : DATETIME64_UTC;
      }
      case INET:
        return acc.getObject(row, field) instanceof Inet4Address ? IPV4 : IPV6;
      case SEQUENCE:
        return sequence(acc, row, field, json);
      case MAP:
        if (json != null) {
          return nestedJson(json);
        }
        return map(acc, row, field);
      default:
        Object v = acc.getObject(row, field);
        if (v instanceof TypedValue tv) {
          return tv.type();
        }
        throw new Rejected("has no ClickHouse type this library picks for "
            + (v == null ? "it" : v.getClass().getName())
            + "; wrap it in a TypedValue that names the type");
    }
  }

  private static ClickHouseType bigInteger(BigInteger b) {
    int bits = b.bitLength();
    if (bits < 64) {
      return INT64;
    }
    if (b.signum() > 0 && b.compareTo(UINT64_MAX) <= 0) {
      return UINT64;
    }
    if (bits < 128) {
      return INT128;
    }
    if (bits < 256) {
      return INT256;
    }
    if (b.signum() > 0 && bits == 256) {
      return UINT256;
    }
    throw new Rejected("is beyond every ClickHouse integer type (256 bits)");
  }

  private static ClickHouseType decimal(BigDecimal d) {
    int scale = Math.max(d.scale(), 0);
    int digits = Math.max(d.precision() - d.scale(), 1) + scale;
    int p = digits <= 9 ? 9 : digits <= 18 ? 18 : digits <= 38 ? 38 : 76;
    if (digits > 76 || scale > 76) {
      throw new Rejected("has more than 76 digits, beyond every Decimal type");
    }
    return built("D" + p + "," + scale, () -> ClickHouseType.decimal(p, scale));
  }

  /** The element type of arrays of objects inside {@code json}. */
  static ClickHouseType nestedJson(ClickHouseType json) {
    ClickHouseType t = NESTED_JSON.get(json);
    if (t == null) {
      int types = json.maxDynamicTypes() / 2;
      int paths = json.maxDynamicPaths() / 4;
      t = cached(NESTED_JSON, json,
          ClickHouseType.json(types, paths, List.of(), List.of(), List.of(), List.of()));
    }
    return t;
  }

  private static <R> ClickHouseType sequence(RowAccessor<R> acc, R row, int field,
      ClickHouseType json) {
    Object container = acc.getObject(row, field);
    RowAccessor<Object> nested = acc.nested(row, field);
    ClickHouseType element = common(nested, container, 0, 1, nested.size(container), json);
    ClickHouseType t = ARRAYS.get(element);
    return t != null ? t : cached(ARRAYS, element, ClickHouseType.array(element));
  }

  /**
   * The common type of fields {@code from, from+step, ...} below {@code to} of a container: one
   * type, Nullable of it when a field is null (JSON mode: always, for a scalar), Dynamic when
   * they differ.
   */
  private static ClickHouseType common(RowAccessor<Object> nested, Object container, int from,
      int step, int to, ClickHouseType json) {
    ClickHouseType common = null;
    boolean nulls = false;
    boolean mixed = false;
    for (int i = from; i < to; i += step) {
      ClickHouseType t = typeOf(nested, container, i, json);
      if (t == null) {
        nulls = true;
      } else if (common == null) {
        common = t;
      } else if (!common.equals(t)) {
        if (json != null && isNumber(common) && isNumber(t)) {
          common = FLOAT64;
        } else {
          mixed = true;
        }
      }
    }
    if (mixed) {
      return DYNAMIC;
    }
    if (common == null) {
      return nulls || json != null ? EMPTY_ARRAY.element() : STRING;
    }
    boolean scalar = canBeNullable(common);
    if ((nulls || json != null) && scalar) {
      ClickHouseType t = NULLABLES.get(common);
      return t != null ? t : cached(NULLABLES, common, ClickHouseType.nullable(common));
    }
    return nulls ? DYNAMIC : common;
  }

  private static boolean isNumber(ClickHouseType t) {
    return t.kind() == TypeKind.INT64 || t.kind() == TypeKind.UINT64
        || t.kind() == TypeKind.FLOAT64;
  }

  private static boolean canBeNullable(ClickHouseType t) {
    switch (t.kind()) {
      case ARRAY: case MAP: case TUPLE: case NESTED: case VARIANT: case DYNAMIC: case JSON:
      case LOW_CARDINALITY: case NULLABLE:
        return false;
      default:
        return true;
    }
  }

  private static <R> ClickHouseType map(RowAccessor<R> acc, R row, int field) {
    Object container = acc.getObject(row, field);
    RowAccessor<Object> nested = acc.nested(row, field);
    int size = nested.size(container);
    ClickHouseType key = STRING;
    for (int i = 0; i < size; i += 2) {
      ClickHouseType k = typeOf(nested, container, i, null);
      if (k == null || !canBeNullable(k)) {
        throw new Rejected("has a map key that is " + (k == null ? "null" : "a " + k)
            + "; a Map key is a non-null scalar");
      }
      if (i == 0) {
        key = k;
      } else if (!key.equals(k)) {
        throw new Rejected("has map keys of different types (" + key + ", " + k + ")");
      }
    }
    ClickHouseType value = size == 0 ? STRING : common(nested, container, 1, 2, size, null);
    Map<ClickHouseType, ClickHouseType> byValue = MAPS.get(key);
    if (byValue == null) {
      byValue = MAPS.size() < 1_000 ? MAPS.computeIfAbsent(key, k -> new ConcurrentHashMap<>())
          : new ConcurrentHashMap<>();
    }
    ClickHouseType t = byValue.get(value);
    return t != null ? t : cached(byValue, value, ClickHouseType.map(key, value));
  }

  /** Keeps {@code t} as {@code cache}'s entry for {@code part} (up to 10,000) and returns it. */
  private static ClickHouseType cached(Map<ClickHouseType, ClickHouseType> cache,
      ClickHouseType part, ClickHouseType t) {
    if (cache.size() < 10_000) {
      ClickHouseType had = cache.putIfAbsent(part, t);
      return had != null ? had : t;
    }
    return t;
  }

  private static ClickHouseType built(String key, java.util.function.Supplier<ClickHouseType> f) {
    ClickHouseType t = BUILT.get(key);
    if (t == null) {
      t = f.get();
      if (BUILT.size() < 10_000) {
        BUILT.put(key, t);
      }
    }
    return t;
  }
}
