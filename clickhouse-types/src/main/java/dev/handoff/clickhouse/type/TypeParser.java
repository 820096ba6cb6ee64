package dev.handoff.clickhouse.type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses ClickHouse type strings; see {@link ClickHouseType#parse}.
 *
 * <p>A recursive-descent parser over the grammar the server prints in {@code DESCRIBE TABLE} and
 * {@code system.columns}. It checks what the server checks when it builds a type (Nullable and
 * LowCardinality arguments, Map keys, enum and element names, parameter ranges), so a string the
 * server would refuse fails here too. Every failure is a {@link TypeParseException} with the
 * 0-based char position it refers to.
 *
 * <p>Whitespace ({@code ' ' \t \n \r \f \v}) is allowed before and after every token. Type names
 * are case-sensitive, as the server prints them; {@code Boolean} is read as {@code Bool}.
 */
final class TypeParser extends ModernTypeSyntax {

  /** How deep types may nest; the server's own parser stops at 1000 by default. */
  static final int MAX_DEPTH = 200;

  /** The largest N of {@code FixedString(N)} the server accepts. */
  static final int MAX_FIXED_STRING = 0xFF_FFFF;

  /** Types without parameters, by name. */
  private static final Map<String, TypeKind> SIMPLE = simpleTypes();

  private int depth;

  TypeParser(String text) {
    super(text);
  }

  /** Parses the whole text as one type, allowing whitespace around it. */
  ClickHouseType parseWhole() {
    ClickHouseType type = parseType(false);
    skipWhitespace();
    if (pos < end) {
      throw error(pos, "trailing characters after the type");
    }
    return type;
  }

  /* ------------------------------------------------------------------ Types */

  @Override
  ClickHouseType parseType(boolean inNullable) {
    skipWhitespace();
    int start = pos;
    if (++depth > MAX_DEPTH) {
      throw error(start, "types nested deeper than " + MAX_DEPTH + " levels");
    }
    if (pos >= end || !isIdentifierStart(text.charAt(pos))) {
      throw error(pos, "expected a type name");
    }
    String name = readWord();
    ClickHouseType type;
    switch (name) {
      case "Nothing":
        if (!inNullable) {
          throw error(start, "Nothing is only valid as Nullable(Nothing)");
        }
        noArguments(name);
        type = ClickHouseType.of(TypeKind.NOTHING);
        break;
      case "Decimal":
        type = decimal();
        break;
      case "Decimal32":
        type = decimalWithScale(9);
        break;
      case "Decimal64":
        type = decimalWithScale(18);
        break;
      case "Decimal128":
        type = decimalWithScale(38);
        break;
      case "Decimal256":
        type = decimalWithScale(76);
        break;
      case "FixedString":
        type = fixedString();
        break;
      case "DateTime":
        type = dateTime();
        break;
      case "DateTime64":
        type = dateTime64();
        break;
      case "Enum8":
        type = enumType(TypeKind.ENUM8);
        break;
      case "Enum16":
        type = enumType(TypeKind.ENUM16);
        break;
      case "Enum":
        type = enumType(null);
        break;
      case "Time64":
        type = time64();
        break;
      case "QBit":
        type = qbit();
        break;
      case "SimpleAggregateFunction":
        type = simpleAggregateFunction();
        break;
      case "Nullable":
        type = nullable();
        break;
      case "Array":
        open();
        type = ClickHouseType.array(parseType(false));
        close();
        break;
      case "LowCardinality":
        type = lowCardinality();
        break;
      case "Map":
        type = map();
        break;
      case "Tuple":
        type = elements(TypeKind.TUPLE);
        break;
      case "Nested":
        type = elements(TypeKind.NESTED);
        break;
      case "Variant":
        type = variant();
        break;
      case "Dynamic":
        type = dynamic();
        break;
      case "JSON":
        type = json();
        break;
      default:
        TypeKind kind = SIMPLE.get(name);
        if (kind == null) {
          throw refused(start, name);
        }
        noArguments(name);
        type = ClickHouseType.of(kind);
    }
    depth--;
    return type;
  }

  /** Fails when a type without parameters is followed by an argument list. */
  private void noArguments(String name) {
    int after = pos;
    skipWhitespace();
    if (pos < end && text.charAt(pos) == '(') {
      throw error(pos, name + " takes no arguments");
    }
    pos = after;
  }

  /** {@code Decimal(P, S)}, or {@code Decimal(P)} with scale 0. */
  private ClickHouseType decimal() {
    open();
    int precisionAt = skipWhitespaceAndMark();
    int precision = readUnsigned();
    if (precision < 1 || precision > 76) {
      throw error(precisionAt, "Decimal precision must be between 1 and 76");
    }
    int scale = 0;
    if (commaOrClose()) {
      scale = scale(precision);
      close();
    }
    return ClickHouseType.decimal(precision, scale);
  }

  /** {@code Decimal32(S)} and its siblings, printed by the server as {@code Decimal(P, S)}. */
  private ClickHouseType decimalWithScale(int precision) {
    open();
    int scale = scale(precision);
    close();
    return ClickHouseType.decimal(precision, scale);
  }

  private int scale(int precision) {
    int scaleAt = skipWhitespaceAndMark();
    int scale = readUnsigned();
    if (scale > precision) {
      throw error(scaleAt, "Decimal scale must be between 0 and " + precision);
    }
    return scale;
  }

  private ClickHouseType fixedString() {
    open();
    int lengthAt = skipWhitespaceAndMark();
    int length = readUnsigned();
    if (length < 1 || length > MAX_FIXED_STRING) {
      throw error(lengthAt, "FixedString length must be between 1 and " + MAX_FIXED_STRING);
    }
    close();
    return ClickHouseType.fixedString(length);
  }

  /** {@code DateTime} or {@code DateTime('zone')}. */
  private ClickHouseType dateTime() {
    int after = pos;
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != '(') {
      pos = after;
      return ClickHouseType.dateTime(null);
    }
    pos++;
    int zoneAt = skipWhitespaceAndMark();
    String zone = readStringLiteral();
    close();
    try {
      return ClickHouseType.dateTime(zone);
    } catch (IllegalArgumentException e) {
      throw error(zoneAt, "unknown time zone '" + zone + "'");
    }
  }

  /** {@code DateTime64(P)} or {@code DateTime64(P, 'zone')}. */
  private ClickHouseType dateTime64() {
    open();
    int precisionAt = skipWhitespaceAndMark();
    int precision = readUnsigned();
    if (precision > 9) {
      throw error(precisionAt, "DateTime64 precision must be between 0 and 9");
    }
    String zone = null;
    int zoneAt = -1;
    if (commaOrClose()) {
      zoneAt = skipWhitespaceAndMark();
      zone = readStringLiteral();
      close();
    }
    try {
      return ClickHouseType.dateTime64(precision, zone);
    } catch (IllegalArgumentException e) {
      throw error(zoneAt, "unknown time zone '" + zone + "'");
    }
  }

  /**
   * {@code Enum8('name' = value, ...)}, {@code Enum16(...)} or {@code Enum(...)} (null kind: Enum8
   * when every value fits a byte, else Enum16, as the server decides), elements in any order.
   * As on the server, values may be left out: of every element ({@code Enum('a', 'b')} numbers
   * them 1, 2, ...) or of every element but the first ({@code Enum('a' = 5, 'b')} counts on from
   * 5); other mixes are refused.
   */
  private ClickHouseType enumType(TypeKind declared) {
    int min = declared == TypeKind.ENUM8 ? Byte.MIN_VALUE : Short.MIN_VALUE;
    int max = declared == TypeKind.ENUM8 ? Byte.MAX_VALUE : Short.MAX_VALUE;
    String family = declared == null ? "Enum" : declared == TypeKind.ENUM8 ? "Enum8" : "Enum16";
    open();
    List<String> names = new ArrayList<>();
    List<Integer> values = new ArrayList<>();
    Set<String> seenNames = new HashSet<>();
    Set<Integer> seenValues = new HashSet<>();
    int explicit = 0;
    int next = 1;
    do {
      int nameAt = skipWhitespaceAndMark();
      String name = readStringLiteral();
      if (!seenNames.add(name)) {
        throw error(nameAt, "duplicate enum name " + TypeText.quote(name));
      }
      skipWhitespace();
      int valueAt = pos;
      long value;
      if (pos < end && text.charAt(pos) == '=') {
        pos++;
        valueAt = skipWhitespaceAndMark();
        value = readSigned();
        if (names.size() > explicit) {
          throw error(valueAt, "an enum value after elements without one (write every value, or"
              + " only the first)");
        }
        explicit++;
      } else {
        if (explicit > 1) {
          throw error(valueAt, "expected '=' (write every enum value, or only the first)");
        }
        value = next;
      }
      if (value < min || value > max) {
        throw error(valueAt, "enum value " + value + " out of range for " + family + " (" + min
            + ".." + max + ")");
      }
      if (!seenValues.add((int) value)) {
        throw error(valueAt, "duplicate enum value " + value);
      }
      names.add(name);
      values.add((int) value);
      next = (int) value + 1;
    } while (commaOrClose());
    TypeKind kind = declared;
    if (kind == null) {
      kind = TypeKind.ENUM8;
      for (int v : values) {
        if (v < Byte.MIN_VALUE || v > Byte.MAX_VALUE) {
          kind = TypeKind.ENUM16;
        }
      }
    }
    String[] n = names.toArray(new String[0]);
    int[] v = values.stream().mapToInt(Integer::intValue).toArray();
    return ClickHouseType.enumType(kind, n, v);
  }

  /**
   * {@code Nullable(T)}: T may not be an Array, Map, Nested, array-like geo type, LowCardinality
   * or Nullable. A Tuple (and Point, QBit) may: servers from 26.x take {@code Nullable(Tuple)}
   * with {@code enable_nullable_tuple_type = 1}.
   */
  private ClickHouseType nullable() {
    open();
    int innerAt = skipWhitespaceAndMark();
    ClickHouseType inner = parseType(true);
    String problem = nullableProblem(inner);
    if (problem != null) {
      throw error(innerAt, problem);
    }
    close();
    return ClickHouseType.nullable(inner);
  }

  /** Returns why {@code inner} cannot be inside Nullable, or null when it can. */
  private static String nullableProblem(ClickHouseType inner) {
    switch (inner.kind()) {
      case VARIANT: case DYNAMIC:
        return inner + " cannot be inside Nullable (the server refuses it; " + inner.kind()
            + " holds NULL itself)";
      case NULLABLE: case ARRAY: case MAP: case LOW_CARDINALITY: case NESTED: case RING:
      case LINE_STRING: case MULTI_LINE_STRING: case POLYGON: case MULTI_POLYGON:
        return inner + " cannot be inside Nullable"
            + (inner.kind() == TypeKind.LOW_CARDINALITY ? " (write LowCardinality(Nullable(T)))"
                : inner.kind() == TypeKind.NULLABLE ? "" : " (put Nullable on the elements)");
      case SIMPLE_AGGREGATE_FUNCTION:
        return nullableProblem(inner.element());
      default:
        return null;
    }
  }

  /**
   * {@code LowCardinality(T)}: T a number, String, FixedString, a date or DateTime, UUID or an IP
   * address, or Nullable of one of those, as the server requires.
   */
  private ClickHouseType lowCardinality() {
    open();
    int innerAt = skipWhitespaceAndMark();
    ClickHouseType inner = parseType(false);
    ClickHouseType dictionary = inner.isNullable() ? inner.element() : inner;
    if (!fitsLowCardinality(dictionary.kind())) {
      throw error(innerAt, "LowCardinality is supported only for numbers, strings, Date, Date32, "
          + "DateTime, Time, UUID, IPv4 and IPv6, or Nullable of those, not " + inner);
    }
    close();
    return ClickHouseType.lowCardinality(inner);
  }

  private static boolean fitsLowCardinality(TypeKind kind) {
    switch (kind) {
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256:
      case FLOAT32: case FLOAT64: case BOOL: case STRING: case FIXED_STRING:
      case DATE: case DATE32: case DATETIME: case UUID: case IPV4: case IPV6:
      case BFLOAT16: case TIME:
        return true;
      default:
        return false;
    }
  }

  /** {@code Map(K, V)}: K may not be Nullable, not even inside LowCardinality. */
  private ClickHouseType map() {
    open();
    int keyAt = skipWhitespaceAndMark();
    ClickHouseType key = parseType(false);
    if (key.isNullable()
        || (key.kind() == TypeKind.LOW_CARDINALITY && key.element().isNullable())) {
      throw error(keyAt, "a Map key cannot be Nullable (" + key + ")");
    }
    expect(',');
    ClickHouseType value = parseType(false);
    close();
    return ClickHouseType.map(key, value);
  }

  /**
   * {@code Tuple(T1, ...)}, {@code Tuple(name1 T1, ...)} or {@code Nested(name1 T1, ...)}. An
   * element is named when it starts with a quoted identifier, or with a word followed by
   * whitespace and another word ({@code a Int8}); a lone word is a type ({@code Int8}).
   */
  private ClickHouseType elements(TypeKind kind) {
    open();
    List<String> names = new ArrayList<>();
    List<ClickHouseType> types = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    boolean named = false;
    do {
      int elementAt = skipWhitespaceAndMark();
      String name = readElementName();
      if (types.isEmpty()) {
        named = name != null;
        if (!named && kind == TypeKind.NESTED) {
          throw error(elementAt, "expected an element name (Nested elements are 'name Type')");
        }
      } else if (named && name == null) {
        throw error(elementAt, "expected an element name (the other elements are named)");
      } else if (!named && name != null) {
        throw error(elementAt, "unexpected element name (the other elements are unnamed)");
      }
      if (name != null) {
        String problem = TypeRules.checkElementName(name, seen);
        if (problem != null) {
          throw error(elementAt, problem);
        }
        names.add(name);
      }
      types.add(parseType(false));
    } while (commaOrClose());
    return named ? ClickHouseType.named(kind, names, types) : ClickHouseType.tuple(types);
  }

  /**
   * Reads the name of a named element and the whitespace after it, or returns {@code null} and
   * stays put when the element has no name.
   */
  private String readElementName() {
    if (pos >= end) {
      return null;
    }
    char c = text.charAt(pos);
    if (c == '`' || c == '"') {
      String name = readQuoted(c, "quoted identifier");
      skipWhitespace();
      return name;
    }
    if (!isIdentifierStart(c)) {
      return null;
    }
    int start = pos;
    String word = readWord();
    int afterWord = pos;
    skipWhitespace();
    if (pos > afterWord && pos < end && isIdentifierStart(text.charAt(pos))) {
      return word;
    }
    pos = start;
    return null;
  }

  private static Map<String, TypeKind> simpleTypes() {
    Map<String, TypeKind> m = new HashMap<>();
    for (TypeKind kind : TypeKind.values()) {
      switch (kind) {
        case DECIMAL: case FIXED_STRING: case DATETIME: case DATETIME64: case ENUM8: case ENUM16:
        case NULLABLE: case ARRAY: case TUPLE: case MAP: case LOW_CARDINALITY: case NESTED:
        case NOTHING: case TIME64: case QBIT: case SIMPLE_AGGREGATE_FUNCTION:
        case VARIANT: case DYNAMIC: case JSON:
          break;
        default:
          m.put(TypeText.simpleName(kind), kind);
      }
    }
    m.put("Boolean", TypeKind.BOOL);
    return Map.copyOf(m);
  }
}
