package dev.handoff.clickhouse.type;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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

  private final TypeKind kind;
  private final int precision;
  /** Decimal's scale; QBit's stride (its dimension when it has none). */
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
    this.zone = timeZone != null ? TypeRules.zoneOf(timeZone)
        : defaultZone != null ? defaultZone : ZoneOffset.UTC;
    this.elements = elements;
    this.names = names;
    this.enumNames = enumNames;
    this.enumValues = enumValues;
    this.enumByName = TypeRules.enumIndex(enumNames, enumValues);
    this.canonical = TypeText.render(this);
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
   * names; QBit of other element types or a stride that does not divide its dimension (or, below
   * it, is no multiple of 8); SimpleAggregateFunction of a function the server does not
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
    return TypeRules.of(kind);
  }

  /** Returns the type {@code kind} without parameters, for {@link TypeRules#of}. */
  static ClickHouseType plain(TypeKind kind) {
    return new ClickHouseType(kind, 0, 0, 0, null, List.of(), null, null, null);
  }

  /**
   * Returns {@code Decimal(precision, scale)}, {@code 1 <= precision <= 76}, {@code 0 <= scale <=
   * precision}.
   */
  public static ClickHouseType decimal(int precision, int scale) {
    TypeRules.checkRange("Decimal precision", precision, 1, 76);
    TypeRules.checkRange("Decimal scale", scale, 0, precision);
    return new ClickHouseType(TypeKind.DECIMAL, precision, scale, 0, null, List.of(), null, null,
        null);
  }

  /** Returns {@code FixedString(length)}, {@code length >= 1}. */
  public static ClickHouseType fixedString(int length) {
    TypeRules.checkRange("FixedString length", length, 1, Integer.MAX_VALUE);
    return new ClickHouseType(TypeKind.FIXED_STRING, 0, 0, length, null, List.of(), null, null,
        null);
  }

  /** Returns {@code DateTime('timeZone')}, or plain {@code DateTime} for {@code null}. */
  public static ClickHouseType dateTime(String timeZone) {
    return new ClickHouseType(TypeKind.DATETIME, 0, 0, 0, timeZone, List.of(), null, null, null);
  }

  /** Returns {@code DateTime64(precision[, 'timeZone'])}, {@code 0 <= precision <= 9}. */
  public static ClickHouseType dateTime64(int precision, String timeZone) {
    TypeRules.checkRange("DateTime64 precision", precision, 0, 9);
    return new ClickHouseType(TypeKind.DATETIME64, precision, 0, 0, timeZone, List.of(), null,
        null, null);
  }

  /**
   * Returns {@code Enum8} or {@code Enum16} with the given elements (any order; printed sorted by
   * value).
   */
  public static ClickHouseType enumType(TypeKind kind, String[] names, int[] values) {
    return TypeRules.enumType(kind, names, values);
  }

  /** Returns an enum from elements {@link TypeRules} has checked and sorted by value. */
  static ClickHouseType checkedEnum(TypeKind kind, String[] names, int[] values) {
    return new ClickHouseType(kind, 0, 0, 0, null, List.of(), null, names, values);
  }

  /** Returns {@code Time64(precision)}, {@code 0 <= precision <= 9}. */
  public static ClickHouseType time64(int precision) {
    TypeRules.checkRange("Time64 precision", precision, 0, 9);
    return new ClickHouseType(TypeKind.TIME64, precision, 0, 0, null, List.of(), null, null, null);
  }

  /**
   * Returns {@code QBit(element, dimension)}: {@code element} BFloat16, Float32, Float64 or Int8,
   * {@code dimension >= 1}.
   */
  public static ClickHouseType qbit(ClickHouseType element, int dimension) {
    return qbit(element, dimension, dimension);
  }

  /**
   * Returns {@code QBit(element, dimension, stride)} (ClickHouse 26.x): a Native block holds the
   * elements in groups of {@code stride}, one group after the other. As on the server, {@code
   * stride} divides {@code dimension} and is a multiple of 8 unless it equals {@code dimension};
   * then the type is {@code QBit(element, dimension)}, as the server prints it.
   */
  public static ClickHouseType qbit(ClickHouseType element, int dimension, int stride) {
    TypeRules.refuse(ModernTypes.checkQBit(element, dimension));
    TypeRules.refuse(ModernTypes.checkQBitStride(dimension, stride));
    return new ClickHouseType(TypeKind.QBIT, 0, stride, dimension, null, List.of(element), null,
        null, null);
  }

  /**
   * Returns {@code SimpleAggregateFunction(function, value)}; {@code function} is one of the
   * functions the server allows there ({@code any}, {@code anyLast}, {@code sum}, {@code max},
   * ...).
   */
  public static ClickHouseType simpleAggregateFunction(String function, ClickHouseType value) {
    TypeRules.refuse(ModernTypes.checkSimpleAggregateFunction(function));
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
    TypeRules.refuse(TypeRules.checkNamed(kind, names, elements));
    return new ClickHouseType(kind, 0, 0, 0, null, List.copyOf(elements), List.copyOf(names), null,
        null);
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
    return TypeRules.variant(types);
  }

  /** Returns a Variant or JSON from parts {@link TypeRules} has checked and sorted. */
  static ClickHouseType checkedVariantOrJson(TypeKind kind, List<ClickHouseType> elements,
      List<String> names, int maxTypes, int maxPaths, List<String> skipPaths,
      List<String> skipRegexps) {
    return new ClickHouseType(kind, 0, 0, 0, null, elements, names, null, null, null, null,
        maxTypes, maxPaths, skipPaths, skipRegexps);
  }

  /** Returns {@code Dynamic(max_types=maxTypes)}, printed {@code Dynamic} for the default 32. */
  public static ClickHouseType dynamic(int maxTypes) {
    TypeRules.checkRange("Dynamic max_types", maxTypes, 0, MAX_MAX_TYPES);
    return new ClickHouseType(TypeKind.DYNAMIC, 0, 0, 0, null, List.of(), null, null, null,
        null, null, maxTypes, 0, List.of(), List.of());
  }

  /**
   * Returns {@code JSON(...)}: {@code maxTypes} ({@code max_dynamic_types}, 0..254), {@code
   * maxPaths} ({@code max_dynamic_paths}, 0..10000), typed paths ({@code paths[i] types[i]},
   * sorted by path), {@code SKIP} paths and {@code SKIP REGEXP} expressions (each sorted and
   * without repeats), printed as the server prints them.
   */
  public static ClickHouseType json(int maxTypes, int maxPaths, List<String> paths,
      List<ClickHouseType> types, List<String> skipPaths, List<String> skipRegexps) {
    return TypeRules.json(maxTypes, maxPaths, paths, types, skipPaths, skipRegexps);
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
    return kind == TypeKind.DECIMAL ? scale : 0;
  }

  /**
   * Returns S of {@code QBit(T, N, S)}, N for a QBit without a stride (or with S = N), else 0.
   */
  public int stride() {
    return kind == TypeKind.QBIT ? scale : 0;
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
    return TypeRules.withDefaultZone(this, Objects.requireNonNull(defaultZone, "defaultZone"));
  }

  /** Returns this type with {@code elements} and {@code defaultZone}, for {@link TypeRules}. */
  ClickHouseType with(List<ClickHouseType> elements, ZoneId defaultZone) {
    return new ClickHouseType(kind, precision, scale, length, timeZone, elements, names,
        enumNames, enumValues, function, defaultZone, maxTypes, maxPaths, skipPaths, skipRegexps);
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
}
