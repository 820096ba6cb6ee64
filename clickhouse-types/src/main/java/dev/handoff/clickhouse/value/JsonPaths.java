package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads one value of a {@code JSON} column as its paths: a {@code Map} (nested maps are nested
 * objects), a Jackson {@code JsonNode}, JSON text, or any MAP an accessor reads (a JSON row's
 * object) becomes the list of its leaves, each a path ({@code a.b.c}) and where its value is.
 *
 * <p>A nested object is walked into unless its path is a typed path (then the object is that
 * path's value, for a Tuple or Map type). A null and an empty object are no path, as the server
 * stores them. {@code SKIP} paths (and everything under them) and paths that a {@code SKIP REGEXP}
 * expression finds are left out. The same path twice ({@code {"a.b": 1, "a": {"b": 2}}}) is an
 * error.
 *
 * <p>JSON text is first read flat ({@code JsonFlat}: no tree, nothing allocated per row; arrays,
 * arrays of objects and objects on typed paths included, an integer beyond 64 bits read as a
 * BigInteger when written); an object of such a document (an element of an array of objects,
 * written as a JSON value) is flattened the same way. The texts that reader leaves out (a key
 * path twice at the top level, a repeated field anywhere, nesting deeper than 500, bad text) are
 * parsed into maps and lists and walked as above, with the same result.
 *
 * <p>One instance per column and encoder: it keeps its arrays between rows.
 */
public final class JsonPaths {
  private final ClickHouseType type;
  private final Map<String, Integer> typedIndex = new HashMap<>();
  private final Set<String> skip;
  private final Pattern[] skipRegexps;
  private final Set<String> seen = new HashSet<>();
  /** JSON text in the common shapes, read without allocating; the rest goes the tree path. */
  private final JsonFlat flat;

  private int size;
  private String[] paths = new String[8];
  private int[] typed = new int[8];
  @SuppressWarnings("unchecked")
  private RowAccessor<Object>[] accessors = new RowAccessor[8];
  private Object[] containers = new Object[8];
  private int[] fields = new int[8];

  /** Prepares the reader of values of {@code json}, a JSON type. */
  public JsonPaths(ClickHouseType json) {
    if (json.kind() != TypeKind.JSON) {
      throw new IllegalArgumentException(json + " is not JSON");
    }
    this.type = json;
    List<String> names = json.names();
    for (int i = 0; i < names.size(); i++) {
      typedIndex.put(names.get(i), i);
    }
    this.skip = Set.copyOf(json.skipPaths());
    this.skipRegexps = json.skipRegexps().stream().map(Pattern::compile).toArray(Pattern[]::new);
    this.flat = new JsonFlat(names, json.skipPaths(), json.skipRegexps());
  }

  /**
   * Reads field {@code field} of {@code row} into this reader's paths, replacing the previous
   * value's.
   *
   * @throws dev.handoff.api.HandoffException a DATA error for a value that is not an object, JSON
   *     text that does not parse, a key that is not text, or a path given twice
   */
  @SuppressWarnings("unchecked")
  public <R> void read(RowAccessor<R> acc, R row, int field, String column) {
    size = 0;
    ValueKind kind = acc.kind(row, field);
    if (kind == ValueKind.TEXT && flat.read(acc.getText(row, field))) {
      takeFlat();
      return;
    }
    if (kind == ValueKind.MAP && acc instanceof JsonFlatLeaves
        && flat.flatten((JsonFlatDoc.Node) acc.getObject(row, field))) {
      takeFlat(); // an object of JSON text read flat (an element of an array of objects)
      return;
    }
    seen.clear();
    if (kind == ValueKind.MAP) {
      walk(acc, row, field, "", 0, column, acc, row, field);
      return;
    }
    Object parsed;
    try {
      if (kind == ValueKind.TEXT) {
        parsed = JsonText.parse(acc.getText(row, field));
      } else if (kind == ValueKind.OTHER && DynamicValues.isJsonNode(acc.getObject(row, field))) {
        parsed = DynamicValues.plain(acc.getObject(row, field));
      } else {
        throw Conversions.error(acc, row, field, type, column,
            "is not a JSON object (a Map, a JsonNode or JSON text)");
      }
    } catch (IllegalArgumentException e) {
      throw Conversions.error(acc, row, field, type, column, "is " + e.getMessage());
    }
    if (!(parsed instanceof Map)) {
      throw Conversions.error(acc, row, field, type, column, "is not a JSON object");
    }
    Object[] b = new Object[] {parsed}; // the parsed value lives as long as the row
    RowAccessor<Object> values = RowAccessors.values();
    walk(values, (Object) b, 0, "", 0, column, acc, row, field);
  }

  /** Takes the leaves of {@link #flat} as the paths. */
  private void takeFlat() {
    int n = flat.size();
    ensure(n);
    JsonFlatDoc source = flat.source();
    for (int i = 0; i < n; i++) {
      paths[i] = null; // named by the flat document, a String only when asked for
      typed[i] = flat.typed(i);
      accessors[i] = JsonFlat.LEAVES;
      containers[i] = source;
      fields[i] = flat.slot(i);
    }
    size = n;
  }

  private <R, T> void walk(RowAccessor<T> acc, T row, int field, String prefix, int depth,
      String column, RowAccessor<R> topAcc, R top, int topField) {
    if (depth > 1000) {
      throw Conversions.error(topAcc, top, topField, type, column, "nests too deep");
    }
    Object container = acc.getObject(row, field);
    RowAccessor<Object> nested = acc.nested(row, field);
    int n = nested.size(container);
    for (int i = 0; i < n; i += 2) {
      if (nested.kind(container, i) != ValueKind.TEXT) {
        throw Conversions.error(topAcc, top, topField, type, column,
            "has a key that is not text at " + (prefix.isEmpty() ? "the top" : prefix));
      }
      String path = prefix + nested.getText(container, i);
      if (skipped(path)) {
        continue;
      }
      Integer t = typedIndex.get(path);
      ValueKind kind = nested.kind(container, i + 1);
      if (t == null && kind == ValueKind.OTHER
          && DynamicValues.isJsonNode(nested.getObject(container, i + 1))) {
        // A JsonNode inside a Map: read as plain values.
        Object plain = DynamicValues.plain(nested.getObject(container, i + 1));
        if (plain == null) {
          continue;
        }
        Object[] b = new Object[] {plain};
        RowAccessor<Object> values = RowAccessors.values();
        if (values.kind(b, 0) == ValueKind.MAP) {
          walk(values, (Object) b, 0, path + ".", depth + 1, column, topAcc, top, topField);
        } else {
          add(path, -1, values, b, 0, column, topAcc, top, topField);
        }
        continue;
      }
      if (t == null && kind == ValueKind.MAP) {
        walk(nested, container, i + 1, path + ".", depth + 1, column, topAcc, top, topField);
      } else if (kind != ValueKind.NULL) {
        add(path, t == null ? -1 : t, nested, container, i + 1, column, topAcc, top, topField);
      }
    }
  }

  private boolean skipped(String path) {
    for (String s : skip) {
      if (path.equals(s) || (path.startsWith(s) && path.charAt(s.length()) == '.')) {
        return true;
      }
    }
    for (Pattern p : skipRegexps) {
      if (p.matcher(path).find()) {
        return true;
      }
    }
    return false;
  }

  private <R> void add(String path, int typedAt, RowAccessor<Object> acc, Object container,
      int field, String column, RowAccessor<R> topAcc, R top, int topField) {
    if (!seen.add(path)) {
      throw Conversions.error(topAcc, top, topField, type, column,
          "has the path '" + path + "' twice");
    }
    ensure(size + 1);
    paths[size] = path;
    typed[size] = typedAt;
    accessors[size] = acc;
    containers[size] = container;
    fields[size] = field;
    size++;
  }

  private void ensure(int capacity) {
    if (capacity > paths.length) {
      int n = Math.max(capacity, paths.length * 2);
      paths = Arrays.copyOf(paths, n);
      typed = Arrays.copyOf(typed, n);
      accessors = Arrays.copyOf(accessors, n);
      containers = Arrays.copyOf(containers, n);
      fields = Arrays.copyOf(fields, n);
    }
  }

  /** Returns the number of paths of the value read last. */
  public int size() {
    return size;
  }

  /**
   * Returns path {@code i} ({@code a.b.c}); for JSON text read flat, the String returned before
   * for the same path (the first 2,048 paths of the column), else a new one.
   */
  public String path(int i) {
    String p = paths[i];
    if (p == null) {
      p = flat.nameString(i);
      paths[i] = p;
    }
    return p;
  }

  /**
   * Returns path {@code i} ({@code a.b.c}) without allocating: a view valid until the next call
   * of this method or {@link #read}.
   */
  public CharSequence pathText(int i) {
    String p = paths[i];
    return p != null ? p : flat.name(i);
  }

  /** Returns the index of path {@code i} among the typed paths, or -1 for a dynamic path. */
  public int typed(int i) {
    return typed[i];
  }

  /** Returns the accessor that reads path {@code i}'s value. */
  public RowAccessor<Object> accessor(int i) {
    return accessors[i];
  }

  /** Returns the container path {@code i}'s value is a field of. */
  public Object container(int i) {
    return containers[i];
  }

  /** Returns the field of {@link #container} that holds path {@code i}'s value. */
  public int field(int i) {
    return fields[i];
  }

  /** Forgets the value read last (so that the reader holds no reference to it). */
  public void clear() {
    Arrays.fill(containers, 0, size, null);
    Arrays.fill(paths, 0, size, null);
    size = 0;
  }
}
