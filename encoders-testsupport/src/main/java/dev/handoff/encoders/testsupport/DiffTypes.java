package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffComposites.value;
import static dev.handoff.encoders.testsupport.DiffJson.jsonLines;
import static dev.handoff.encoders.testsupport.DiffModel.JSON_ROWS;
import static dev.handoff.encoders.testsupport.DiffModel.LIST_ROWS;
import static dev.handoff.encoders.testsupport.DiffModel.pickInt;
import static dev.handoff.encoders.testsupport.DiffValues.isMapped;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.Bad;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.Column;
import dev.handoff.encoders.testsupport.DiffModel.Framing;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.Ip;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Seeded generation of the differential properties' cases: random types over the whole type
 * model (only in the combinations the server accepts), whole cases ({@link #generate}), and the
 * limits of client-v2's readers that the generator stays inside. What a format adds (its own
 * reader's limits, bad rows, how it frames the rows) comes in as a {@link CaseFormat}.
 */
public final class DiffTypes {
  private DiffTypes() {}

  /**
   * What one encoder's differential property adds to the shared generator. The hooks are called
   * in a fixed order on the case's random stream (column types, then rows, then the shape, then
   * the framing), so one seed always makes one case.
   */
  public interface CaseFormat {
    /**
     * Returns the type of a column, given the type {@link #type} drew; may draw again from
     * {@code r}. The default keeps {@code drawn}.
     */
    default ClickHouseType columnType(SplittableRandom r, ClickHouseType drawn) {
      return drawn;
    }

    /** Changes the generated rows in place before the shape is drawn; the default does nothing. */
    default void adjustRows(SplittableRandom r, List<Column> columns, List<List<V>> rows) {}

    /** Draws how the case's rows are framed. */
    Framing framing(SplittableRandom r);

    /**
     * Returns why the format's independent reader cannot judge {@code c} beyond the limits every
     * format shares ({@link #clientV2Limitation(Case, CaseFormat)}), or {@code null}. The default
     * knows none.
     */
    default String limitation(Case c) {
      return null;
    }
  }

  /* ================================================================== client-v2's limits */

  /**
   * Returns why client-v2 0.10.0 cannot decode {@code c} although the bytes are right, or {@code
   * null}: first what {@code format} knows ({@link CaseFormat#limitation}), then, over the good
   * rows, one case every reader shares: an {@code Array(IPv6)} (or {@code Array(LowCardinality(IPv6))})
   * mixing IPv4-mapped addresses ({@code ::ffff:a.b.c.d}, which it decodes to {@code
   * Inet4Address}) with others ({@code Inet6Address}): its reader sizes a typed Java array by
   * the class of the first element, and storing the other class throws {@code
   * IllegalArgumentException: array element type mismatch}. Proof that it is theirs: the
   * rowbinary module's {@code clientV2CannotReadItsOwnArrayOfMixedIPv6}. The generator never
   * makes such a value; the checker skips one only when shrinking makes it.
   */
  public static String clientV2Limitation(Case c, CaseFormat format) {
    String own = format.limitation(c);
    if (own != null) {
      return own;
    }
    for (List<V> row : c.rows()) {
      if (DiffModel.isBad(row)) {
        continue;
      }
      for (int i = 0; i < row.size(); i++) {
        String why = clientV2Limitation(c.columns().get(i).type(), row.get(i));
        if (why != null) {
          return c.columns().get(i) + ": " + why;
        }
      }
    }
    return null;
  }

  private static String clientV2Limitation(ClickHouseType t, V v) {
    if (v.expected() == null || v.expected() instanceof Bad) {
      return null;
    }
    switch (t.kind()) {
      case NULLABLE:
      case LOW_CARDINALITY:
        return clientV2Limitation(t.element(), v);
      case ARRAY:
        for (V part : v.parts()) {
          if (mixesIpv6(t, v.parts().get(0), part)) {
            return "an Array(IPv6) mixing IPv4-mapped and other addresses";
          }
          String why = clientV2Limitation(t.element(), part);
          if (why != null) {
            return why;
          }
        }
        return null;
      case NESTED:
        return clientV2Limitation(ClickHouseType.array(ClickHouseType.tuple(t.elements())), v);
      case TUPLE:
        for (int i = 0; i < v.parts().size(); i++) {
          String why = clientV2Limitation(t.elements().get(i), v.parts().get(i));
          if (why != null) {
            return why;
          }
        }
        return null;
      case MAP:
        for (int i = 0; i < v.parts().size(); i++) {
          String why = clientV2Limitation(t.elements().get(i % 2), v.parts().get(i));
          if (why != null) {
            return why;
          }
        }
        return null;
      default:
        return null;
    }
  }

  /** Whether {@code a} and {@code b}, elements of array type {@code t}, trip that IPv6 bug. */
  public static boolean mixesIpv6(ClickHouseType t, V a, V b) {
    ClickHouseType e = t.element();
    if (e.kind() == TypeKind.LOW_CARDINALITY) {
      e = e.element();
    }
    return e.kind() == TypeKind.IPV6 && isMapped((Ip) a.expected()) != isMapped((Ip) b.expected());
  }

  /* ================================================================== Generating types */

  /** The scalar type families the generator draws from. */
  public static final TypeKind[] SCALARS = {
    TypeKind.INT8, TypeKind.INT16, TypeKind.INT32, TypeKind.INT64, TypeKind.INT128,
    TypeKind.INT256, TypeKind.UINT8, TypeKind.UINT16, TypeKind.UINT32, TypeKind.UINT64,
    TypeKind.UINT128, TypeKind.UINT256, TypeKind.FLOAT32, TypeKind.FLOAT64, TypeKind.BOOL,
    TypeKind.DECIMAL, TypeKind.STRING, TypeKind.FIXED_STRING, TypeKind.DATE, TypeKind.DATE32,
    TypeKind.DATETIME, TypeKind.DATETIME64, TypeKind.UUID, TypeKind.IPV4, TypeKind.IPV6,
    TypeKind.ENUM8, TypeKind.ENUM16,
  };

  /** Zones with DST, half and quarter hours, and a zone far east and west. */
  public static final List<String> ZONES = List.of("UTC", "Asia/Kolkata", "America/New_York",
      "Australia/Lord_Howe", "Asia/Kathmandu", "Europe/Moscow", "Pacific/Chatham",
      "America/St_Johns", "Pacific/Kiritimati", "Etc/GMT+12");

  /** The names of generated Enum8/Enum16 elements. */
  public static final List<String> ENUM_NAMES = List.of("a", "b", "ok", "it's", "back\\slash",
      "na me", "ünï", "日本", "😀", "x=1", "a,b", "(p)", "tab\t", "nl\n", "Z");

  /** A Java enum whose constants are also names of generated Enum8/Enum16 elements. */
  public enum Letter { a, b, ok, Z }

  /** The names of generated named Tuple and Nested elements. */
  public static final List<String> ELEMENT_NAMES = List.of("a", "b", "c", "id", "x1", "_y",
      "value", "Key", "b c", "ünï");

  /** Where a type is used: what the server allows depends on it. */
  public enum Place { COLUMN, ELEMENT, MAP_KEY }

  /**
   * Returns the case of {@code seed}: 1-6 columns of random types ({@link #type}, then {@link
   * CaseFormat#columnType}), 1-8 rows of random values ({@link DiffComposites#value}, then
   * {@link CaseFormat#adjustRows}), a random row shape and the format's framing. A JSON-lines
   * case whose values have no JSON form becomes a List case.
   *
   * @throws IllegalStateException when a type does not re-read as itself or the case is one
   *     client-v2 cannot judge (a generator bug)
   */
  public static Case generate(long seed, CaseFormat format) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = 1 + r.nextInt(6);
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ClickHouseType t = format.columnType(r, type(r, 0, Place.COLUMN));
      ClickHouseType reparsed = ClickHouseType.parse(t.toString()); // the server's rules
      if (!reparsed.equals(t)) {
        throw new IllegalStateException(t + " re-reads as " + reparsed);
      }
      columns.add(new Column("c" + i, t));
    }
    int rowCount = 1 + r.nextInt(8);
    List<List<V>> rows = new ArrayList<>();
    for (int k = 0; k < rowCount; k++) {
      List<V> row = new ArrayList<>();
      for (Column col : columns) {
        row.add(value(r, col.type(), true));
      }
      rows.add(row);
    }
    format.adjustRows(r, columns, rows);
    int shape = r.nextInt(4);
    Framing framing = format.framing(r);
    Case c = new Case(columns, rows, shape, framing);
    if (shape == JSON_ROWS && jsonLines(c) == null) {
      c = new Case(columns, rows, LIST_ROWS, framing);
    }
    String limitation = clientV2Limitation(c, format);
    if (limitation != null) {
      throw new IllegalStateException("generated a case client-v2 cannot judge: " + limitation);
    }
    return c;
  }

  /**
   * Returns a random type for {@code place} at nesting {@code depth}: composites (Array, Tuple,
   * Map, and Nested for a column) less often the deeper, else a scalar, possibly Nullable or
   * LowCardinality.
   */
  public static ClickHouseType type(SplittableRandom r, int depth, Place place) {
    if (place == Place.MAP_KEY) {
      // The server refuses only Nullable keys (also inside LowCardinality); scalars cover the
      // key types people use.
      ClickHouseType key = scalar(r, SCALARS[r.nextInt(SCALARS.length)]);
      return r.nextInt(4) == 0 && fitsLowCardinality(key.kind())
          ? ClickHouseType.lowCardinality(key) : key;
    }
    int compositePercent = depth == 0 ? 45 : depth == 1 ? 30 : depth == 2 ? 12 : 0;
    if (r.nextInt(100) < compositePercent) {
      int roll = r.nextInt(place == Place.COLUMN ? 100 : 88);
      if (roll < 35) {
        return ClickHouseType.array(type(r, depth + 1, Place.ELEMENT));
      }
      if (roll < 62) {
        int size = 1 + r.nextInt(4);
        List<ClickHouseType> elements = new ArrayList<>();
        for (int i = 0; i < size; i++) {
          elements.add(type(r, depth + 1, Place.ELEMENT));
        }
        return r.nextBoolean() ? ClickHouseType.tuple(elements)
            : ClickHouseType.named(TypeKind.TUPLE, names(r, size), elements);
      }
      if (roll < 88) {
        return ClickHouseType.map(type(r, depth + 1, Place.MAP_KEY),
            type(r, depth + 1, Place.ELEMENT));
      }
      // Nested: only a table column (flatten_nested = 0), never inside another type.
      int size = 1 + r.nextInt(3);
      List<ClickHouseType> elements = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        elements.add(type(r, depth + 1, Place.ELEMENT));
      }
      return ClickHouseType.named(TypeKind.NESTED, names(r, size), elements);
    }
    ClickHouseType s = scalar(r, SCALARS[r.nextInt(SCALARS.length)]);
    int wrap = r.nextInt(10);
    if (wrap < 3) {
      return ClickHouseType.nullable(s);
    }
    if (wrap < 5 && fitsLowCardinality(s.kind())) {
      return ClickHouseType.lowCardinality(r.nextBoolean() ? ClickHouseType.nullable(s) : s);
    }
    return s;
  }

  /** Returns whether the server takes {@code LowCardinality} of a scalar of family {@code k}. */
  public static boolean fitsLowCardinality(TypeKind k) {
    switch (k) {
      case DECIMAL: case DATETIME64: case ENUM8: case ENUM16:
        return false;
      default:
        return true;
    }
  }

  private static List<String> names(SplittableRandom r, int size) {
    List<String> pool = new ArrayList<>(ELEMENT_NAMES);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      out.add(pool.remove(r.nextInt(pool.size())));
    }
    return out;
  }

  /** Returns a random scalar type of family {@code k} (precision, scale, zone, enum elements). */
  public static ClickHouseType scalar(SplittableRandom r, TypeKind k) {
    switch (k) {
      case DECIMAL: {
        int p = r.nextInt(3) == 0 ? pickInt(r, 1, 9, 10, 18, 19, 38, 39, 76) : 1 + r.nextInt(76);
        int s = r.nextInt(3) == 0 ? pickInt(r, 0, p) : r.nextInt(p + 1);
        return ClickHouseType.decimal(p, s);
      }
      case FIXED_STRING:
        return ClickHouseType.fixedString(
            r.nextInt(4) == 0 ? pickInt(r, 1, 2, 16) : 1 + r.nextInt(24));
      case DATETIME:
        return ClickHouseType.dateTime(r.nextBoolean() ? null : ZONES.get(r.nextInt(ZONES.size())));
      case DATETIME64:
        return ClickHouseType.dateTime64(r.nextInt(10),
            r.nextBoolean() ? null : ZONES.get(r.nextInt(ZONES.size())));
      case ENUM8:
      case ENUM16: {
        int size = 1 + r.nextInt(r.nextInt(4) == 0 ? ENUM_NAMES.size() : 4);
        List<String> pool = new ArrayList<>(ENUM_NAMES);
        Set<Integer> used = new HashSet<>();
        String[] names = new String[size];
        int[] values = new int[size];
        int min = k == TypeKind.ENUM8 ? Byte.MIN_VALUE : Short.MIN_VALUE;
        int max = k == TypeKind.ENUM8 ? Byte.MAX_VALUE : Short.MAX_VALUE;
        for (int i = 0; i < size; i++) {
          names[i] = pool.remove(r.nextInt(pool.size()));
          int v;
          do {
            v = r.nextInt(3) == 0 ? pickInt(r, min, max, 0, 1, -1) : r.nextInt(min, max + 1);
          } while (!used.add(v));
          values[i] = v;
        }
        return ClickHouseType.enumType(k, names, values);
      }
      default:
        return ClickHouseType.of(k);
    }
  }
}
