package dev.handoff.encoders.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.handoff.clickhouse.value.TypedValue;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The rows of {@link VariantSweep}: one seeded generator of values for its columns, each with the
 * text {@code toJSONString} must print for it and (Variant, Dynamic) the type the engine must
 * store it as, computed here independently of the encoders.
 */
final class VariantSweepRows {
  private static final String[] KEYS = {"a", "b", "c", "k1", "k2", "x_hidden", "skip", "s"};
  private final SplittableRandom random;

  VariantSweepRows(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** One generated value: the Java value and the engine's expected text and stored type. */
  record Cell(Object value, String json, String type) {}

  /** Returns the next row, one cell per column of {@link VariantSweep#COLUMNS}. */
  Cell[] row() {
    Cell j = json(false, 3);
    Cell nj = random.nextInt(4) == 0 ? new Cell(null, "null", null) : json(false, 2);
    return new Cell[] {variant(), arrayOfVariant(), dynamic(2), dynamic(1), mapOfDynamic(),
        tuple(), j, jsonTyped(), arrayOfJson(), nj};
  }

  private Cell variant() {
    switch (random.nextInt(8)) {
      case 0: return new Cell(null, "null", "None");
      case 1: { String s = word(); return new Cell(s, quote(s), "String"); }
      case 2: { long x = random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
        return new Cell(x, Long.toString(x), "Int64"); }
      case 3: { List<Integer> a = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) { a.add(random.nextInt(256)); }
        return new Cell(a, a.toString().replace(" ", ""), "Array(UInt8)"); }
      case 4: { double d = quarter(); return new Cell(d, number(d), "Float64"); }
      case 5: { boolean b = random.nextBoolean(); return new Cell(b, Boolean.toString(b), "Bool"); }
      case 6: { Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) { m.put(word(), random.nextInt()); }
        return new Cell(m, renderMap(m), "Map(String, Int32)"); }
      default: { long x = random.nextInt(); // picked explicitly
        return new Cell(TypedValue.of("Int64", x), Long.toString(x), "Int64"); }
    }
  }

  private Cell arrayOfVariant() {
    List<Object> a = new ArrayList<>();
    StringBuilder json = new StringBuilder("[");
    for (int i = random.nextInt(4); i > 0; i--) {
      int k = random.nextInt(3);
      Object v = k == 0 ? null : k == 1 ? (Object) random.nextInt() : word();
      a.add(v);
      json.append(json.length() == 1 ? "" : ",").append(v == null ? "null"
          : v instanceof String s ? quote(s) : v.toString());
    }
    return new Cell(a, json.append(']').toString(), null);
  }

  private Cell dynamic(int depth) {
    switch (random.nextInt(depth > 0 ? 12 : 9)) {
      case 0: return new Cell(null, "null", "None");
      case 1: { long x = random.nextLong(-1L << 40, 1L << 40);
        return new Cell(x, Long.toString(x), "Int64"); }
      case 2: { int x = random.nextInt(); return new Cell(x, Integer.toString(x), "Int32"); }
      case 3: { double d = quarter(); return new Cell(d, number(d), "Float64"); }
      case 4: { String s = word(); return new Cell(s, quote(s), "String"); }
      case 5: { boolean b = random.nextBoolean(); return new Cell(b, Boolean.toString(b), "Bool"); }
      case 6: { LocalDate d = LocalDate.ofEpochDay(random.nextInt(-20_000, 60_000));
        return new Cell(d, quote(d.toString()), "Date32"); }
      case 7: { int x = random.nextInt(65536);
        return new Cell(TypedValue.of("UInt16", x), Integer.toString(x), "UInt16"); }
      case 8: { java.util.UUID u = new java.util.UUID(random.nextLong(), random.nextLong());
        return new Cell(u, quote(u.toString()), "UUID"); }
      case 9: { // a list of longs, maybe with nulls
        List<Long> a = new ArrayList<>();
        boolean nulls = false;
        StringBuilder json = new StringBuilder("[");
        for (int i = random.nextInt(1, 4); i > 0; i--) {
          Long x = random.nextInt(5) == 0 ? null : (Long) (long) random.nextInt();
          nulls |= x == null;
          a.add(x);
          json.append(json.length() == 1 ? "" : ",").append(x == null ? "null" : x.toString());
        }
        boolean allNull = a.stream().allMatch(java.util.Objects::isNull);
        return new Cell(a, json.append(']').toString(), allNull ? "Array(Nullable(String))"
            : nulls ? "Array(Nullable(Int64))" : "Array(Int64)"); }
      case 10: { Map<String, Long> m = new LinkedHashMap<>();
        for (int i = random.nextInt(1, 3); i > 0; i--) { m.put(word(), (long) random.nextInt()); }
        return new Cell(m, renderMap(m), "Map(String, Int64)"); }
      default: { // mixed list: Array(Dynamic)
        List<Object> a = List.of(word(), (long) random.nextInt(1000));
        return new Cell(a, "[" + quote((String) a.get(0)) + "," + a.get(1) + "]",
            "Array(Dynamic)"); }
    }
  }

  private Cell mapOfDynamic() {
    Map<String, Object> m = new LinkedHashMap<>();
    StringBuilder json = new StringBuilder("{");
    for (int i = random.nextInt(3); i > 0; i--) {
      String k = word();
      if (m.containsKey(k)) {
        continue;
      }
      Cell c = dynamic(0);
      m.put(k, c.value());
      json.append(json.length() == 1 ? "" : ",").append(quote(k)).append(':').append(c.json());
    }
    return new Cell(m, json.append('}').toString(), null);
  }

  private Cell tuple() {
    Object a = random.nextBoolean() ? (Object) (int) (byte) random.nextInt() : word();
    String aJson = a instanceof String s ? quote(s) : a.toString();
    if (a instanceof Integer i && random.nextBoolean()) {
      a = (byte) (int) i; // a Byte picks Int8 too
    }
    Cell b = dynamic(0);
    Cell c = json(false, 1);
    List<Object> t = Arrays.asList(a, b.value(), c.value());
    return new Cell(t, "{\"a\":" + aJson + ",\"b\":" + b.json() + ",\"c\":" + c.json() + "}",
        null);
  }

  /** A JSON object value; given as a Map, JSON text or a JsonNode. */
  private Cell json(boolean typed, int depth) {
    Map<String, Object> m = object(depth);
    TreeMap<String, Object> flat = new TreeMap<>(VariantSweepRows::compareBytes);
    flatten("", m, flat, typed);
    if (typed) {
      flat.putIfAbsent("a.b", 0L);
      flat.putIfAbsent("s", "");
    }
    Object given = m;
    int form = random.nextInt(3);
    if (form == 1) {
      given = text(m);
    } else if (form == 2) {
      given = Golden.JSON.valueToTree(m);
    }
    return new Cell(given, renderPaths(flat), null);
  }

  private Cell jsonTyped() {
    Map<String, Object> m = object(2);
    m.remove("a"); // the typed paths' values are generated below
    m.remove("s");
    if (random.nextBoolean()) {
      m.put("a", new LinkedHashMap<>(Map.of("b", (long) random.nextInt(1 << 30))));
    }
    if (random.nextBoolean()) {
      m.put("s", word());
    }
    TreeMap<String, Object> flat = new TreeMap<>(VariantSweepRows::compareBytes);
    flatten("", m, flat, true);
    flat.putIfAbsent("a.b", 0L);
    flat.putIfAbsent("s", "");
    return new Cell(random.nextBoolean() ? m : text(m), renderPaths(flat), null);
  }

  private Cell arrayOfJson() {
    List<Object> a = new ArrayList<>();
    StringBuilder json = new StringBuilder("[");
    for (int i = random.nextInt(3); i > 0; i--) {
      Map<String, Object> m = object(1);
      TreeMap<String, Object> flat = new TreeMap<>(VariantSweepRows::compareBytes);
      flatten("", m, flat, false);
      a.add(m);
      json.append(json.length() == 1 ? "" : ",").append(renderPaths(flat));
    }
    return new Cell(a, json.append(']').toString(), null);
  }

  private Map<String, Object> object(int depth) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      String k = KEYS[random.nextInt(KEYS.length)];
      if (m.containsKey(k)) {
        continue;
      }
      int kind = random.nextInt(depth > 0 ? 9 : 7);
      Object v;
      switch (kind) {
        case 0: v = null; break;
        case 1: v = (long) random.nextInt(); break;
        case 2: v = quarter(); break;
        case 3: v = word(); break;
        case 4: v = random.nextBoolean(); break;
        case 5: { List<Object> a = new ArrayList<>();
          for (int n = random.nextInt(3); n > 0; n--) {
            a.add(random.nextInt(4) == 0 ? null : (Object) (long) random.nextInt(100));
          }
          v = a; break; }
        case 6: { List<Object> a = new ArrayList<>();
          for (int n = random.nextInt(1, 3); n > 0; n--) { a.add(word()); }
          v = a; break; }
        case 7: v = object(depth - 1); break;
        default: { List<Object> a = new ArrayList<>();
          for (int n = random.nextInt(1, 3); n > 0; n--) { a.add(object(depth - 1)); }
          v = a; }
      }
      m.put(k, v);
    }
    return m;
  }

  /** The paths of {@code m} as the engine keeps them: nulls, empty objects, SKIPs dropped. */
  @SuppressWarnings("unchecked")
  private static void flatten(String prefix, Map<String, Object> m, Map<String, Object> out,
      boolean typed) {
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String path = prefix + e.getKey();
      if (typed && (path.equals("skip") || path.startsWith("skip.") || path.startsWith("x_"))) {
        continue;
      }
      if (e.getValue() instanceof Map<?, ?> nested) {
        flatten(path + ".", (Map<String, Object>) nested, out, typed);
      } else if (e.getValue() != null) {
        out.put(path, e.getValue());
      }
    }
  }

  /** Prints sorted paths as the nested object the engine prints. */
  private static String renderPaths(TreeMap<String, Object> flat) {
    Map<String, Object> tree = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : flat.entrySet()) {
      String[] parts = e.getKey().split("\\.");
      Map<String, Object> at = tree;
      for (int i = 0; i < parts.length - 1; i++) {
        @SuppressWarnings("unchecked")
        Map<String, Object> next = (Map<String, Object>) at.computeIfAbsent(parts[i],
            k -> new Tree());
        at = next;
      }
      at.put(parts[parts.length - 1], e.getValue());
    }
    return renderTree(tree);
  }

  /** An object node built by {@link #renderPaths}, printed as it is. */
  private static final class Tree extends LinkedHashMap<String, Object> {
    private static final long serialVersionUID = 1L;
  }

  private static String renderTree(Map<String, Object> tree) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, Object> e : tree.entrySet()) {
      sb.append(sb.length() == 1 ? "" : ",").append(quote(e.getKey())).append(':')
          .append(render(e.getValue()));
    }
    return sb.append('}').toString();
  }

  @SuppressWarnings("unchecked")
  private static String render(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return quote(s);
    }
    if (v instanceof Double d) {
      return number(d);
    }
    if (v instanceof Tree t) {
      return renderTree(t);
    }
    if (v instanceof Map<?, ?> m) {
      // An object inside an array: a JSON value of its own.
      TreeMap<String, Object> flat = new TreeMap<>(VariantSweepRows::compareBytes);
      flatten("", (Map<String, Object>) m, flat, false);
      return renderPaths(flat);
    }
    if (v instanceof List<?> a) {
      StringBuilder sb = new StringBuilder("[");
      for (Object x : a) {
        sb.append(sb.length() == 1 ? "" : ",").append(render(x));
      }
      return sb.append(']').toString();
    }
    return v.toString();
  }

  private static String renderMap(Map<String, ?> m) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, ?> e : m.entrySet()) {
      sb.append(sb.length() == 1 ? "" : ",").append(quote(e.getKey())).append(':')
          .append(e.getValue());
    }
    return sb.append('}').toString();
  }

  private static int compareBytes(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
        b.getBytes(StandardCharsets.UTF_8));
  }

  private String word() {
    int n = random.nextInt(1, 6);
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(c);
  }

  private double quarter() {
    return random.nextInt(-4_000_000, 4_000_000) / 4.0;
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }

  private static String text(Object m) {
    try {
      return Golden.JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
