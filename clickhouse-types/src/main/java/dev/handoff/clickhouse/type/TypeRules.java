package dev.handoff.clickhouse.type;

import static dev.handoff.clickhouse.type.ClickHouseType.MAX_MAX_PATHS;
import static dev.handoff.clickhouse.type.ClickHouseType.MAX_MAX_TYPES;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The checks the server makes when it builds an enum, a named Tuple or Nested, a Variant or a
 * JSON type from its arguments, and the order it keeps them in; used by {@link ClickHouseType}'s
 * factories and by the parser.
 */
final class TypeRules {
  private TypeRules() {}

  /** Fails with {@code problem} unless it is {@code null}. */
  static void refuse(String problem) {
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  /** See {@link ClickHouseType#of}. */
  static ClickHouseType of(TypeKind kind) {
    switch (kind) {
      case DECIMAL: case FIXED_STRING: case DATETIME64: case ENUM8: case ENUM16: case NULLABLE:
      case ARRAY: case TUPLE: case MAP: case LOW_CARDINALITY: case NESTED:
      case TIME64: case SIMPLE_AGGREGATE_FUNCTION: case QBIT: case VARIANT: case JSON:
        throw new IllegalArgumentException(kind + " needs parameters");
      case POINT: case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON:
      case MULTI_POLYGON:
        return ModernTypes.geo(kind);
      case DYNAMIC:
        return ClickHouseType.dynamic(ClickHouseType.DEFAULT_MAX_TYPES);
      default:
        return ClickHouseType.plain(kind);
    }
  }

  /** See {@link ClickHouseType#withDefaultZone}. */
  static ClickHouseType withDefaultZone(ClickHouseType t, ZoneId defaultZone) {
    List<ClickHouseType> elements = t.elements();
    if (t.kind() == TypeKind.DATETIME || t.kind() == TypeKind.DATETIME64) {
      return t.timeZone() != null || t.zone().equals(defaultZone) ? t
          : t.with(elements, defaultZone);
    }
    if (elements.isEmpty()) {
      return t;
    }
    List<ClickHouseType> zoned = new ArrayList<>(elements.size());
    boolean changed = false;
    for (ClickHouseType e : elements) {
      ClickHouseType z = withDefaultZone(e, defaultZone);
      changed |= z != e;
      zoned.add(z);
    }
    return changed ? t.with(List.copyOf(zoned), null) : t;
  }

  /**
   * Returns why the server refuses these names and elements of a named Tuple ({@code kind}
   * TUPLE) or a Nested, or {@code null}.
   */
  static String checkNamed(TypeKind kind, List<String> names, List<ClickHouseType> elements) {
    if (kind != TypeKind.TUPLE && kind != TypeKind.NESTED) {
      return kind + " has no named elements";
    }
    if (names.size() != elements.size() || elements.isEmpty()) {
      return "named elements need as many names as types, at least one";
    }
    return checkElementNames(names);
  }

  /**
   * Fails with "{@code what value (expected: min..max)}" ({@code >= min} when max is {@code
   * Integer.MAX_VALUE}) unless {@code min <= value <= max}.
   */
  static void checkRange(String what, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(what + " " + value + " (expected: "
          + (max == Integer.MAX_VALUE ? ">= " + min : min + ".." + max) + ")");
    }
  }

  /** Returns the zone called {@code tz}, or fails with "unknown time zone". */
  static ZoneId zoneOf(String tz) {
    try {
      return ZoneId.of(tz);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("unknown time zone '" + tz + "'", e);
    }
  }

  /** Returns an enum's values by name (empty for {@code null} names); a repeated name fails. */
  static Map<String, Integer> enumIndex(String[] names, int[] values) {
    if (names == null) {
      return Map.of();
    }
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      if (m.put(names[i], values[i]) != null) {
        throw new IllegalArgumentException("duplicate enum name '" + names[i] + "'");
      }
    }
    return Map.copyOf(m);
  }

  /** See {@link ClickHouseType#enumType}. */
  static ClickHouseType enumType(TypeKind kind, String[] names, int[] values) {
    if (kind != TypeKind.ENUM8 && kind != TypeKind.ENUM16) {
      throw new IllegalArgumentException(kind + " is not an enum kind");
    }
    if (names.length != values.length || names.length == 0) {
      throw new IllegalArgumentException("an enum needs as many names as values, at least one");
    }
    int min = kind == TypeKind.ENUM8 ? Byte.MIN_VALUE : Short.MIN_VALUE;
    int max = kind == TypeKind.ENUM8 ? Byte.MAX_VALUE : Short.MAX_VALUE;
    Integer[] order = new Integer[names.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      if (values[i] < min || values[i] > max) {
        throw new IllegalArgumentException("enum value " + values[i] + " of '" + names[i]
            + "' out of range for " + kind + " (" + min + ".." + max + ")");
      }
    }
    Arrays.sort(order, (a, b) -> Integer.compare(values[a], values[b]));
    String[] n = new String[names.length];
    int[] v = new int[names.length];
    for (int i = 0; i < order.length; i++) {
      n[i] = names[order[i]];
      v[i] = values[order[i]];
      if (i > 0 && v[i] == v[i - 1]) {
        throw new IllegalArgumentException("duplicate enum value " + v[i]);
      }
    }
    return ClickHouseType.checkedEnum(kind, n, v);
  }

  /**
   * Returns why the server would refuse these element names of a named Tuple or Nested (an empty
   * name, the reserved name {@code null}, a repeated name), or {@code null} when it accepts them.
   */
  static String checkElementNames(List<String> names) {
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      String problem = checkElementName(name, seen);
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /**
   * Returns why the server would refuse {@code name} after the names in {@code seen}, or {@code
   * null} (and adds it to {@code seen}).
   */
  static String checkElementName(String name, Set<String> seen) {
    if (name.isEmpty()) {
      return "an element name cannot be empty";
    }
    if (name.equals("null")) {
      return "the element name 'null' is reserved by the server";
    }
    if (!seen.add(name)) {
      return "duplicate element name '" + name + "'";
    }
    return null;
  }

  /** See {@link ClickHouseType#variant}. */
  static ClickHouseType variant(List<ClickHouseType> types) {
    TreeMap<byte[], ClickHouseType> sorted = new TreeMap<>(Arrays::compare);
    for (ClickHouseType t : types) {
      String problem = variantElementProblem(t);
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
      if (t.kind() != TypeKind.NOTHING) {
        sorted.put(t.canonicalName().getBytes(StandardCharsets.UTF_8), t);
      }
    }
    if (sorted.isEmpty() || sorted.size() > 255) {
      throw new IllegalArgumentException(
          "a Variant needs 1 to 255 different types, not " + sorted.size());
    }
    return ClickHouseType.checkedVariantOrJson(TypeKind.VARIANT, List.copyOf(sorted.values()),
        null, 0, 0, List.of(), List.of());
  }

  /** Returns why the server refuses {@code t} inside a Variant, or {@code null}. */
  static String variantElementProblem(ClickHouseType t) {
    boolean nullable = t.kind() == TypeKind.NULLABLE || (t.kind() == TypeKind.LOW_CARDINALITY
        && t.elements().get(0).kind() == TypeKind.NULLABLE);
    if (nullable) {
      return t + " cannot be inside Variant (a Variant holds NULL itself)";
    }
    if (t.kind() == TypeKind.VARIANT) {
      return t + " cannot be inside Variant (nested Variant types are not allowed)";
    }
    if (t.kind() == TypeKind.DYNAMIC) {
      return t + " cannot be inside Variant (Dynamic is not allowed inside Variant)";
    }
    return null;
  }

  /** See {@link ClickHouseType#json}. */
  static ClickHouseType json(int maxTypes, int maxPaths, List<String> paths,
      List<ClickHouseType> types, List<String> skipPaths, List<String> skipRegexps) {
    if (maxTypes < 0 || maxTypes > MAX_MAX_TYPES) {
      throw new IllegalArgumentException(
          "JSON max_dynamic_types " + maxTypes + " (expected: 0.." + MAX_MAX_TYPES + ")");
    }
    if (maxPaths < 0 || maxPaths > MAX_MAX_PATHS) {
      throw new IllegalArgumentException(
          "JSON max_dynamic_paths " + maxPaths + " (expected: 0.." + MAX_MAX_PATHS + ")");
    }
    if (paths.size() != types.size()) {
      throw new IllegalArgumentException("typed paths need as many paths as types");
    }
    TreeMap<String, ClickHouseType> typed = new TreeMap<>(TypeRules::compareUtf8);
    for (int i = 0; i < paths.size(); i++) {
      String p = paths.get(i);
      if (p.isEmpty()) {
        throw new IllegalArgumentException("a JSON typed path cannot be empty");
      }
      if (typed.put(p, types.get(i)) != null) {
        throw new IllegalArgumentException("duplicate JSON typed path '" + p + "'");
      }
    }
    TreeSet<String> skip = new TreeSet<>(TypeRules::compareUtf8);
    skip.addAll(skipPaths);
    TreeSet<String> regexps = new TreeSet<>(TypeRules::compareUtf8);
    regexps.addAll(skipRegexps);
    return ClickHouseType.checkedVariantOrJson(TypeKind.JSON, List.copyOf(typed.values()),
        List.copyOf(typed.keySet()), maxTypes, maxPaths, List.copyOf(skip),
        List.copyOf(regexps));
  }

  /** Compares strings by the bytes of their UTF-8 text, as the server compares names. */
  static int compareUtf8(String a, String b) {
    return Arrays.compare(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
