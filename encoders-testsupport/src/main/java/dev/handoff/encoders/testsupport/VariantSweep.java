package dev.handoff.encoders.testsupport;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.clickhouse.value.TypedValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A seeded random sweep over Variant, Dynamic and JSON columns (alone and inside Array, Map,
 * Tuple and Nullable), checked by a ClickHouse 26.7 engine: the encoder's bytes are read back
 * through {@code file()} and through an {@code INSERT} into a MergeTree table of exactly those
 * types, and each value's {@code toJSONString} (and, for Variant and Dynamic, the type the engine
 * stored it as) must equal what the generator expects, computed independently of the encoders.
 * A mismatch fails with the seed, the row, the column, the value and both texts, after checking
 * the value alone in a one-row, one-column table (the shrunk case).
 *
 * <p>Values avoid what JSON text cannot round trip exactly (NaN, 64-bit extremes, strings that
 * look like dates), so the expected text is plain JSON: object keys sorted by path for JSON
 * columns (as the engine prints them), nulls and empty objects dropped there.
 */
public final class VariantSweep {
  /** The encoder under test: a schema and rows in, one insert body (format {@link #name}) out. */
  public interface Format {
    /** The ClickHouse format name of the body ({@code RowBinary}, {@code Native}). */
    String name();

    /** Encodes {@code rows} of {@code schema} as one body. */
    byte[] encode(TableSchema schema, List<Object[]> rows);
  }

  /** The columns: name, type. */
  public static final String[][] COLUMNS = {
      {"v", "Variant(String, Int64, Array(UInt8), Float64, Bool, Map(String, Int32))"},
      {"av", "Array(Variant(Int32, String))"},
      {"d", "Dynamic"},
      {"d2", "Dynamic(max_types=2)"},
      {"md", "Map(String, Dynamic)"},
      {"t", "Tuple(a Variant(Int8, String), b Dynamic, c JSON)"},
      {"j", "JSON"},
      {"jt", "JSON(max_dynamic_paths=3, a.b UInt32, s String, SKIP skip, SKIP REGEXP '^x_')"},
      {"aj", "Array(JSON)"},
      {"nj", "Nullable(JSON)"},
  };

  private static final String[] KEYS = {"a", "b", "c", "k1", "k2", "x_hidden", "skip", "s"};
  private final SplittableRandom random;

  private VariantSweep(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** One generated value: the Java value and the engine's expected text and stored type. */
  record Cell(Object value, String json, String type) {}

  /** Runs {@code rows} random rows of seed {@code seed} through {@code format} and the engine. */
  public static void run(ChdbSession engine, Format format, long seed, int rows) {
    System.out.println("VariantSweep " + format.name() + ": seed " + seed + ", " + rows
        + " rows");
    VariantSweep g = new VariantSweep(seed);
    List<Object[]> values = new ArrayList<>();
    List<Cell[]> cells = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      Cell[] row = g.row();
      cells.add(row);
      Object[] v = new Object[row.length];
      for (int c = 0; c < row.length; c++) {
        v[c] = row[c].value();
      }
      values.add(v);
    }
    TableSchema schema = schema(COLUMNS);
    byte[] body = format.encode(schema, values);
    String table = "sweep_" + format.name().toLowerCase() + "_" + Long.toHexString(seed);
    check(engine, format, seed, schema, body, table, cells, values);
  }

  private static TableSchema schema(String[][] columns) {
    List<ColumnSpec> specs = new ArrayList<>();
    for (String[] c : columns) {
      specs.add(new ColumnSpec(c[0], c[1]));
    }
    return new TableSchema(specs);
  }

  private static String structure(String[][] columns) {
    StringBuilder s = new StringBuilder();
    for (String[] c : columns) {
      s.append(s.length() == 0 ? "" : ", ").append(c[0]).append(' ').append(c[1]);
    }
    return s.toString();
  }

  private static String selectList(String[][] columns) {
    StringBuilder s = new StringBuilder();
    for (String[] c : columns) {
      s.append(s.length() == 0 ? "" : ", ").append("toJSONString(").append(c[0]).append(')');
      if (c[1].startsWith("Dynamic")) {
        s.append(", dynamicType(").append(c[0]).append(')');
      } else if (c[1].startsWith("Variant")) {
        s.append(", variantType(").append(c[0]).append(')');
      }
    }
    return s.toString();
  }

  private static void check(ChdbSession engine, Format format, long seed, TableSchema schema,
      byte[] body, String table, List<Cell[]> cells, List<Object[]> values) {
    String[][] columns = new String[schema.columns().size()][];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new String[] {schema.column(i).name(), schema.column(i).type()};
    }
    Path file = engine.writeFile(table + ".bin", body);
    String fromFile = engine.queryText("SELECT " + selectList(columns) + " FROM file("
        + Chdb.literal(file.toString()) + ", " + Chdb.literal(format.name()) + ", "
        + Chdb.literal(structure(columns)) + ") SETTINGS " + IN_ORDER, "TSVRaw");
    engine.execute("CREATE TABLE " + table + " (n UInt64 DEFAULT rowNumberInAllBlocks(), "
        + structure(columns) + ") ENGINE = MergeTree ORDER BY n"
        + " SETTINGS min_bytes_for_wide_part = 1000000000000"); // compact: one file, not thousands
    engine.execute("INSERT INTO " + table + " (" + String.join(", ",
        Arrays.stream(columns).map(c -> c[0]).toList()) + ") FROM INFILE "
        + Chdb.literal(file.toString()) + " SETTINGS " + IN_ORDER + " FORMAT " + format.name());
    String inserted = engine.queryText("SELECT " + selectList(columns) + " FROM " + table
        + " ORDER BY n", "TSVRaw");
    compare(engine, format, seed, columns, cells, values, fromFile, "file()");
    compare(engine, format, seed, columns, cells, values, inserted, "INSERT");
  }

  /** Reads the blocks of a body one after the other, so that rows keep their order. */
  private static final String IN_ORDER =
      "max_threads = 1, input_format_parallel_parsing = 0, max_insert_threads = 1";

  private static void compare(ChdbSession engine, Format format, long seed, String[][] columns,
      List<Cell[]> cells, List<Object[]> values, String text, String how) {
    String[] lines = text.split("\n", -1);
    for (int r = 0; r < cells.size(); r++) {
      String[] got = lines[r].split("\t", -1);
      int k = 0;
      for (int c = 0; c < columns.length; c++) {
        Cell cell = cells.get(r)[c];
        String json = unescape(got[k++]);
        String type = cell.type() == null ? null : got[k++];
        if (!json.equals(cell.json()) || (type != null && !type.equals(cell.type()))) {
          String alone = shrink(engine, format, columns[c], values.get(r)[c]);
          fail("seed " + seed + ", " + format.name() + " via " + how + ", row " + r
              + ", column " + columns[c][0] + " " + columns[c][1] + ": value " + show(
                  cell.value()) + "\n  expected " + cell.json() + " / " + cell.type()
              + "\n  got      " + json + " / " + type + "\n  shrunk case (the value alone): "
              + alone);
        }
      }
    }
  }

  private static String unescape(String tsv) {
    if (tsv.equals("\\N")) {
      return "null"; // toJSONString(NULL) is NULL
    }
    return tsv.replace("\\\\", "\u0000").replace("\\t", "\t").replace("\\n", "\n")
        .replace("\u0000", "\\");
  }

  private static String shrink(ChdbSession engine, Format format, String[] column, Object v) {
    try {
      String[][] one = {column};
      byte[] body = format.encode(schema(one), List.<Object[]>of(new Object[] {v}));
      Path file = engine.writeFile("shrunk.bin", body);
      return engine.queryText("SELECT " + selectList(one) + " FROM file("
          + Chdb.literal(file.toString()) + ", " + Chdb.literal(format.name()) + ", "
          + Chdb.literal(structure(one)) + ")", "TSVRaw").strip();
    } catch (RuntimeException e) {
      return "fails alone too: " + e.getMessage();
    }
  }

  private static String show(Object v) {
    try {
      return Golden.JSON.writeValueAsString(v instanceof TypedValue tv ? tv.toString() : v);
    } catch (JsonProcessingException e) {
      return String.valueOf(v);
    }
  }

  /* ------------------------------------------------------------------ Generation */

  private Cell[] row() {
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
    TreeMap<String, Object> flat = new TreeMap<>(VariantSweep::compareBytes);
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
    TreeMap<String, Object> flat = new TreeMap<>(VariantSweep::compareBytes);
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
      TreeMap<String, Object> flat = new TreeMap<>(VariantSweep::compareBytes);
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
      TreeMap<String, Object> flat = new TreeMap<>(VariantSweep::compareBytes);
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

  /** Returns the sweep's columns as a schema (for tests that encode them otherwise). */
  public static TableSchema schema() {
    return schema(COLUMNS);
  }

  /** For a caller that wants the values: {@code rows} rows of seed {@code seed}. */
  public static List<Object[]> rows(long seed, int rows) {
    VariantSweep g = new VariantSweep(seed);
    List<Object[]> out = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      Cell[] row = g.row();
      Object[] v = new Object[row.length];
      for (int c = 0; c < row.length; c++) {
        v[c] = row[c].value();
      }
      out.add(v);
    }
    return out;
  }
}
