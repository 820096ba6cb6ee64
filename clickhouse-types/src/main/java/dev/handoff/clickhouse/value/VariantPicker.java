package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.net.Inet4Address;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Picks the type of a {@code Variant} a value is written as: its discriminator, the type's index
 * in the Variant's sorted types, or {@link #NULL} for a NULL.
 *
 * <p>A {@link TypedValue} names the type (it must be one of the Variant's, or the type inside one
 * of its LowCardinality types). Otherwise the value's kind and Java class pick: among the
 * Variant's types that take that kind (integers for a LONG; floats, then Decimal for a DOUBLE;
 * String, FixedString, Enum for TEXT; Array for a SEQUENCE; Map, named Tuple, JSON for a MAP;
 * ...), the only one, else the one that matches the Java class exactly ({@code Long} Int64,
 * {@code Integer} Int32, {@code Short} Int16, {@code Byte} Int8, {@code Double} Float64, {@code
 * Float} Float32, text String). More than one left is an error that says so and names them, as
 * is none at all. Decided from precomputed tables: no allocation per value.
 */
public final class VariantPicker {
  /** The discriminator of NULL. */
  public static final int NULL = 255;

  private final ClickHouseType type;
  /** Per ValueKind ordinal: the candidate indexes. */
  private final int[][] candidates = new int[ValueKind.values().length][];

  /** Prepares the picker of {@code variant}. */
  public VariantPicker(ClickHouseType variant) {
    if (variant.kind() != TypeKind.VARIANT) {
      throw new IllegalArgumentException(variant + " is not a Variant");
    }
    this.type = variant;
    for (ValueKind k : ValueKind.values()) {
      candidates[k.ordinal()] = candidatesOf(k);
    }
  }

  private int[] candidatesOf(ValueKind k) {
    switch (k) {
      case LONG:
        return firstNonEmpty(of(TypeKind.INT8, TypeKind.INT16, TypeKind.INT32, TypeKind.INT64,
            TypeKind.INT128, TypeKind.INT256, TypeKind.UINT8, TypeKind.UINT16, TypeKind.UINT32,
            TypeKind.UINT64, TypeKind.UINT128, TypeKind.UINT256),
            of(TypeKind.FLOAT32, TypeKind.FLOAT64), of(TypeKind.DECIMAL));
      case BIG_INTEGER:
        return firstNonEmpty(of(TypeKind.INT128, TypeKind.INT256, TypeKind.UINT128,
            TypeKind.UINT256), of(TypeKind.INT64, TypeKind.UINT64), of(TypeKind.DECIMAL));
      case DOUBLE:
        return firstNonEmpty(of(TypeKind.FLOAT32, TypeKind.FLOAT64), of(TypeKind.DECIMAL));
      case BIG_DECIMAL:
        return firstNonEmpty(of(TypeKind.DECIMAL), of(TypeKind.FLOAT32, TypeKind.FLOAT64));
      case BOOLEAN:
        return of(TypeKind.BOOL);
      case TEXT:
        return firstNonEmpty(of(TypeKind.STRING), of(TypeKind.FIXED_STRING, TypeKind.ENUM8,
            TypeKind.ENUM16));
      case BYTES:
        return firstNonEmpty(of(TypeKind.STRING), of(TypeKind.FIXED_STRING));
      case UUID:
        return of(TypeKind.UUID);
      case INET:
        return of(TypeKind.IPV4, TypeKind.IPV6);
      case TEMPORAL:
        return of(TypeKind.DATE, TypeKind.DATE32, TypeKind.DATETIME, TypeKind.DATETIME64);
      case SEQUENCE:
        return firstNonEmpty(of(TypeKind.ARRAY, TypeKind.NESTED), of(TypeKind.TUPLE));
      case MAP:
        return firstNonEmpty(of(TypeKind.MAP), namedTuples(), of(TypeKind.JSON));
      default:
        return new int[0];
    }
  }

  private int[] namedTuples() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < type.elements().size(); i++) {
      ClickHouseType t = type.elements().get(i);
      if (t.kind() == TypeKind.TUPLE && t.names() != null) {
        out.add(i);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The indexes of the types of these kinds (LowCardinality looked through). */
  private int[] of(TypeKind... kinds) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < type.elements().size(); i++) {
      TypeKind k = unwrap(type.elements().get(i)).kind();
      for (TypeKind want : kinds) {
        if (k == want) {
          out.add(i);
        }
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int[] firstNonEmpty(int[]... sets) {
    for (int[] s : sets) {
      if (s.length > 0) {
        return s;
      }
    }
    return new int[0];
  }

  private static ClickHouseType unwrap(ClickHouseType t) {
    return t.kind() == TypeKind.LOW_CARDINALITY ? t.element() : t;
  }

  /**
   * Returns the discriminator of field {@code field}: {@link #NULL} for a NULL, the index of the
   * type it is written as otherwise. For a {@link TypedValue} the value to write is its {@code
   * value()}.
   *
   * @throws dev.handoff.api.HandoffException a DATA error naming the column, the value and why
   *     no single type fits
   */
  public <R> int pick(RowAccessor<R> acc, R row, int field, String column) {
    ValueKind kind = acc.kind(row, field);
    if (kind == ValueKind.NULL) {
      return NULL;
    }
    if (kind == ValueKind.OTHER) {
      Object v = acc.getObject(row, field);
      if (v instanceof TypedValue tv) {
        return typed(acc, row, field, column, tv.type());
      }
      if (DynamicValues.isJsonNode(v)) {
        return only(acc, row, field, column, of(TypeKind.JSON), kind);
      }
    }
    int[] c = candidates[kind.ordinal()];
    if (c.length == 1) {
      return c[0];
    }
    if (c.length > 1) {
      TypeKind exact = exactKind(acc.getObject(row, field), kind);
      for (int i : c) {
        if (unwrap(type.elements().get(i)).kind() == exact) {
          return i;
        }
      }
    }
    return only(acc, row, field, column, c, kind);
  }

  /** The one kind a Java class stands for when several types take its ValueKind. */
  private static TypeKind exactKind(Object v, ValueKind kind) {
    if (v == null) {
      return null;
    }
    Class<?> c = v.getClass();
    switch (kind) {
      case LONG:
        return c == Long.class ? TypeKind.INT64 : c == Integer.class ? TypeKind.INT32
            : c == Short.class ? TypeKind.INT16 : c == Byte.class ? TypeKind.INT8 : null;
      case DOUBLE:
        return c == Double.class ? TypeKind.FLOAT64 : c == Float.class ? TypeKind.FLOAT32 : null;
      case TEXT:
      case BYTES:
        return TypeKind.STRING;
      case INET:
        return v instanceof Inet4Address ? TypeKind.IPV4 : TypeKind.IPV6;
      case TEMPORAL:
        return v instanceof LocalDate ? TypeKind.DATE32 : TypeKind.DATETIME64;
      case SEQUENCE:
        return TypeKind.ARRAY;
      default:
        return null;
    }
  }

  private <R> int only(RowAccessor<R> acc, R row, int field, String column, int[] c,
      ValueKind kind) {
    if (c.length == 1) {
      return c[0];
    }
    if (c.length == 0) {
      throw Conversions.error(acc, row, field, type, column, "fits none of the Variant's types"
          + " (wrap it in a TypedValue that names one)");
    }
    StringBuilder names = new StringBuilder();
    for (int i : c) {
      names.append(names.length() == 0 ? "" : ", ").append(type.elements().get(i));
    }
    throw Conversions.error(acc, row, field, type, column, "fits several of the Variant's types ("
        + names + "); wrap it in a TypedValue that names one");
  }

  private <R> int typed(RowAccessor<R> acc, R row, int field, String column, ClickHouseType t) {
    List<ClickHouseType> types = type.elements();
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i).equals(t) || unwrap(types.get(i)).equals(t)) {
        return i;
      }
    }
    throw Conversions.error(acc, row, field, type, column, "names the type " + t
        + ", which is not one of the Variant's types");
  }

  /** Returns the Variant. */
  public ClickHouseType type() {
    return type;
  }
}
