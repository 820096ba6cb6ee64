package dev.handoff.clickhouse.type;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One ClickHouse data type: its family ({@link TypeKind}), its parameters and its nested types.
 * Immutable; equal types are {@link #equals equal}.
 *
 * <p>{@link #parse} reads a type exactly as ClickHouse prints it in {@code DESCRIBE TABLE} and
 * {@code system.columns}; {@link #toString()} prints it back in the server's canonical spelling
 * ({@code Decimal(P, S)}, enum elements sorted by value, {@code ", "} between arguments, element
 * names backquoted unless they are plain identifiers).
 */
public final class ClickHouseType {

  /** Identifiers the server backquotes although they are plain words (any letter case). */
  private static final Set<String> ALWAYS_QUOTED =
      Set.of("null", "distinct", "all", "table", "select");

  private final TypeKind kind;
  private final int precision;
  private final int scale;
  private final int length;
  private final String timeZone;
  private final ZoneId zone;
  private final List<ClickHouseType> elements;
  private final List<String> names;
  private final String[] enumNames;
  private final int[] enumValues;
  private final Map<String, Integer> enumByName;
  /** The aggregate function of SimpleAggregateFunction, else null. */
  private final String function;
  private final String canonical;
  // Variant, Dynamic, JSON: Dynamic's max_types or JSON's max_dynamic_types; JSON's
  // max_dynamic_paths and SKIP paths and regular expressions (typed paths: names and elements).
  private final int maxTypes;
  private final int maxPaths;
  private final List<String> skipPaths;
  private final List<String> skipRegexps;

  private ClickHouseType(TypeKind kind, int precision, int scale, int length, String timeZone,
      List<ClickHouseType> elements, List<String> names, String[] enumNames, int[] enumValues) {
    this(kind, precision, scale, length, timeZone, elements, names, enumNames, enumValues, null,
        null, 0, 0, List.of(), List.of());
  }

  private ClickHouseType(TypeKind kind, int precision, int scale, int length, String timeZone,
      List<ClickHouseType> elements, List<String> names, String[] enumNames, int[] enumValues,
      int maxTypes, int maxPaths, List<String> skipPaths, List<String> skipRegexps) {
    this(kind, precision, scale, length, timeZone, elements, names, enumNames, enumValues, null,
        null, maxTypes, maxPaths, skipPaths, skipRegexps);
  }

  private ClickHouseType(TypeKind kind, int precision, int scale, int length, String timeZone,
      List<ClickHouseType> elements, List<String> names, String[] enumNames, int[] enumValues,
      String function, ZoneId defaultZone, int maxTypes, int maxPaths, List<String> skipPaths,
      List<String> skipRegexps) {
    this.maxTypes = maxTypes;
    this.maxPaths = maxPaths;
    this.skipPaths = skipPaths;
    this.skipRegexps = skipRegexps;
    this.kind = kind;
    this.function = function;
    this.precision = precision;
    this.scale = scale;
    this.length = length;
    this.timeZone = timeZone;
    this.zone = timeZone != null ? zoneOf(timeZone)
        : defaultZone != null ? defaultZone : ZoneOffset.UTC;
    this.elements = elements;
    this.names = names;
    this.enumNames = enumNames;
    this.enumValues = enumValues;
    if (enumNames != null) {
      Map<String, Integer> m = new HashMap<>();
      for (int i = 0; i < enumNames.length; i++) {
        if (m.put(enumNames[i], enumValues[i]) != null) {
          throw new IllegalArgumentException("duplicate enum name '" + enumNames[i] + "'");
        }
      }
      this.enumByName = Map.copyOf(m);
    } else {
      this.enumByName = Map.of();
    }
    this.canonical = render();
  }

  private static ZoneId zoneOf(String tz) {
    try {
      return ZoneId.of(tz);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("unknown time zone '" + tz + "'", e);
    }
  }

  /* ------------------------------------------------------------------ Parsing */

  /**
   * Parses a type string.
   *
   * <p>Accepted: every type of {@link TypeKind} as the server prints it, with any whitespace
   * around tokens; {@code Decimal32(S)}, {@code Decimal64(S)}, {@code Decimal128(S)}, {@code
   * Decimal256(S)} and {@code Decimal(P)} (read as {@code Decimal(P, S)}); {@code Boolean} (read
   * as {@code Bool}); enum elements in any order, {@code Enum(...)} without a width and elements
   * without values (all of them, or all but the first); element names bare, in backquotes or in
   * double quotes. Refused like the server refuses them: Nullable around an Array, Map, Nested,
   * array-like geo type, LowCardinality or Nullable (a Tuple, Point or QBit may be Nullable);
   * LowCardinality around anything but numbers, strings, Date, Date32, DateTime, Time, UUID and
   * IPs (or Nullable of those); a Nullable Map key; {@code Nothing} outside {@code Nullable};
   * unknown time zones, a time zone on Time64; parameters out of range; repeated enum or element
   * names; QBit of other element types; SimpleAggregateFunction of a function the server does not
   * allow there. {@link #canonicalName()} prints the result as the server would.
   *
   * @throws TypeParseException if the string is malformed, breaks one of those rules or names an
   *     unsupported or unknown type; the message gives the 0-based position and what was expected
   *     there, or for a refused type says "unsupported type" (with the server version that
   *     introduced it) or "unknown type" and names the whole type
   * @throws NullPointerException if {@code typeString} is null
   */
  public static ClickHouseType parse(String typeString) {
    Objects.requireNonNull(typeString, "typeString");
    return new TypeParser(typeString).parseWhole();
  }

  /* ------------------------------------------------------------------ Factories */

  /**
   * Returns a type without parameters: a number, {@code Bool}, {@code String}, {@code Date},
   * {@code Date32}, {@code DateTime} (UTC), {@code UUID}, {@code IPv4}, {@code IPv6}, {@code
   * Nothing}, {@code BFloat16}, {@code Time}, or a geo type ({@code Point}, {@code Ring}, {@code
   * LineString}, {@code MultiLineString}, {@code Polygon}, {@code MultiPolygon}).
   */
  public static ClickHouseType of(TypeKind kind) {
    switch (kind) {
      case DECIMAL: case FIXED_STRING: case DATETIME64: case ENUM8: case ENUM16: case NULLABLE:
      case ARRAY: case TUPLE: case MAP: case LOW_CARDINALITY: case NESTED:
      case TIME64: case SIMPLE_AGGREGATE_FUNCTION: case QBIT: case VARIANT: case JSON:
        throw new IllegalArgumentException(kind + " needs parameters");
      case POINT: case RING: case LINE_STRING: case MULTI_LINE_STRING: case POLYGON:
      case MULTI_POLYGON:
        return ModernTypes.geo(kind);
      case DYNAMIC:
        return dynamic(DEFAULT_MAX_TYPES);
      default:
        return new ClickHouseType(kind, 0, 0, 0, null, List.of(), null, null, null);
    }
  }

  /**
   * Returns {@code Decimal(precision, scale)}, {@code 1 <= precision <= 76}, {@code 0 <= scale <=
   * precision}.
   */
  public static ClickHouseType decimal(int precision, int scale) {
    if (precision < 1 || precision > 76) {
      throw new IllegalArgumentException("Decimal precision " + precision + " (expected: 1..76)");
    }
    if (scale < 0 || scale > precision) {
      throw new IllegalArgumentException(
          "Decimal scale " + scale + " (expected: 0.." + precision + ")");
    }
    return new ClickHouseType(TypeKind.DECIMAL, precision, scale, 0, null, List.of(), null, null,
        null);
  }

  /** Returns {@code FixedString(length)}, {@code length >= 1}. */
  public static ClickHouseType fixedString(int length) {
    if (length < 1) {
      throw new IllegalArgumentException("FixedString length " + length + " (expected: >= 1)");
    }
    return new ClickHouseType(TypeKind.FIXED_STRING, 0, 0, length, null, List.of(), null, null,
        null);
  }

  /** Returns {@code DateTime('timeZone')}, or plain {@code DateTime} for {@code null}. */
  public static ClickHouseType dateTime(String timeZone) {
    return new ClickHouseType(TypeKind.DATETIME, 0, 0, 0, timeZone, List.of(), null, null, null);
  }

  /** Returns {@code DateTime64(precision[, 'timeZone'])}, {@code 0 <= precision <= 9}. */
  public static ClickHouseType dateTime64(int precision, String timeZone) {
    if (precision < 0 || precision > 9) {
      throw new IllegalArgumentException("DateTime64 precision " + precision + " (expected: 0..9)");
    }
    return new ClickHouseType(TypeKind.DATETIME64, precision, 0, 0, timeZone, List.of(), null,
        null, null);
  }

  /**
   * Returns {@code Enum8} or {@code Enum16} with the given elements (any order; printed sorted by
   * value).
   */
  public static ClickHouseType enumType(TypeKind kind, String[] names, int[] values) {
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
    return new ClickHouseType(kind, 0, 0, 0, null, List.of(), null, n, v);
  }

  /** Returns {@code Time64(precision)}, {@code 0 <= precision <= 9}. */
  public static ClickHouseType time64(int precision) {
    if (precision < 0 || precision > 9) {
      throw new IllegalArgumentException("Time64 precision " + precision + " (expected: 0..9)");
    }
    return new ClickHouseType(TypeKind.TIME64, precision, 0, 0, null, List.of(), null, null, null);
  }

  /**
   * Returns {@code QBit(element, dimension)}: {@code element} BFloat16, Float32, Float64 or Int8,
   * {@code dimension >= 1}.
   */
  public static ClickHouseType qbit(ClickHouseType element, int dimension) {
    String problem = ModernTypes.checkQBit(element, dimension);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return new ClickHouseType(TypeKind.QBIT, 0, 0, dimension, null, List.of(element), null, null,
        null);
  }

  /**
   * Returns {@code SimpleAggregateFunction(function, value)}; {@code function} is one of the
   * functions the server allows there ({@code any}, {@code anyLast}, {@code sum}, {@code max},
   * ...).
   */
  public static ClickHouseType simpleAggregateFunction(String function, ClickHouseType value) {
    String problem = ModernTypes.checkSimpleAggregateFunction(function);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return new ClickHouseType(TypeKind.SIMPLE_AGGREGATE_FUNCTION, 0, 0, 0, null, List.of(value),
        null, null, null, function, null, 0, 0, List.of(), List.of());
  }

  /** Returns a geo type over its underlying type (for {@link ModernTypes}). */
  static ClickHouseType geo(TypeKind kind, List<ClickHouseType> elements) {
    return new ClickHouseType(kind, 0, 0, 0, null, elements, null, null, null);
  }

  /** Returns {@code Nullable(inner)}. */
  public static ClickHouseType nullable(ClickHouseType inner) {
    return new ClickHouseType(TypeKind.NULLABLE, 0, 0, 0, null, List.of(inner), null, null, null);
  }

  /** Returns {@code Array(element)}. */
  public static ClickHouseType array(ClickHouseType element) {
    return new ClickHouseType(TypeKind.ARRAY, 0, 0, 0, null, List.of(element), null, null, null);
  }

  /** Returns {@code LowCardinality(inner)}. */
  public static ClickHouseType lowCardinality(ClickHouseType inner) {
    return new ClickHouseType(TypeKind.LOW_CARDINALITY, 0, 0, 0, null, List.of(inner), null, null,
        null);
  }

  /** Returns {@code Map(key, value)}. */
  public static ClickHouseType map(ClickHouseType key, ClickHouseType value) {
    return new ClickHouseType(TypeKind.MAP, 0, 0, 0, null, List.of(key, value), null, null, null);
  }

  /** Returns {@code Tuple(elements...)}, unnamed. */
  public static ClickHouseType tuple(List<ClickHouseType> elements) {
    if (elements.isEmpty()) {
      throw new IllegalArgumentException("a Tuple needs at least one element");
    }
    return new ClickHouseType(TypeKind.TUPLE, 0, 0, 0, null, List.copyOf(elements), null, null,
        null);
  }

  /**
   * Returns a named {@code Tuple(name1 T1, ...)}, or {@code Nested(...)} for kind NESTED. Names
   * must be non-empty, distinct and not {@code null} (the word), as the server requires; they are
   * printed bare when they are plain identifiers, else in backquotes.
   */
  public static ClickHouseType named(TypeKind kind, List<String> names,
      List<ClickHouseType> elements) {
    if (kind != TypeKind.TUPLE && kind != TypeKind.NESTED) {
      throw new IllegalArgumentException(kind + " has no named elements");
    }
    if (names.size() != elements.size() || elements.isEmpty()) {
      throw new IllegalArgumentException(
          "named elements need as many names as types, at least one");
    }
    String problem = checkElementNames(names);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return new ClickHouseType(kind, 0, 0, 0, null, List.copyOf(elements), List.copyOf(names), null,
        null);
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

  /* ------------------------------------------------------------------ Variant, Dynamic, JSON */

  /** Dynamic's {@code max_types} and JSON's {@code max_dynamic_types} when not given. */
  public static final int DEFAULT_MAX_TYPES = 32;

  /** JSON's {@code max_dynamic_paths} when not given. */
  public static final int DEFAULT_MAX_PATHS = 1024;

  /** The largest {@code max_types} / {@code max_dynamic_types} the server accepts. */
  public static final int MAX_MAX_TYPES = 254;

  /** The largest {@code max_dynamic_paths} the server accepts. */
  public static final int MAX_MAX_PATHS = 10_000;

  /**
   * Returns {@code Variant(types...)} as the server builds it: the types sorted by their canonical
   * names (byte order of the UTF-8 text), repeated types and {@code Nothing} dropped. A value's
   * discriminator is its type's index in {@link #elements()}.
   *
   * @throws IllegalArgumentException for a type the server refuses inside Variant (Nullable,
   *     LowCardinality(Nullable), Variant, Dynamic), no type left, or more than 255 types
   */
  public static ClickHouseType variant(List<ClickHouseType> types) {
    java.util.TreeMap<byte[], ClickHouseType> sorted = new java.util.TreeMap<>(Arrays::compare);
    for (ClickHouseType t : types) {
      String problem = variantElementProblem(t);
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
      if (t.kind != TypeKind.NOTHING) {
        sorted.put(t.canonical.getBytes(java.nio.charset.StandardCharsets.UTF_8), t);
      }
    }
    if (sorted.isEmpty() || sorted.size() > 255) {
      throw new IllegalArgumentException(
          "a Variant needs 1 to 255 different types, not " + sorted.size());
    }
    return new ClickHouseType(TypeKind.VARIANT, 0, 0, 0, null, List.copyOf(sorted.values()),
        null, null, null);
  }

  /** Returns why the server refuses {@code t} inside a Variant, or {@code null}. */
  static String variantElementProblem(ClickHouseType t) {
    boolean nullable = t.kind == TypeKind.NULLABLE || (t.kind == TypeKind.LOW_CARDINALITY
        && t.elements.get(0).kind == TypeKind.NULLABLE);
    if (nullable) {
      return t + " cannot be inside Variant (a Variant holds NULL itself)";
    }
    if (t.kind == TypeKind.VARIANT) {
      return t + " cannot be inside Variant (nested Variant types are not allowed)";
    }
    if (t.kind == TypeKind.DYNAMIC) {
      return t + " cannot be inside Variant (Dynamic is not allowed inside Variant)";
    }
    return null;
  }

  /** Returns {@code Dynamic(max_types=maxTypes)}, printed {@code Dynamic} for the default 32. */
  public static ClickHouseType dynamic(int maxTypes) {
    if (maxTypes < 0 || maxTypes > MAX_MAX_TYPES) {
      throw new IllegalArgumentException(
          "Dynamic max_types " + maxTypes + " (expected: 0.." + MAX_MAX_TYPES + ")");
    }
    return new ClickHouseType(TypeKind.DYNAMIC, 0, 0, 0, null, List.of(), null, null, null,
        maxTypes, 0, List.of(), List.of());
  }

  /**
   * Returns {@code JSON(...)}: {@code maxTypes} ({@code max_dynamic_types}, 0..254), {@code
   * maxPaths} ({@code max_dynamic_paths}, 0..10000), typed paths ({@code paths[i] types[i]},
   * sorted by path), {@code SKIP} paths and {@code SKIP REGEXP} expressions (each sorted and
   * without repeats), printed as the server prints them.
   */
  public static ClickHouseType json(int maxTypes, int maxPaths, List<String> paths,
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
    java.util.TreeMap<String, ClickHouseType> typed = new java.util.TreeMap<>(
        ClickHouseType::compareUtf8);
    for (int i = 0; i < paths.size(); i++) {
      String p = paths.get(i);
      if (p.isEmpty()) {
        throw new IllegalArgumentException("a JSON typed path cannot be empty");
      }
      if (typed.put(p, types.get(i)) != null) {
        throw new IllegalArgumentException("duplicate JSON typed path '" + p + "'");
      }
    }
    java.util.TreeSet<String> skip = new java.util.TreeSet<>(ClickHouseType::compareUtf8);
    skip.addAll(skipPaths);
    java.util.TreeSet<String> regexps = new java.util.TreeSet<>(ClickHouseType::compareUtf8);
    regexps.addAll(skipRegexps);
    return new ClickHouseType(TypeKind.JSON, 0, 0, 0, null, List.copyOf(typed.values()),
        List.copyOf(typed.keySet()), null, null, maxTypes, maxPaths, List.copyOf(skip),
        List.copyOf(regexps));
  }

  /** Compares strings by the bytes of their UTF-8 text, as the server compares names. */
  static int compareUtf8(String a, String b) {
    return Arrays.compare(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * Returns {@code max_types} of a Dynamic, {@code max_dynamic_types} of a JSON (32 unless
   * given), else 0.
   */
  public int maxDynamicTypes() {
    return maxTypes;
  }

  /** Returns {@code max_dynamic_paths} of a JSON (1024 unless given), else 0. */
  public int maxDynamicPaths() {
    return maxPaths;
  }

  /** Returns the {@code SKIP} paths of a JSON, sorted; empty for other types. */
  public List<String> skipPaths() {
    return skipPaths;
  }

  /** Returns the {@code SKIP REGEXP} expressions of a JSON, sorted; empty for other types. */
  public List<String> skipRegexps() {
    return skipRegexps;
  }

  private String renderVariantDynamicJson() {
    StringBuilder sb = new StringBuilder();
    switch (kind) {
      case VARIANT:
        sb.append("Variant(");
        for (int i = 0; i < elements.size(); i++) {
          sb.append(i == 0 ? "" : ", ").append(elements.get(i));
        }
        return sb.append(')').toString();
      case DYNAMIC:
        return maxTypes == DEFAULT_MAX_TYPES ? "Dynamic" : "Dynamic(max_types=" + maxTypes + ")";
      default:
        List<String> args = new java.util.ArrayList<>();
        if (maxTypes != DEFAULT_MAX_TYPES) {
          args.add("max_dynamic_types=" + maxTypes);
        }
        if (maxPaths != DEFAULT_MAX_PATHS) {
          args.add("max_dynamic_paths=" + maxPaths);
        }
        for (int i = 0; i < elements.size(); i++) {
          args.add(identifier(names.get(i)) + " " + elements.get(i));
        }
        for (String p : skipPaths) {
          args.add("SKIP " + identifier(p));
        }
        for (String r : skipRegexps) {
          args.add("SKIP REGEXP " + quote(r));
        }
        return args.isEmpty() ? "JSON" : "JSON(" + String.join(", ", args) + ")";
    }
  }

  /* ------------------------------------------------------------------ Accessors */

  /** Returns the family. */
  public TypeKind kind() {
    return kind;
  }

  /** Returns the precision of {@code Decimal}, {@code DateTime64} and {@code Time64}, else 0. */
  public int precision() {
    return precision;
  }

  /** Returns the scale of {@code Decimal}, else 0. */
  public int scale() {
    return scale;
  }

  /** Returns N of {@code FixedString(N)} and the dimension of {@code QBit(T, N)}, else 0. */
  public int length() {
    return length;
  }

  /** Returns the time-zone argument of {@code DateTime}/{@code DateTime64}, or {@code null}. */
  public String timeZone() {
    return timeZone;
  }

  /**
   * Returns the zone values are interpreted in when they carry none: the type's, else the zone
   * given to {@link #withDefaultZone}, else UTC.
   */
  public ZoneId zone() {
    return zone;
  }

  /**
   * Returns this type with {@code defaultZone} as the zone of every {@code DateTime} and {@code
   * DateTime64} in it (nested ones included) that names none, as a server reads text without an
   * offset in its own time zone ({@code timezone()}) unless the column names one. The type's
   * spelling, and so its equality, stays as it was: only {@link #zone()} changes.
   *
   * @param defaultZone the zone, usually the server's
   */
  public ClickHouseType withDefaultZone(ZoneId defaultZone) {
    java.util.Objects.requireNonNull(defaultZone, "defaultZone");
    if (kind == TypeKind.DATETIME || kind == TypeKind.DATETIME64) {
      return timeZone != null || zone.equals(defaultZone) ? this
          : new ClickHouseType(kind, precision, scale, length, null, elements, names, enumNames,
              enumValues, function, defaultZone, maxTypes, maxPaths, skipPaths, skipRegexps);
    }
    if (elements.isEmpty()) {
      return this;
    }
    List<ClickHouseType> zoned = new java.util.ArrayList<>(elements.size());
    boolean changed = false;
    for (ClickHouseType e : elements) {
      ClickHouseType z = e.withDefaultZone(defaultZone);
      changed |= z != e;
      zoned.add(z);
    }
    return changed ? new ClickHouseType(kind, precision, scale, length, timeZone,
        List.copyOf(zoned), names, enumNames, enumValues, function, null, maxTypes, maxPaths,
        skipPaths, skipRegexps) : this;
  }

  /**
   * Returns the nested types: one for Nullable/Array/LowCardinality, SimpleAggregateFunction
   * (its value type), QBit (its element type) and the geo types other than Point (Ring: Point,
   * Polygon: Ring, ...), two for Map and Point (Float64, Float64), k for Tuple.
   */
  public List<ClickHouseType> elements() {
    return elements;
  }

  /**
   * Returns the single nested type of Nullable, Array, LowCardinality, SimpleAggregateFunction,
   * QBit, Ring, LineString, MultiLineString, Polygon or MultiPolygon.
   */
  public ClickHouseType element() {
    if (elements.size() != 1 || kind == TypeKind.TUPLE || kind == TypeKind.NESTED
        || kind == TypeKind.VARIANT || kind == TypeKind.JSON) {
      throw new IllegalStateException(canonical + " has no single element type");
    }
    return elements.get(0);
  }

  /** Returns the aggregate function of a SimpleAggregateFunction, or {@code null}. */
  public String function() {
    return function;
  }

  /**
   * Returns the element names of a named Tuple or a Nested, the typed paths of a JSON (sorted,
   * empty when it has none), or {@code null}.
   */
  public List<String> names() {
    return names;
  }

  /** Returns the number of enum elements. */
  public int enumSize() {
    return enumNames == null ? 0 : enumNames.length;
  }

  /** Returns the name of enum element {@code i} (elements sorted by value). */
  public String enumName(int i) {
    return enumNames[i];
  }

  /** Returns the value of enum element {@code i} (elements sorted by value). */
  public int enumValue(int i) {
    return enumValues[i];
  }

  /** Returns the value of the enum element called {@code name}, or {@code null}. */
  public Integer enumValueOf(String name) {
    return enumByName.get(name);
  }

  /** Returns whether {@code value} is a declared enum value. */
  public boolean hasEnumValue(int value) {
    return enumValues != null && Arrays.binarySearch(enumValues, value) >= 0;
  }

  /**
   * Returns the byte width of one value in RowBinary and Native when it is fixed, else {@code -1}
   * (strings, composites).
   */
  public int fixedWidth() {
    switch (kind) {
      case DECIMAL:
        return decimalWidth();
      case FIXED_STRING:
        return length;
      case SIMPLE_AGGREGATE_FUNCTION:
        return elements.get(0).fixedWidth();
      default:
        return kind.fixedWidth();
    }
  }

  /** Returns the byte width of a Decimal: 4 (P &lt;= 9), 8 (&lt;= 18), 16 (&lt;= 38) or 32. */
  public int decimalWidth() {
    if (kind != TypeKind.DECIMAL) {
      throw new IllegalStateException(canonical + " is not a Decimal");
    }
    return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
  }

  /** Returns whether this is {@code Nullable(...)}. */
  public boolean isNullable() {
    return kind == TypeKind.NULLABLE;
  }

  /* ------------------------------------------------------------------ Printing */

  private String render() {
    StringBuilder sb = new StringBuilder();
    switch (kind) {
      case DECIMAL:
        return sb.append("Decimal(").append(precision).append(", ").append(scale).append(')')
            .toString();
      case FIXED_STRING:
        return "FixedString(" + length + ")";
      case DATETIME:
        return timeZone == null ? "DateTime" : "DateTime(" + quote(timeZone) + ")";
      case DATETIME64:
        return "DateTime64(" + precision + (timeZone == null ? "" : ", " + quote(timeZone)) + ")";
      case ENUM8:
      case ENUM16:
        sb.append(kind == TypeKind.ENUM8 ? "Enum8(" : "Enum16(");
        for (int i = 0; i < enumNames.length; i++) {
          sb.append(i == 0 ? "" : ", ").append(quote(enumNames[i])).append(" = ")
              .append(enumValues[i]);
        }
        return sb.append(')').toString();
      case NULLABLE:
        return "Nullable(" + elements.get(0) + ")";
      case ARRAY:
        return "Array(" + elements.get(0) + ")";
      case LOW_CARDINALITY:
        return "LowCardinality(" + elements.get(0) + ")";
      case MAP:
        return "Map(" + elements.get(0) + ", " + elements.get(1) + ")";
      case TIME64:
        return "Time64(" + precision + ")";
      case QBIT:
        return "QBit(" + elements.get(0) + ", " + length + ")";
      case SIMPLE_AGGREGATE_FUNCTION:
        return "SimpleAggregateFunction(" + function + ", " + elements.get(0) + ")";
      case TUPLE:
      case NESTED:
        sb.append(kind == TypeKind.TUPLE ? "Tuple(" : "Nested(");
        for (int i = 0; i < elements.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          if (names != null) {
            sb.append(identifier(names.get(i))).append(' ');
          }
          sb.append(elements.get(i));
        }
        return sb.append(')').toString();
      case VARIANT: case DYNAMIC: case JSON:
        return renderVariantDynamicJson();
      default:
        return simpleName(kind);
    }
  }

  static String simpleName(TypeKind kind) {
    switch (kind) {
      case INT8: return "Int8";
      case INT16: return "Int16";
      case INT32: return "Int32";
      case INT64: return "Int64";
      case INT128: return "Int128";
      case INT256: return "Int256";
      case UINT8: return "UInt8";
      case UINT16: return "UInt16";
      case UINT32: return "UInt32";
      case UINT64: return "UInt64";
      case UINT128: return "UInt128";
      case UINT256: return "UInt256";
      case FLOAT32: return "Float32";
      case FLOAT64: return "Float64";
      case BOOL: return "Bool";
      case STRING: return "String";
      case DATE: return "Date";
      case DATE32: return "Date32";
      case DATETIME: return "DateTime";
      case UUID: return "UUID";
      case IPV4: return "IPv4";
      case IPV6: return "IPv6";
      case NOTHING: return "Nothing";
      case BFLOAT16: return "BFloat16";
      case TIME: return "Time";
      case POINT: return "Point";
      case RING: return "Ring";
      case LINE_STRING: return "LineString";
      case MULTI_LINE_STRING: return "MultiLineString";
      case POLYGON: return "Polygon";
      case MULTI_POLYGON: return "MultiPolygon";
      default: throw new IllegalArgumentException(kind + " has parameters");
    }
  }

  /** Quotes a string literal as ClickHouse prints it: single quotes, backslash escapes. */
  static String quote(String s) {
    return quote(s, '\'');
  }

  /**
   * Quotes {@code s} between {@code quote} characters as the server does: a backslash before the
   * quote character and the backslash, and {@code \b \f \n \r \t \0} for those controls.
   */
  private static String quote(String s, char quote) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\': sb.append("\\\\"); break;
        case '\b': sb.append("\\b"); break;
        case '\f': sb.append("\\f"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        case '\0': sb.append("\\0"); break;
        default:
          if (c == quote) {
            sb.append('\\');
          }
          sb.append(c);
      }
    }
    return sb.append(quote).toString();
  }

  /**
   * Prints an element name as the server does: bare when it is a plain identifier ({@code
   * [A-Za-z_][A-Za-z0-9_]*}) other than a word the server always quotes, else in backquotes.
   */
  static String identifier(String name) {
    boolean plain = !name.isEmpty() && !ALWAYS_QUOTED.contains(name.toLowerCase(Locale.ROOT));
    for (int i = 0; plain && i < name.length(); i++) {
      char c = name.charAt(i);
      plain = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (i > 0 && c >= '0' && c <= '9');
    }
    return plain ? name : quote(name, '`');
  }

  /**
   * Returns the type as the server names it: its canonical spelling, the text a 26.x server
   * requires in a RowBinaryWithNamesAndTypes header ({@code Decimal(9, 4)} for {@code
   * Decimal32(4)}, {@code Bool} for {@code Boolean}, {@code Enum8(...)} for an {@code Enum(...)}
   * without width, {@code ", "} between arguments), computed from the parsed type and never
   * from the text it was parsed from.
   */
  public String canonicalName() {
    return canonical;
  }

  /** Returns the type in ClickHouse's canonical spelling, {@link #canonicalName()}. */
  @Override
  public String toString() {
    return canonical;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClickHouseType t && canonical.equals(t.canonical);
  }

  @Override
  public int hashCode() {
    return canonical.hashCode();
  }

  /** Returns {@code Objects.requireNonNull}-checked kind, for switch statements in encoders. */
  static TypeKind kindOf(ClickHouseType t) {
    return Objects.requireNonNull(t, "type").kind;
  }
}
