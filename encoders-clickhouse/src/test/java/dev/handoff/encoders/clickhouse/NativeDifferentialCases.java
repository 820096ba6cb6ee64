package dev.handoff.encoders.clickhouse;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.testkit.Gen;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The cases of {@link NativeDifferentialProperties}: the model (columns, generated values and
 * their canonical forms), the seeded generators of types and values, the JSON lines form of a
 * case, and how cases and values are shown in reports.
 */
final class NativeDifferentialCases {
  private NativeDifferentialCases() {}

  /* ================================================================== The case */

  static final int LIST_ROWS = 0;
  static final int ARRAY_ROWS = 1;
  static final int MAP_ROWS = 2;
  static final int JSON_ROWS = 3;

  static final ObjectMapper JSON = new ObjectMapper();

  /** A column of the generated table. */
  record Column(String name, ClickHouseType type) {
    @Override
    public String toString() {
      return name + " " + type;
    }
  }

  /**
   * A generated value: {@code input}, handed to the encoder, and {@code expected}, the canonical
   * value the column must hold. {@code parts} are the values a composite was built from (the
   * elements of an Array, Tuple or Nested, keys and values alternating for a Map), kept for
   * shrinking.
   */
  record V(Object input, Object expected, List<V> parts) {
    static V of(Object input, Object expected) {
      return new V(input, expected, List.of());
    }

    @Override
    public String toString() {
      return show(input) + " ⇒ " + expected;
    }
  }

  /** One generated table: columns, rows of values, and how the rows are given to the encoder. */
  record Case(List<Column> columns, List<List<V>> rows, int shape, int blocks) {
    /** The canonical values of the good rows (a row with a {@link #BAD} cell is rejected). */
    List<List<Object>> expectedRows() {
      List<List<Object>> out = new ArrayList<>();
      for (List<V> row : rows) {
        if (isBad(row)) {
          continue;
        }
        List<Object> r = new ArrayList<>();
        for (V v : row) {
          r.add(v.expected());
        }
        out.add(r);
      }
      return out;
    }

    Case keepColumns(List<Integer> keep) {
      List<Column> cols = new ArrayList<>();
      for (int i : keep) {
        cols.add(columns.get(i));
      }
      List<List<V>> rs = new ArrayList<>();
      for (List<V> row : rows) {
        List<V> r = new ArrayList<>();
        for (int i : keep) {
          r.add(row.get(i));
        }
        rs.add(r);
      }
      return new Case(cols, rs, shape, blocks);
    }

    Case withRows(List<List<V>> rs) {
      return new Case(columns, rs, shape, blocks);
    }

    Case withColumn(int i, ClickHouseType type, UnaryOperator<V> map) {
      List<Column> cols = new ArrayList<>(columns);
      cols.set(i, new Column(columns.get(i).name(), type));
      List<List<V>> rs = new ArrayList<>();
      for (List<V> row : rows) {
        List<V> r = new ArrayList<>(row);
        r.set(i, map.apply(row.get(i)));
        rs.add(r);
      }
      return new Case(cols, rs, shape, blocks);
    }

    Case withCell(int row, int column, V v) {
      List<List<V>> rs = new ArrayList<>(rows);
      List<V> r = new ArrayList<>(rows.get(row));
      r.set(column, v);
      rs.set(row, r);
      return new Case(columns, rs, shape, blocks);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      sb.append(columns.size()).append(" column(s) ").append(columns).append(", ")
          .append(rows.size()).append(" row(s) as ")
          .append(shape == LIST_ROWS ? "List" : shape == ARRAY_ROWS ? "Object[]"
              : shape == MAP_ROWS ? "Map" : "JSON lines")
          .append(" in ").append(blocks).append(" block(s)").append(':');
      List<String> json = shape == JSON_ROWS ? jsonLines(this) : null;
      for (int r = 0; r < rows.size(); r++) {
        sb.append("\n    row ").append(r).append(": ")
            .append(json == null ? rows.get(r).toString() : json.get(r));
      }
      return sb.toString();
    }
  }

  /* ================================================================== Canonical values */

  /** A Float32 value; records compare it like {@link Float#compare}: -0.0 != 0.0, NaN == NaN. */
  record F32(float v) {
    @Override
    public String toString() {
      return v + "f";
    }
  }

  /** A Float64 value; record equality compares like {@link Double#compare}. */
  record F64(double v) {
    @Override
    public String toString() {
      return v + "d";
    }
  }

  /** An IP address as text: dotted quad for IPv4, eight hex groups for IPv6. */
  record Ip(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** The bytes of a String or FixedString value. */
  static final class Bytes {
    final byte[] b;

    Bytes(byte[] b) {
      this.b = b;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes other && Arrays.equals(b, other.b);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(b);
    }

    @Override
    public String toString() {
      String text = utf8(b);
      if (text != null && b.length <= 120) {
        return quote(text, 120);
      }
      return hex(b, 48);
    }
  }

  /** Returns the text of valid UTF-8 bytes, else {@code null}. */
  static String utf8(byte[] b) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  static Ip ip(InetAddress a) {
    return ip(a.getAddress());
  }

  static Ip ip(byte[] a) {
    if (a.length == 4) {
      return new Ip((a[0] & 0xFF) + "." + (a[1] & 0xFF) + "." + (a[2] & 0xFF) + "."
          + (a[3] & 0xFF));
    }
    StringBuilder sb = new StringBuilder();
    for (int g = 0; g < 8; g++) {
      sb.append(g == 0 ? "" : ":")
          .append(Integer.toHexString((a[2 * g] & 0xFF) << 8 | (a[2 * g + 1] & 0xFF)));
    }
    return new Ip(sb.toString());
  }

  static byte[] mapped(byte[] v4) {
    byte[] a = new byte[16];
    a[10] = (byte) 0xFF;
    a[11] = (byte) 0xFF;
    System.arraycopy(v4, 0, a, 12, 4);
    return a;
  }

  /* ================================================================== client-v2's limits */

  /**
   * Returns why client-v2 0.10.0 cannot decode {@code c} although the bytes are right, or {@code
   * null}. One case so far: an {@code Array(IPv6)} (or {@code Array(LowCardinality(IPv6))})
   * mixing IPv4-mapped addresses ({@code ::ffff:a.b.c.d}, which it decodes to {@code
   * Inet4Address}) with others ({@code Inet6Address}): its reader sizes a typed Java array by
   * the class of the first element, and storing the other class throws {@code
   * IllegalArgumentException: array element type mismatch}. Proof that it is theirs: {@link
   * #clientV2CannotReadItsOwnArrayOfMixedIPv6}. The generator never makes such a value; the
   * checker skips one only when shrinking makes it.
   */
  static String clientV2Limitation(Case c) {
    for (int i = 0; i < c.columns().size(); i++) {
      if (!nativeReadable(c.columns().get(i).type())) {
        return c.columns().get(i) + ": client-v2's Native reader cannot decode this type";
      }
    }
    for (List<List<V>> block : blocks(c)) {
      for (int i = 0; i < c.columns().size(); i++) {
        if (c.columns().get(i).type().kind() != TypeKind.ARRAY) {
          continue;
        }
        Set<Integer> lengths = new HashSet<>();
        for (List<V> row : block) {
          if (!isBad(row)) {
            lengths.add(row.get(i).parts().size());
          }
        }
        if (lengths.equals(Set.of(0))) {
          // client-v2 fails with an EOFException on a block whose arrays are all empty, as on
          // the server's own (proof: clientV2MisreadsServerNativeBlocks, array_empty_only)
          return c.columns().get(i) + ": a block whose arrays are all empty, which client-v2's"
              + " Native reader cannot decode";
        }
        if (lengths.size() > 1) {
          return c.columns().get(i) + ": arrays of different lengths in one block " + lengths
              + ", which client-v2's Native reader cannot decode";
        }
      }
    }
    for (List<V> row : c.rows()) {
      if (isBad(row)) {
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

  /**
   * Whether client-v2 0.10.0's {@code NativeFormatReader} decodes a column of type {@code t}.
   * It does not decode the Native layout column by column: for a non-Array column it calls
   * {@code BinaryStreamReader.readValue} once per row, which reads the RowBinary encoding of one
   * value, and for an Array column it reads one UInt64 per row as a <em>size</em> (the format has
   * cumulative offsets) and then, for every row, {@code readArrayItem(element, sizes[0])}, the
   * RowBinary encoding of the first row's number of elements. So its result is right exactly when
   * the column's Native bytes equal the RowBinary bytes of its values: for every scalar type
   * (fixed-width values, String, FixedString), and for Array of a scalar when every row of the
   * block has the same number of elements (the offsets are then L, 2L, ...). Nullable (null map
   * first), LowCardinality (dictionary and indexes), Tuple (one column per element), Map and
   * Nested (offsets, then columns), Array of anything but a scalar, and an Array whose lengths
   * differ in one block are misread. Proof, on server-produced bytes: {@link
   * NativeDifferentialProperties#clientV2MisreadsServerNativeBlocks}.
   */
  static boolean nativeReadable(ClickHouseType t) {
    if (t.kind() == TypeKind.ARRAY) {
      return Arrays.asList(SCALARS).contains(t.element().kind());
    }
    return Arrays.asList(SCALARS).contains(t.kind());
  }

  /**
   * Gives every Array column the same number of elements in every row (the first row's), by
   * dropping or adding elements, so that client-v2's Native reader can judge it (see {@link
   * #nativeReadable}).
   */
  static void equalizeArrays(SplittableRandom r, List<Column> columns, List<List<V>> rows) {
    for (int i = 0; i < columns.size(); i++) {
      ClickHouseType t = columns.get(i).type();
      if (t.kind() != TypeKind.ARRAY || rows.isEmpty()) {
        continue;
      }
      int n = rows.get(0).get(i).parts().size();
      if (n == 0) {
        n = 1 + r.nextInt(3); // all empty: see clientV2Limitation
      }
      for (int k = 0; k < rows.size(); k++) {
        List<V> parts = new ArrayList<>(rows.get(k).get(i).parts());
        if (parts.size() == n) {
          continue;
        }
        while (parts.size() > n) {
          parts.remove(parts.size() - 1);
        }
        while (parts.size() < n) {
          V v = value(r, t.element(), false);
          V first = parts.isEmpty() ? v : parts.get(0);
          if (!mixesIpv6(t, first, v)) {
            parts.add(v);
          }
        }
        rows.get(k).set(i, arrayV(parts, r.nextInt(4)));
      }
    }
  }

  /** The rows of {@code c} as its encoder's blocks: {@code c.blocks()} nearly equal runs. */
  static List<List<List<V>>> blocks(Case c) {
    List<List<List<V>>> out = new ArrayList<>();
    int n = c.rows().size();
    for (int b = 0; b < c.blocks(); b++) {
      out.add(c.rows().subList(n * b / c.blocks(), n * (b + 1) / c.blocks()));
    }
    return out;
  }

  /* ================================================================== Bad values */

  /**
   * The canonical value of a bad cell: the encoder must refuse the row with a DATA error, and the
   * row is in no block. {@code json} is its JSON form.
   */
  record Bad(String json) {
    @Override
    public String toString() {
      return "BAD " + json;
    }
  }

  static boolean isBad(List<V> row) {
    for (V v : row) {
      if (v.expected() instanceof Bad) {
        return true;
      }
    }
    return false;
  }

  /**
   * A value of {@code t} (a type {@link #nativeReadable}, so never Nullable) the conversions
   * refuse: null, text that is no value of the type, a too long FixedString, an unknown enum
   * name, a non-list for an Array, or an Array with one bad element after good ones.
   */
  static V badValue(SplittableRandom r, ClickHouseType t) {
    if (r.nextInt(4) == 0) {
      return new V(null, new Bad("null"), List.of());
    }
    switch (t.kind()) {
      case ARRAY: {
        if (r.nextInt(3) == 0) {
          return new V(5L, new Bad("5"), List.of());
        }
        List<Object> in = new ArrayList<>();
        StringBuilder json = new StringBuilder("[");
        for (int i = 0, n = r.nextInt(3); i < n; i++) {
          V good = value(r, t.element(), false);
          in.add(good.input());
          StringBuilder sb = new StringBuilder();
          try {
            json(sb, t.element(), good.expected(), i);
          } catch (NotJson e) {
            sb = new StringBuilder("null"); // still bad
          }
          json.append(sb).append(", ");
        }
        V bad = badValue(r, t.element());
        in.add(bad.input());
        json.append(((Bad) bad.expected()).json()).append(']');
        return new V(in, new Bad(json.toString()), List.of());
      }
      case STRING:
        return new V(null, new Bad("null"), List.of());
      case FIXED_STRING: {
        String s = "a".repeat(t.length() + 1);
        return new V(s, new Bad(jsonString(s)), List.of());
      }
      case ENUM8:
      case ENUM16:
        return badText("no such name");
      case IPV4:
        return badText("300.1.1.1");
      case IPV6:
        return badText("2001:db8:::1");
      case UUID:
        return badText("zz");
      case BOOL:
        return badText("maybe");
      case DATE: case DATE32: case DATETIME: case DATETIME64:
        return badText("no time");
      default:
        return badText(pick(r, "twelve", "1,5", "abc"));
    }
  }

  private static V badText(String s) {
    return new V(s, new Bad(jsonString(s)), List.of());
  }

  /** Whether {@code a} and {@code b}, elements of array type {@code t}, trip that IPv6 bug. */
  static boolean mixesIpv6(ClickHouseType t, V a, V b) {
    ClickHouseType e = t.element();
    if (e.kind() == TypeKind.LOW_CARDINALITY) {
      e = e.element();
    }
    return e.kind() == TypeKind.IPV6 && isMapped((Ip) a.expected()) != isMapped((Ip) b.expected());
  }

  static boolean isMapped(Ip ip) {
    return ip.text().startsWith("0:0:0:0:0:ffff:");
  }

  /* ================================================================== JSON lines */

  /**
   * Returns the rows of {@code c} as JSON lines for the JsonNode adapter, built from the
   * canonical values (so they say the same thing in JSON's terms), or {@code null} when a value
   * has no JSON form (a string that is not UTF-8). Every third row is a JSON array (columns by
   * position), the others objects (every other one leaving its nulls out). Numbers, dates,
   * enums and named tuples take one of their JSON forms, chosen by the value's hash.
   */
  static List<String> jsonLines(Case c) {
    List<String> lines = new ArrayList<>();
    try {
      for (int r = 0; r < c.rows().size(); r++) {
        List<V> row = c.rows().get(r);
        boolean array = r % 3 == 2;
        StringBuilder sb = new StringBuilder(array ? "[" : "{");
        boolean first = true;
        for (int i = 0; i < row.size(); i++) {
          Object v = row.get(i).expected();
          if (v instanceof Bad bad) {
            sb.append(first ? "" : ", ");
            first = false;
            if (!array) {
              sb.append(jsonString(c.columns().get(i).name())).append(": ");
            }
            sb.append(bad.json());
            continue;
          }
          if (!array && v == null && r % 2 == 1) {
            continue; // a missing field reads as null
          }
          sb.append(first ? "" : ", ");
          first = false;
          if (!array) {
            sb.append(jsonString(c.columns().get(i).name())).append(": ");
          }
          json(sb, c.columns().get(i).type(), v, r * 31 + i);
        }
        lines.add(sb.append(array ? "]" : "}").toString());
      }
    } catch (NotJson e) {
      return null;
    }
    return lines;
  }

  /** A value without a JSON form. */
  static final class NotJson extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotJson() {
      super(null, null, false, false);
    }
  }

  /** Appends canonical value {@code v} of type {@code t} as JSON. */
  static void json(StringBuilder sb, ClickHouseType t, Object v, int salt) {
    if (v == null) {
      sb.append("null");
      return;
    }
    int form = ((Objects.hashCode(v) ^ salt) & 0x7FFF_FFFF) % 3;
    switch (t.kind()) {
      case NULLABLE:
      case LOW_CARDINALITY:
        json(sb, t.element(), v, salt);
        return;
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256:
        sb.append(form == 0 ? jsonString(v.toString()) : v.toString());
        return;
      case FLOAT32: {
        float f = ((F32) v).v();
        if (Float.isNaN(f) || Float.isInfinite(f) || form == 0) {
          sb.append(jsonString(keyText(t, v)));
        } else if (f == 0 && 1 / f < 0) {
          sb.append("-0.0");
        } else {
          sb.append(new BigDecimal((double) f)); // exact, so the double is this float
        }
        return;
      }
      case FLOAT64: {
        double d = ((F64) v).v();
        sb.append(Double.isNaN(d) || Double.isInfinite(d) || form == 0
            ? jsonString(keyText(t, v)) : Double.toString(d));
        return;
      }
      case BOOL:
        sb.append(form == 0 ? jsonString(v.toString()) : v.toString());
        return;
      case DECIMAL: {
        BigDecimal bd = (BigDecimal) v;
        if (form == 1 && BigDecimal.valueOf(bd.doubleValue()).compareTo(bd) == 0) {
          sb.append(Double.toString(bd.doubleValue())); // a DoubleNode that is this decimal
        } else if (form == 2 && (bd.signum() == 0 || bd.stripTrailingZeros().scale() <= 0)) {
          sb.append(bd.toBigIntegerExact()); // an integer node
        } else {
          sb.append(jsonString(bd.toPlainString()));
        }
        return;
      }
      case DATE:
      case DATE32:
        sb.append(form == 0 ? Long.toString(((LocalDate) v).toEpochDay())
            : jsonString(v.toString()));
        return;
      case DATETIME:
        sb.append(form == 0 ? Long.toString(((Instant) v).getEpochSecond())
            : jsonString(v.toString()));
        return;
      case DATETIME64: {
        Instant i = (Instant) v;
        long unit = BigInteger.TEN.pow(t.precision()).longValueExact();
        sb.append(form == 0
            ? BigInteger.valueOf(i.getEpochSecond()).multiply(BigInteger.valueOf(unit))
                .add(BigInteger.valueOf(i.getNano() / (1_000_000_000L / unit))).toString()
            : jsonString(v.toString()));
        return;
      }
      case ENUM8:
      case ENUM16:
        sb.append(form == 0 ? v.toString() : jsonString(keyText(t, v)));
        return;
      case ARRAY:
      case NESTED: {
        ClickHouseType e = t.kind() == TypeKind.ARRAY ? t.element()
            : ClickHouseType.named(TypeKind.TUPLE, t.names(), t.elements());
        sb.append('[');
        List<?> l = (List<?>) v;
        for (int i = 0; i < l.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          json(sb, e, l.get(i), salt * 7 + i);
        }
        sb.append(']');
        return;
      }
      case TUPLE: {
        List<?> l = (List<?>) v;
        boolean object = t.names() != null && form != 0;
        sb.append(object ? '{' : '[');
        for (int i = 0; i < l.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          if (object) {
            sb.append(jsonString(t.names().get(i))).append(": ");
          }
          json(sb, t.elements().get(i), l.get(i), salt * 7 + i);
        }
        sb.append(object ? '}' : ']');
        return;
      }
      case MAP: {
        sb.append('{');
        List<?> pairs = (List<?>) v;
        for (int i = 0; i < pairs.size(); i++) {
          List<?> pair = (List<?>) pairs.get(i);
          sb.append(i == 0 ? "" : ", ")
              .append(jsonString(keyText(t.elements().get(0), pair.get(0)))).append(": ");
          json(sb, t.elements().get(1), pair.get(1), salt * 7 + i);
        }
        sb.append('}');
        return;
      }
      default:
        sb.append(jsonString(keyText(t, v))); // strings, UUID, IPs
    }
  }

  /** A canonical value as text its column accepts (JSON object keys, quoted JSON values). */
  static String keyText(ClickHouseType t, Object v) {
    switch (t.kind()) {
      case LOW_CARDINALITY:
        return keyText(t.element(), v);
      case FLOAT32: {
        float f = ((F32) v).v();
        return Float.isNaN(f) ? "nan" : Float.isInfinite(f) ? (f > 0 ? "inf" : "-inf")
            : Float.toString(f);
      }
      case FLOAT64: {
        double d = ((F64) v).v();
        return Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf")
            : Double.toString(d);
      }
      case DECIMAL:
        return ((BigDecimal) v).toPlainString();
      case STRING:
      case FIXED_STRING: {
        byte[] b = ((Bytes) v).b;
        int n = b.length;
        while (t.kind() == TypeKind.FIXED_STRING && n > 0 && b[n - 1] == 0) {
          n--; // the encoder pads again
        }
        String text = utf8(Arrays.copyOf(b, n));
        if (text == null) {
          throw new NotJson();
        }
        return text;
      }
      case ENUM8:
      case ENUM16:
        for (int i = 0; i < t.enumSize(); i++) {
          if (t.enumValue(i) == (Integer) v) {
            return t.enumName(i);
          }
        }
        throw new IllegalStateException(v + " is not a value of " + t);
      default:
        return v.toString(); // integers, Bool, dates (ISO), instants (ISO), UUID, IPs
    }
  }

  /** Quotes {@code s} as a JSON string. */
  static String jsonString(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"' || ch == '\\') {
        sb.append('\\').append(ch);
      } else if (ch < 0x20) {
        sb.append(String.format("\\u%04x", (int) ch));
      } else {
        sb.append(ch);
      }
    }
    return sb.append('"').toString();
  }

  /* ================================================================== Generating types */

  static final TypeKind[] SCALARS = {
    TypeKind.INT8, TypeKind.INT16, TypeKind.INT32, TypeKind.INT64, TypeKind.INT128,
    TypeKind.INT256, TypeKind.UINT8, TypeKind.UINT16, TypeKind.UINT32, TypeKind.UINT64,
    TypeKind.UINT128, TypeKind.UINT256, TypeKind.FLOAT32, TypeKind.FLOAT64, TypeKind.BOOL,
    TypeKind.DECIMAL, TypeKind.STRING, TypeKind.FIXED_STRING, TypeKind.DATE, TypeKind.DATE32,
    TypeKind.DATETIME, TypeKind.DATETIME64, TypeKind.UUID, TypeKind.IPV4, TypeKind.IPV6,
    TypeKind.ENUM8, TypeKind.ENUM16,
  };

  /** Zones with DST, half and quarter hours, and a zone far east and west. */
  static final List<String> ZONES = List.of("UTC", "Asia/Kolkata", "America/New_York",
      "Australia/Lord_Howe", "Asia/Kathmandu", "Europe/Moscow", "Pacific/Chatham",
      "America/St_Johns", "Pacific/Kiritimati", "Etc/GMT+12");

  static final List<String> ENUM_NAMES = List.of("a", "b", "ok", "it's", "back\\slash", "na me",
      "ünï", "日本", "😀", "x=1", "a,b", "(p)", "tab\t", "nl\n", "Z");

  /** A Java enum whose constants are also names of generated Enum8/Enum16 elements. */
  enum Letter { a, b, ok, Z }

  static final List<String> ELEMENT_NAMES = List.of("a", "b", "c", "id", "x1", "_y", "value",
      "Key", "b c", "ünï");

  /** Where a type is used: what the server allows depends on it. */
  enum Place { COLUMN, ELEMENT, MAP_KEY }

  static Case generate(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = 1 + r.nextInt(6);
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ClickHouseType t = type(r, 0, Place.COLUMN);
      // Only the types client-v2's Native reader decodes (see nativeReadable): redraw the others.
      for (int tries = 0; !nativeReadable(t); tries++) {
        t = tries < 30 ? type(r, 0, Place.COLUMN) : scalar(r, SCALARS[r.nextInt(SCALARS.length)]);
      }
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
    equalizeArrays(r, columns, rows);
    // About one row in four carries one bad value at a random column (see badValue).
    for (List<V> row : rows) {
      if (r.nextInt(4) == 0) {
        int at = r.nextInt(columns.size());
        row.set(at, badValue(r, columns.get(at).type()));
      }
    }
    int shape = r.nextInt(4);
    int blocks = 1 + r.nextInt(3);
    Case c = new Case(columns, rows, shape, blocks);
    if (shape == JSON_ROWS && jsonLines(c) == null) {
      c = new Case(columns, rows, LIST_ROWS, blocks);
    }
    String limitation = clientV2Limitation(c);
    if (limitation != null) {
      throw new IllegalStateException("generated a case client-v2 cannot judge: " + limitation);
    }
    return c;
  }

  static ClickHouseType type(SplittableRandom r, int depth, Place place) {
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

  static boolean fitsLowCardinality(TypeKind k) {
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

  static ClickHouseType scalar(SplittableRandom r, TypeKind k) {
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

  /* ================================================================== Generating values */

  static final BigInteger TWO_53 = BigInteger.ONE.shiftLeft(53);

  /**
   * Returns a value of type {@code t}: an input the encoder must accept and the canonical value
   * it stands for. {@code top} is true for a table column (through Nullable and LowCardinality),
   * false inside Array, Tuple, Map and Nested.
   */
  static V value(SplittableRandom r, ClickHouseType t, boolean top) {
    switch (t.kind()) {
      case NULLABLE:
        return r.nextInt(10) < 3 ? V.of(null, null) : value(r, t.element(), top);
      case LOW_CARDINALITY:
        return value(r, t.element(), top);
      case ARRAY:
        return arrayValue(r, t, top);
      case TUPLE: {
        List<V> parts = new ArrayList<>();
        for (ClickHouseType e : t.elements()) {
          parts.add(value(r, e, false));
        }
        return tupleV(parts, r.nextInt(t.names() == null ? 2 : 3), t.names());
      }
      case NESTED: {
        ClickHouseType tuple = ClickHouseType.named(TypeKind.TUPLE, t.names(), t.elements());
        List<V> parts = new ArrayList<>();
        for (int i = 0, n = length(r); i < n; i++) {
          parts.add(value(r, tuple, false));
        }
        return arrayV(parts, r.nextInt(3));
      }
      case MAP: {
        List<V> keys = new ArrayList<>();
        List<V> values = new ArrayList<>();
        for (int i = 0, n = r.nextInt(5) == 0 ? 0 : length(r); i < n; i++) {
          keys.add(value(r, t.elements().get(0), false));
          values.add(value(r, t.elements().get(1), false));
        }
        return mapV(keys, values);
      }
      default:
        return scalarValue(r, t, top);
    }
  }

  /** An array length: mostly short, sometimes empty, now and then long. */
  private static int length(SplittableRandom r) {
    int roll = r.nextInt(100);
    return roll < 20 ? 0 : roll < 75 ? 1 + r.nextInt(3) : roll < 97 ? 4 + r.nextInt(7)
        : 11 + r.nextInt(60);
  }

  private static V arrayValue(SplittableRandom r, ClickHouseType t, boolean top) {
    List<V> parts = new ArrayList<>();
    for (int i = 0, n = length(r); i < n; i++) {
      V v = value(r, t.element(), false);
      while (!parts.isEmpty() && mixesIpv6(t, parts.get(0), v)) {
        v = value(r, t.element(), false); // see clientV2CannotReadItsOwnArrayOfMixedIPv6
      }
      parts.add(v);
    }
    if (r.nextInt(4) == 0) {
      Object primitive = primitiveArray(r, t.element(), parts);
      if (primitive != null) {
        return new V(primitive, expectedList(parts), parts);
      }
    }
    return arrayV(parts, r.nextInt(5));
  }

  /** A primitive array holding the values of {@code parts}, or null when none fits. */
  private static Object primitiveArray(SplittableRandom r, ClickHouseType element, List<V> parts) {
    TypeKind k = (element.kind() == TypeKind.LOW_CARDINALITY ? element.element() : element).kind();
    int n = parts.size();
    switch (k) {
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256: {
        long[] longs = new long[n];
        boolean ints = true;
        for (int i = 0; i < n; i++) {
          BigInteger v = (BigInteger) parts.get(i).expected();
          if (v.bitLength() > 63) {
            return null;
          }
          longs[i] = v.longValue();
          ints &= longs[i] == (int) longs[i];
        }
        if (ints && r.nextBoolean()) {
          return Arrays.stream(longs).mapToInt(x -> (int) x).toArray();
        }
        return longs;
      }
      case FLOAT64: {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = ((F64) parts.get(i).expected()).v();
        }
        return a;
      }
      case FLOAT32: {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) {
          a[i] = ((F32) parts.get(i).expected()).v();
        }
        return a;
      }
      case BOOL: {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = (Boolean) parts.get(i).expected();
        }
        return a;
      }
      default:
        return null;
    }
  }

  private static List<Object> expectedList(List<V> parts) {
    List<Object> out = new ArrayList<>();
    for (V p : parts) {
      out.add(p.expected());
    }
    return Collections.unmodifiableList(out);
  }

  /** An Array (or Nested) value of {@code parts} as a List, Object[], fixed-size or linked list. */
  static V arrayV(List<V> parts, int shape) {
    List<Object> inputs = new ArrayList<>();
    for (V p : parts) {
      inputs.add(p.input());
    }
    Object input = shape == 0 ? inputs : shape == 1 ? inputs.toArray()
        : shape == 2 ? Arrays.asList(inputs.toArray()) : new LinkedList<>(inputs);
    if (shape == 4 && new HashSet<>(inputs).size() == inputs.size()) {
      input = new LinkedHashSet<>(inputs); // a Collection that is not a List
    }
    return new V(input, expectedList(parts), List.copyOf(parts));
  }

  /** A Tuple value of {@code parts} as a List or an Object[]. */
  static V tupleV(List<V> parts, int shape) {
    return tupleV(parts, shape, null);
  }

  /**
   * A Tuple value of {@code parts} as a List, an Object[] or (shape 2, a named tuple) a Map from
   * element names to values, in reverse order (the encoder matches them by name).
   */
  static V tupleV(List<V> parts, int shape, List<String> names) {
    List<Object> inputs = new ArrayList<>();
    for (V p : parts) {
      inputs.add(p.input());
    }
    Object input = shape == 0 ? inputs : inputs.toArray();
    if (shape == 2 && names != null) {
      Map<String, Object> byName = new LinkedHashMap<>();
      for (int i = parts.size() - 1; i >= 0; i--) {
        byName.put(names.get(i), inputs.get(i));
      }
      input = byName;
    }
    return new V(input, expectedList(parts), List.copyOf(parts));
  }

  /** A Map value; a key whose canonical value repeats an earlier key is left out. */
  static V mapV(List<V> keys, List<V> values) {
    Map<Object, Object> input = new LinkedHashMap<>();
    List<Object> expected = new ArrayList<>();
    List<V> parts = new ArrayList<>();
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < keys.size(); i++) {
      V k = keys.get(i);
      if (!seen.add(k.expected()) || input.containsKey(k.input())) {
        continue;
      }
      V v = values.get(i);
      input.put(k.input(), v.input());
      expected.add(Arrays.asList(k.expected(), v.expected()));
      parts.add(k);
      parts.add(v);
    }
    return new V(input, Collections.unmodifiableList(expected), List.copyOf(parts));
  }

  /* ------------------------------------------------------------------ Scalars */

  static V scalarValue(SplittableRandom r, ClickHouseType t, boolean top) {
    switch (t.kind()) {
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256:
        return intInput(r, intValue(r, t.kind()));
      case FLOAT32:
        return float32Value(r);
      case FLOAT64:
        return float64Value(r);
      case BOOL: {
        boolean b = r.nextBoolean();
        return V.of(pick(r, b, b ? 1L : 0L, b ? 1 : 0, b ? "true" : "false",
            b ? "TRUE" : "False", b ? "1" : "0"), b);
      }
      case DECIMAL:
        return decimalValue(r, t);
      case STRING:
        return stringValue(r, top);
      case FIXED_STRING:
        return fixedStringValue(r, t.length(), top);
      case DATE:
      case DATE32:
        return dateValue(r, t.kind() == TypeKind.DATE32);
      case DATETIME:
        return dateTimeValue(r, t);
      case DATETIME64:
        return dateTime64Value(r, t);
      case UUID:
        return uuidValue(r);
      case IPV4:
        return ipv4Value(r);
      case IPV6:
        return ipv6Value(r);
      case ENUM8:
      case ENUM16: {
        int i = r.nextInt(t.enumSize());
        int v = t.enumValue(i);
        Object input = pick(r, t.enumName(i), t.enumName(i), (long) v, v);
        for (Letter l : Letter.values()) {
          if (l.name().equals(t.enumName(i)) && r.nextBoolean()) {
            input = l; // a Java enum constant meets an Enum column by name
          }
        }
        return V.of(input, v);
      }
      default:
        throw new IllegalArgumentException("not a scalar: " + t);
    }
  }

  static int bits(TypeKind k) {
    return k.fixedWidth() * 8;
  }

  static boolean signed(TypeKind k) {
    return k.name().startsWith("INT");
  }

  static BigInteger intValue(SplittableRandom r, TypeKind k) {
    int bits = bits(k);
    boolean signed = signed(k);
    BigInteger min = signed ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
    BigInteger max = signed ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
        : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
    switch (r.nextInt(5)) {
      case 0: {
        List<BigInteger> edges = new ArrayList<>(List.of(min, max, BigInteger.ZERO,
            BigInteger.ONE, min.add(BigInteger.ONE), max.subtract(BigInteger.ONE)));
        for (long e : new long[] {-1, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
            Integer.MAX_VALUE, 1L << 31, 0xFFFF_FFFFL, Long.MAX_VALUE, Long.MIN_VALUE}) {
          edges.add(BigInteger.valueOf(e));
        }
        edges.add(BigInteger.ONE.shiftLeft(63));
        edges.add(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
        edges.add(BigInteger.ONE.shiftLeft(127).negate());
        edges.removeIf(e -> e.compareTo(min) < 0 || e.compareTo(max) > 0);
        return edges.get(r.nextInt(edges.size()));
      }
      case 1: {
        BigInteger v = BigInteger.valueOf(r.nextInt(-300, 300));
        return signed ? v.max(min).min(max) : v.abs().min(max);
      }
      default: {
        byte[] bytes = new byte[bits / 8];
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = (byte) r.nextInt(256);
        }
        BigInteger v = signed ? new BigInteger(bytes) : new BigInteger(1, bytes);
        return v.shiftRight(r.nextInt(bits)); // every magnitude, sign kept
      }
    }
  }

  /** An integer in one of the forms the integer columns accept. */
  static V intInput(SplittableRandom r, BigInteger v) {
    List<Object> forms = new ArrayList<>(List.of(v, v.toString(), new BigDecimal(v)));
    if (v.bitLength() <= 63) {
      forms.add(v.longValue());
      forms.add(v.longValue());
      forms.add(new AtomicLong(v.longValue()));
      forms.add((v.signum() >= 0 ? "+" : "") + v); // an explicit sign
    }
    if (v.bitLength() <= 31) {
      forms.add(v.intValue());
      forms.add(new AtomicInteger(v.intValue()));
    }
    if (v.signum() != 0 && v.mod(BigInteger.valueOf(1000)).signum() == 0) {
      forms.add(v.divide(BigInteger.valueOf(1000)) + "e3"); // an integer in exponent notation
    }
    if (v.bitLength() <= 15) {
      forms.add(v.shortValue());
    }
    if (v.bitLength() <= 7) {
      forms.add(v.byteValue());
    }
    if (v.abs().compareTo(TWO_53) <= 0) {
      forms.add(v.doubleValue()); // an integral double
      forms.add(new BigDecimal(v).setScale(2).toPlainString()); // "42.00"
    }
    if (v.equals(BigInteger.ZERO) || v.equals(BigInteger.ONE)) {
      forms.add(v.equals(BigInteger.ONE));
    }
    return V.of(forms.get(r.nextInt(forms.size())), v);
  }

  static V float32Value(SplittableRandom r) {
    if (r.nextInt(6) == 0) {
      // A double that is not a float: rounded to the nearest float (text: straight to a float).
      double x = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-30, 30));
      float f = (float) x;
      if (f != 0 && !Float.isInfinite(f)) {
        // An integer (text or BigDecimal) must be exact, like a long: only a fraction rounds.
        return V.of(x == Math.rint(x) ? x : pick(r, x, new BigDecimal(x),
            new BigDecimal(x).toString()), new F32(f));
      }
    }
    float f;
    switch (r.nextInt(4)) {
      case 0:
        f = pickFloat(r, 0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE,
            Float.MIN_NORMAL, 1f, -1f, 0.1f, 16_777_216f, 16_777_217f);
        break;
      case 1:
        f = Float.intBitsToFloat(r.nextInt()); // any bits, NaN payloads included
        break;
      default:
        f = (float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-10, 12)));
    }
    List<Object> forms = new ArrayList<>(List.of(f, f, (double) f));
    if (Float.isNaN(f)) {
      forms.add(pick(r, "nan", "NaN", "-nan"));
    } else if (Float.isInfinite(f)) {
      forms.add(f > 0 ? pick(r, "inf", "+inf", "Infinity") : pick(r, "-inf", "-INF", "-infinity"));
    } else if (f != 0 || 1 / f > 0) { // BigDecimal and integer text have no -0.0
      forms.add(Float.toString(f));
      forms.add(new BigDecimal((double) f));
      forms.add(new BigDecimal((double) f).toString());
      if (f == Math.rint(f) && Math.abs(f) < 0x1p62) {
        forms.add((long) f);
      }
    } else {
      forms.add("-0.0"); // decimal text keeps the sign (BigDecimal cannot, integer text 0 is +0)
    }
    return V.of(forms.get(r.nextInt(forms.size())), new F32(f));
  }

  static V float64Value(SplittableRandom r) {
    if (r.nextInt(6) == 0) {
      // More digits than a double holds: rounded to the nearest double.
      StringBuilder digits = new StringBuilder(r.nextBoolean() ? "-" : "");
      digits.append(1 + r.nextInt(9)).append('.');
      for (int i = 0, n = 17 + r.nextInt(10); i < n; i++) {
        digits.append(r.nextInt(10));
      }
      String text = digits.append('e').append(r.nextInt(-300, 300)).toString();
      double d = Double.parseDouble(text);
      return V.of(pick(r, text, new BigDecimal(text)), new F64(d));
    }
    double d;
    switch (r.nextInt(4)) {
      case 0:
        d = pickDouble(r, 0d, -0d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.MIN_NORMAL, 1d, -1d, 0.1d, 0x1p53, 0x1p53 + 2, 1e300, 1e-300);
        break;
      case 1:
        d = Double.longBitsToDouble(r.nextLong());
        break;
      default:
        d = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-20, 20));
    }
    List<Object> forms = new ArrayList<>(List.of(d, d));
    if (Double.isNaN(d)) {
      forms.add(Float.NaN);
      forms.add(pick(r, "nan", "NAN"));
    } else if (Double.isInfinite(d)) {
      forms.add(d > 0 ? "inf" : "-inf");
      forms.add(d > 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY);
    } else if (d != 0 || 1 / d > 0) {
      forms.add(Double.toString(d));
      forms.add(BigDecimal.valueOf(d));
      if ((float) d == d) {
        forms.add((float) d);
      }
      if (d == Math.rint(d) && Math.abs(d) < 0x1p62) {
        forms.add((long) d);
      }
    } else {
      forms.add(-0f);
      forms.add("-0.0");
    }
    return V.of(forms.get(r.nextInt(forms.size())), new F64(d));
  }

  static V decimalValue(SplittableRandom r, ClickHouseType t) {
    int p = t.precision();
    int s = t.scale();
    BigInteger max = BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
    BigInteger u;
    if (r.nextInt(3) == 0) {
      List<BigInteger> edges = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE,
          BigInteger.ONE.negate(), max, max.negate(), BigInteger.TEN.pow(p - 1),
          BigInteger.TEN.pow(p - 1).negate()));
      if (s < p) {
        edges.add(BigInteger.TEN.pow(s)); // 1
        edges.add(BigInteger.TEN.pow(s).negate());
      }
      u = edges.get(r.nextInt(edges.size()));
    } else {
      int digits = 1 + r.nextInt(p);
      StringBuilder sb = new StringBuilder(r.nextBoolean() ? "-" : "");
      for (int i = 0; i < digits; i++) {
        sb.append((char) ('0' + r.nextInt(10)));
      }
      u = new BigInteger(sb.toString());
    }
    BigDecimal bd = new BigDecimal(u, s);
    List<Object> forms = new ArrayList<>(List.of(bd, bd, bd.toPlainString(), bd.toString(),
        bd.stripTrailingZeros(), bd.stripTrailingZeros().toString(),
        bd.setScale(s + 1 + r.nextInt(3))));
    if (bd.signum() == 0 || bd.stripTrailingZeros().scale() <= 0) {
      BigInteger whole = bd.toBigIntegerExact();
      forms.add(whole);
      if (whole.bitLength() <= 63) {
        forms.add(whole.longValue());
      }
    }
    double d = bd.doubleValue();
    if (BigDecimal.valueOf(d).compareTo(bd) == 0) {
      forms.add(d); // the double's shortest decimal is this value
    }
    return V.of(forms.get(r.nextInt(forms.size())), bd);
  }

  /**
   * A String value. Arbitrary bytes (invalid UTF-8 included) only at the top level: client-v2
   * decodes a nested String into {@code java.lang.String} whatever {@code binary_string_support}
   * says ({@code BinaryStreamReader.readNestedValue}), replacing invalid UTF-8, so there it could
   * not tell the bytes apart.
   */
  static V stringValue(SplittableRandom r, boolean top) {
    int roll = r.nextInt(100);
    if (roll < 10 && top) {
      byte[] b = new byte[r.nextInt(20)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) pickInt(r, 0, 0xFF, 0x80, 0xC3, 0xED, 0xF4, r.nextInt(256));
      }
      return V.of(b, new Bytes(b));
    }
    if (roll < 20) {
      // Not text: the encoder writes toString() (getHostAddress for an IP, ISO for temporals).
      Object o = pick(r, (Object) r.nextLong(), r.nextDouble(), Double.NaN,
          BigInteger.ONE.shiftLeft(100), new BigDecimal("-1.50"), new UUID(r.nextLong(), 7),
          Boolean.TRUE, Instant.ofEpochSecond(r.nextInt()), LocalDate.ofEpochDay(r.nextInt(70000)));
      return V.of(o, new Bytes(o.toString().getBytes(StandardCharsets.UTF_8)));
    }
    String s;
    if (roll < 30) {
      s = "";
    } else if (roll < 50) {
      // Around the one-byte varint length and the writer's short-text path (chars * 3 < 128).
      int n = pickInt(r, 42, 43, 127, 128, 129);
      String unit = pick(r, "a", "é", "日", "😀");
      s = unit.repeat(n).substring(0, n); // may split a surrogate pair: then '?' ends it
    } else if (roll < 52) {
      s = Gen.text(20_000).next(r); // a three-byte varint length, usually
    } else {
      s = Gen.text(r.nextBoolean() ? 8 : 60).next(r); // surrogate pairs and unpaired surrogates
    }
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8); // '?' for an unpaired surrogate
    Object input = pick(r, s, s, new StringBuilder(s), s.toCharArray(), utf8);
    if (s.length() == 1 && r.nextBoolean()) {
      input = s.charAt(0); // a Character
    }
    return V.of(input, new Bytes(utf8));
  }

  /** A FixedString(n) value: text or bytes of at most n bytes, padded with zeros. */
  static V fixedStringValue(SplittableRandom r, int n, boolean top) {
    byte[] content;
    Object input;
    int roll = r.nextInt(10);
    if (roll < 2 && top) {
      content = new byte[r.nextInt(n + 1)];
      for (int i = 0; i < content.length; i++) {
        content[i] = (byte) r.nextInt(256);
      }
      input = content;
    } else if (roll < 3) {
      content = new byte[0];
      input = pick(r, "", new byte[0]);
    } else {
      String s = Gen.text(n).next(r);
      while (s.getBytes(StandardCharsets.UTF_8).length > n) {
        s = s.substring(0, s.offsetByCodePoints(0, s.codePointCount(0, s.length()) - 1));
      }
      if (roll < 5) {
        s = "x".repeat(n); // exactly full
      }
      content = s.getBytes(StandardCharsets.UTF_8);
      input = pick(r, s, s, new StringBuilder(s), content);
    }
    return V.of(input, new Bytes(Arrays.copyOf(content, n)));
  }

  static V dateValue(SplittableRandom r, boolean date32) {
    long min = date32 ? LocalDate.of(1900, 1, 1).toEpochDay() : 0;
    long max = date32 ? LocalDate.of(2299, 12, 31).toEpochDay() : 65535;
    long day = r.nextInt(3) == 0 ? pickLong(r, min, max, 0L, min + 1, max - 1, 19_000L)
        : r.nextLong(min, max + 1);
    LocalDate d = LocalDate.ofEpochDay(day);
    // A date has no zone: an instant counts by its UTC date.
    Instant inDay = d.atStartOfDay(ZoneOffset.UTC).toInstant()
        .plusSeconds(r.nextInt(86_400)).plusNanos(r.nextInt(1_000_000_000));
    Object input = pick(r, d, d, day, (int) day, d.toString(),
        d.atTime(LocalTime.ofSecondOfDay(r.nextInt(86_400))), inDay,
        inDay.atOffset(offset(r)), inDay.atZone(zone(r)), inDay.toString(),
        new java.util.Date(inDay.toEpochMilli()));
    return V.of(input, d);
  }

  static ZoneOffset offset(SplittableRandom r) {
    return r.nextBoolean() ? ZoneOffset.UTC
        : ZoneOffset.ofTotalSeconds(r.nextInt(-18 * 3600, 18 * 3600 + 1) / 60 * 60);
  }

  static ZoneId zone(SplittableRandom r) {
    return ZoneId.of(ZONES.get(r.nextInt(ZONES.size())));
  }

  static V dateTimeValue(SplittableRandom r, ClickHouseType t) {
    long s = r.nextInt(3) == 0
        ? pickLong(r, 0L, 1L, (long) Integer.MAX_VALUE, 1L << 31, 0xFFFF_FFFFL, 0xFFFF_FFFEL,
            1_700_000_000L)
        : r.nextLong(0, 1L << 32);
    Instant exact = Instant.ofEpochSecond(s);
    Instant withFraction = exact.plusNanos(r.nextInt(1_000_000_000)); // dropped (floor)
    List<Object> forms = new ArrayList<>(List.of(exact, withFraction, s, Long.toString(s),
        exact.toString(), withFraction.atOffset(offset(r)), withFraction.atZone(zone(r)),
        withFraction.atOffset(offset(r)).toString(),
        new java.util.Date(s * 1000 + r.nextInt(1000))));
    if (s <= Integer.MAX_VALUE) {
      forms.add((int) s);
    }
    addLocal(forms, withFraction, t.zone());
    return V.of(forms.get(r.nextInt(forms.size())), exact);
  }

  /** Adds the LocalDateTime of {@code at} in {@code zone}, and its text, when it is unambiguous. */
  private static void addLocal(List<Object> forms, Instant at, ZoneId zone) {
    LocalDateTime local = LocalDateTime.ofInstant(at, zone);
    if (zone.getRules().getValidOffsets(local).size() == 1) {
      forms.add(local);
      forms.add(local.toString());
    }
  }

  static V dateTime64Value(SplittableRandom r, ClickHouseType t) {
    int p = t.precision();
    long unit = BigInteger.TEN.pow(p).longValueExact();
    long minSecond = LocalDate.of(1900, 1, 1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
    long endSecond = LocalDate.of(2300, 1, 1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
    long min = minSecond * unit;
    long max = p == 9 ? Long.MAX_VALUE : endSecond * unit - 1;
    long ticks = r.nextInt(3) == 0
        ? pickLong(r, min, max, 0L, -1L, 1L, unit, -unit, min + 1, max - 1)
        : r.nextLong(min, max);
    Instant exact = Instant.ofEpochSecond(Math.floorDiv(ticks, unit),
        Math.floorMod(ticks, unit) * (1_000_000_000L / unit));
    // Nanoseconds below one tick are dropped (floor).
    Instant withFraction = exact.plusNanos(r.nextLong(1_000_000_000L / unit));
    BigDecimal seconds = BigDecimal.valueOf(ticks, p);
    List<Object> forms = new ArrayList<>(List.of(ticks, ticks, exact, withFraction,
        withFraction.atOffset(offset(r)), withFraction.atZone(zone(r)), seconds,
        seconds.toPlainString(), withFraction.toString()));
    double d = seconds.doubleValue();
    if (BigDecimal.valueOf(d).compareTo(seconds) == 0) {
      forms.add(d);
    }
    if (p <= 3) {
      long millis = Math.multiplyExact(ticks, 1000 / unit) + r.nextLong(1000 / unit);
      forms.add(new java.util.Date(millis));
    }
    addLocal(forms, withFraction, t.zone());
    return V.of(forms.get(r.nextInt(forms.size())), exact);
  }

  static V uuidValue(SplittableRandom r) {
    UUID u = r.nextInt(4) == 0
        ? pick(r, new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 0),
            new UUID(0, Long.MIN_VALUE), new UUID(0x0123456789ABCDEFL, 0xFEDCBA9876543210L))
        : new UUID(r.nextLong(), r.nextLong());
    ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits());
    return V.of(pick(r, u, u, u.toString(), u.toString().toUpperCase(Locale.ROOT), b.array()), u);
  }

  static V ipv4Value(SplittableRandom r) {
    int v = r.nextInt(4) == 0 ? pickInt(r, 0, -1, 0x7F000001, 0xC0A80001, 0x80000000) : r.nextInt();
    byte[] a = ByteBuffer.allocate(4).putInt(v).array();
    Ip ip = ip(a);
    return V.of(pick(r, address(a), ip.text(), Integer.toUnsignedLong(v)), ip);
  }

  static V ipv6Value(SplittableRandom r) {
    byte[] a = new byte[16];
    switch (r.nextInt(6)) {
      case 0:
        break; // ::
      case 1:
        a[15] = 1; // ::1
        break;
      case 2:
        a = mapped(ByteBuffer.allocate(4).putInt(r.nextInt()).array()); // ::ffff:a.b.c.d
        break;
      case 3:
        Arrays.fill(a, (byte) 0xFF);
        break;
      default:
        for (int i = 0; i < 16; i++) {
          a[i] = (byte) r.nextInt(256);
        }
        if (r.nextBoolean()) {
          Arrays.fill(a, 2 + r.nextInt(6), 8 + r.nextInt(8), (byte) 0); // a run of zeros for ::
        }
    }
    List<Object> forms = new ArrayList<>(List.of(address(a), a.clone(), ip(a).text(),
        compressed(a)));
    if (isMapped(a)) {
      byte[] v4 = Arrays.copyOfRange(a, 12, 16);
      forms.add(address(v4)); // an Inet4Address becomes ::ffff:a.b.c.d
      forms.add("::ffff:" + ip(v4).text());
      forms.add(ip(v4).text());
    }
    return V.of(forms.get(r.nextInt(forms.size())), ip(a));
  }

  static boolean isMapped(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return a[10] == (byte) 0xFF && a[11] == (byte) 0xFF;
  }

  /** An IPv6 literal with the longest run of zero groups written as {@code ::}. */
  static String compressed(byte[] a) {
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = (a[2 * i] & 0xFF) << 8 | (a[2 * i + 1] & 0xFF);
    }
    int bestAt = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestAt = i;
        bestLen = j - i;
      }
      i = Math.max(j, i + 1);
    }
    if (bestLen < 2) {
      return ip(a).text();
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < bestAt; i++) {
      sb.append(i == 0 ? "" : ":").append(Integer.toHexString(g[i]));
    }
    sb.append("::");
    for (int i = bestAt + bestLen; i < 8; i++) {
      sb.append(i == bestAt + bestLen ? "" : ":").append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  static InetAddress address(byte[] a) {
    try {
      return InetAddress.getByAddress(a); // no lookup: the address is given
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @SafeVarargs
  static <T> T pick(SplittableRandom r, T... options) {
    return options[r.nextInt(options.length)];
  }

  static int pickInt(SplittableRandom r, int... options) {
    return options[r.nextInt(options.length)];
  }

  static long pickLong(SplittableRandom r, long... options) {
    return options[r.nextInt(options.length)];
  }

  static float pickFloat(SplittableRandom r, float... options) {
    return options[r.nextInt(options.length)];
  }

  static double pickDouble(SplittableRandom r, double... options) {
    return options[r.nextInt(options.length)];
  }

  /* ================================================================== Showing values */

  /** Shows an input value with its Java type where the text alone would hide it. */
  static String show(Object o) {
    if (o == null) {
      return "null";
    }
    if (o instanceof String s) {
      return quote(s, 80);
    }
    if (o instanceof StringBuilder sb) {
      return "StringBuilder(" + quote(sb.toString(), 80) + ")";
    }
    if (o instanceof char[] cs) {
      return "char[]" + quote(new String(cs), 80);
    }
    if (o instanceof byte[] b) {
      return "byte[]" + hex(b, 32);
    }
    if (o instanceof Long) {
      return o + "L";
    }
    if (o instanceof Integer || o instanceof Boolean) {
      return o.toString();
    }
    if (o instanceof Short) {
      return "(short) " + o;
    }
    if (o instanceof Byte) {
      return "(byte) " + o;
    }
    if (o instanceof Double) {
      return o + "d";
    }
    if (o instanceof Float) {
      return o + "f";
    }
    if (o instanceof Object[] a) {
      return "Object[]" + showAll(Arrays.asList(a));
    }
    if (o instanceof long[] a) {
      return "long[]" + Arrays.toString(a);
    }
    if (o instanceof int[] a) {
      return "int[]" + Arrays.toString(a);
    }
    if (o instanceof double[] a) {
      return "double[]" + Arrays.toString(a);
    }
    if (o instanceof float[] a) {
      return "float[]" + Arrays.toString(a);
    }
    if (o instanceof boolean[] a) {
      return "boolean[]" + Arrays.toString(a);
    }
    if (o instanceof List<?> l) {
      return o.getClass().getSimpleName() + showAll(l);
    }
    if (o instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("Map{");
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sb.append(sb.length() == 4 ? "" : ", ").append(show(e.getKey())).append('=')
            .append(show(e.getValue()));
      }
      return sb.append('}').toString();
    }
    if (o instanceof InetAddress a) {
      return a.getClass().getSimpleName() + "(" + a.getHostAddress() + ")";
    }
    return o.getClass().getSimpleName() + "(" + o + ")";
  }

  private static String showAll(List<?> l) {
    StringBuilder sb = new StringBuilder("[");
    for (Object o : l) {
      sb.append(sb.length() == 1 ? "" : ", ").append(show(o));
    }
    return sb.append(']').toString();
  }

  /** Quotes text, escaping controls and unpaired surrogates; long text is cut. */
  static String quote(String s, int max) {
    StringBuilder sb = new StringBuilder("\"");
    int shown = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (shown++ == max) {
        sb.append("\"…(").append(s.length()).append(" chars)");
        return sb.toString();
      }
      if (cp == '"' || cp == '\\') {
        sb.append('\\').append((char) cp);
      } else if (cp < 0x20 || cp == 0x7F || (cp >= 0xD800 && cp <= 0xDFFF)) {
        sb.append(String.format("\\u%04x", cp));
      } else {
        sb.appendCodePoint(cp);
      }
    }
    return sb.append('"').toString();
  }

  static String hex(byte[] b, int max) {
    StringBuilder sb = new StringBuilder("0x");
    for (int i = 0; i < Math.min(b.length, max); i++) {
      sb.append(String.format("%02x", b[i] & 0xFF));
    }
    if (b.length > max) {
      sb.append("…(").append(b.length).append(" bytes)");
    }
    return sb.toString();
  }
}
