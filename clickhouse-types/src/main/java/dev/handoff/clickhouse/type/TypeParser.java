package dev.handoff.clickhouse.type;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
final class TypeParser {

  /** How deep types may nest; the server's own parser stops at 1000 by default. */
  static final int MAX_DEPTH = 200;

  /** The largest N of {@code FixedString(N)} the server accepts. */
  static final int MAX_FIXED_STRING = 0xFF_FFFF;

  /** Types without parameters, by name. */
  private static final Map<String, TypeKind> SIMPLE = simpleTypes();

  private final String text;
  private final int end;
  private int pos;
  private int depth;

  TypeParser(String text) {
    this.text = text;
    this.end = text.length();
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

  /**
   * Parses one type at the current position (after optional whitespace).
   *
   * @param inNullable whether the type is the direct argument of {@code Nullable}, the only place
   *     {@code Nothing} may appear
   */
  private ClickHouseType parseType(boolean inNullable) {
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
        type = qbit(start);
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
        throw error(nameAt, "duplicate enum name " + ClickHouseType.quote(name));
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

  /** {@code Time64(P)}; the server refuses a time zone argument. */
  private ClickHouseType time64() {
    open();
    int precisionAt = skipWhitespaceAndMark();
    int precision = readUnsigned();
    if (precision > 9) {
      throw error(precisionAt, "Time64 precision must be between 0 and 9");
    }
    skipWhitespace();
    if (pos < end && text.charAt(pos) == ',') {
      throw error(pos, "Time64 takes no time zone (Time and Time64 have none)");
    }
    close();
    return ClickHouseType.time64(precision);
  }

  /** {@code QBit(T, N)}; the optional third argument (stride, ClickHouse 26.x) is refused. */
  private ClickHouseType qbit(int start) {
    open();
    int elementAt = skipWhitespaceAndMark();
    ClickHouseType element = parseType(false);
    expect(',');
    int dimensionAt = skipWhitespaceAndMark();
    int dimension = readUnsigned();
    String problem = ModernTypes.checkQBit(element, dimension);
    if (problem != null) {
      throw error(element.kind() == TypeKind.INT8 || element.kind() == TypeKind.BFLOAT16
          || element.kind() == TypeKind.FLOAT32 || element.kind() == TypeKind.FLOAT64
          ? dimensionAt : elementAt, problem);
    }
    skipWhitespace();
    if (pos < end && text.charAt(pos) == ',') {
      throw TypeParseException.refused(text, pos, "unsupported type '" + wholeTypeAt(start)
          + "': handoff does not write QBit with a stride (its third argument)");
    }
    close();
    return ClickHouseType.qbit(element, dimension);
  }

  /** {@code SimpleAggregateFunction(f, T)} with a function the server allows there. */
  private ClickHouseType simpleAggregateFunction() {
    open();
    int functionAt = skipWhitespaceAndMark();
    if (pos >= end || !isIdentifierStart(text.charAt(pos))) {
      throw error(pos, "expected an aggregate function name");
    }
    String function = readWord();
    skipWhitespace();
    if (pos < end && text.charAt(pos) == '(') {
      throw error(pos, "SimpleAggregateFunction takes no function parameters");
    }
    String problem = ModernTypes.checkSimpleAggregateFunction(function);
    if (problem != null) {
      throw error(functionAt, problem);
    }
    expect(',');
    ClickHouseType value = parseType(false);
    close();
    return ClickHouseType.simpleAggregateFunction(function, value);
  }

  /**
   * The error for a type name the model refuses: unsupported (a server type handoff does not
   * write, with the version that introduced it) or unknown, naming the whole type with its
   * arguments.
   */
  private TypeParseException refused(int start, String name) {
    return TypeParseException.refused(text, start,
        ModernTypes.refusal(name, wholeTypeAt(start)));
  }

  /**
   * Returns the type text that starts at {@code start}: its name and, when an argument list
   * follows, everything to its closing parenthesis (quotes respected), or to the end of the text.
   */
  private String wholeTypeAt(int start) {
    int i = start;
    while (i < end && isIdentifierPart(text.charAt(i))) {
      i++;
    }
    int j = i;
    while (j < end && isWhitespace(text.charAt(j))) {
      j++;
    }
    if (j >= end || text.charAt(j) != '(') {
      return text.substring(start, i);
    }
    int level = 0;
    char quote = 0;
    for (; j < end; j++) {
      char c = text.charAt(j);
      if (quote != 0) {
        if (c == '\\') {
          j++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '`' || c == '"') {
        quote = c;
      } else if (c == '(') {
        level++;
      } else if (c == ')' && --level == 0) {
        return text.substring(start, j + 1);
      }
    }
    return text.substring(start);
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
        String problem = ClickHouseType.checkElementName(name, seen);
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

  /* ------------------------------------------------------------------ Variant, Dynamic, JSON */

  /** {@code Variant(T1, ...)}: no Nullable, LowCardinality(Nullable), Variant or Dynamic inside. */
  private ClickHouseType variant() {
    open();
    List<ClickHouseType> types = new ArrayList<>();
    do {
      int at = skipWhitespaceAndMark();
      ClickHouseType t = parseType(true); // the server drops a Nothing
      String problem = ClickHouseType.variantElementProblem(t);
      if (problem != null) {
        throw error(at, problem);
      }
      types.add(t);
    } while (commaOrClose());
    try {
      return ClickHouseType.variant(types);
    } catch (IllegalArgumentException e) {
      throw error(pos - 1, e.getMessage());
    }
  }

  /** {@code Dynamic} or {@code Dynamic(max_types=N)}, N in 0..254. */
  private ClickHouseType dynamic() {
    int after = pos;
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != '(') {
      pos = after;
      return ClickHouseType.dynamic(ClickHouseType.DEFAULT_MAX_TYPES);
    }
    pos++;
    int at = skipWhitespaceAndMark();
    if (pos >= end || !isIdentifierStart(text.charAt(pos)) || !readWord().equals("max_types")) {
      throw error(at, "expected max_types=N");
    }
    int n = parameterValue(ClickHouseType.MAX_MAX_TYPES, "Dynamic max_types");
    close();
    return ClickHouseType.dynamic(n);
  }

  /** Reads {@code = N} with N in 0..max. */
  private int parameterValue(int max, String what) {
    expect('=');
    int at = skipWhitespaceAndMark();
    int n = readUnsigned();
    if (n > max) {
      throw error(at, what + " must be between 0 and " + max);
    }
    return n;
  }

  /**
   * {@code JSON} or {@code JSON(arg, ...)}, each argument {@code max_dynamic_types=N}, {@code
   * max_dynamic_paths=N}, a typed path {@code path Type} (path bare with dots, or quoted), {@code
   * SKIP path} or {@code SKIP REGEXP 'expression'}.
   */
  private ClickHouseType json() {
    int after = pos;
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != '(') {
      pos = after;
      return ClickHouseType.json(ClickHouseType.DEFAULT_MAX_TYPES,
          ClickHouseType.DEFAULT_MAX_PATHS, List.of(), List.of(), List.of(), List.of());
    }
    pos++;
    int maxTypes = ClickHouseType.DEFAULT_MAX_TYPES;
    int maxPaths = ClickHouseType.DEFAULT_MAX_PATHS;
    List<String> paths = new ArrayList<>();
    List<ClickHouseType> types = new ArrayList<>();
    List<String> skip = new ArrayList<>();
    List<String> regexps = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    skipWhitespace();
    if (pos < end && text.charAt(pos) == ')') {
      pos++;
    } else {
      do {
        int at = skipWhitespaceAndMark();
        String path = readJsonPath();
        if (path.equals("max_dynamic_types") && nextIs('=')) {
          maxTypes = parameterValue(ClickHouseType.MAX_MAX_TYPES, "JSON max_dynamic_types");
        } else if (path.equals("max_dynamic_paths") && nextIs('=')) {
          maxPaths = parameterValue(ClickHouseType.MAX_MAX_PATHS, "JSON max_dynamic_paths");
        } else if (path.equals("SKIP")) {
          skipWhitespace();
          int wordAt = pos;
          String next = readJsonPath();
          if (next.equals("REGEXP") && nextIs('\'')) {
            regexps.add(readStringLiteral());
          } else if (next.isEmpty()) {
            throw error(wordAt, "expected a path or REGEXP after SKIP");
          } else {
            skip.add(next);
          }
        } else {
          if (path.isEmpty()) {
            throw error(at, "expected a typed path, SKIP, max_dynamic_types or max_dynamic_paths");
          }
          if (!seen.add(path)) {
            throw error(at, "duplicate JSON typed path '" + path + "'");
          }
          paths.add(path);
          types.add(parseType(false));
        }
      } while (commaOrClose());
    }
    return ClickHouseType.json(maxTypes, maxPaths, paths, types, skip, regexps);
  }

  /** Whether the next non-blank character is {@code c} (nothing consumed). */
  private boolean nextIs(char c) {
    int at = pos;
    skipWhitespace();
    boolean is = pos < end && text.charAt(pos) == c;
    pos = at;
    return is;
  }

  /**
   * Reads a JSON path: backquoted or double-quoted parts, or bare identifiers, joined by dots
   * ({@code a.b}, {@code `a.b`.c}); returns "" when none starts here.
   */
  private String readJsonPath() {
    StringBuilder path = new StringBuilder();
    while (pos < end) {
      char c = text.charAt(pos);
      if (c == '`' || c == '"') {
        path.append(readQuoted(c, "quoted identifier"));
      } else if (isIdentifierPart(c)) {
        path.append(readWord());
      } else {
        break;
      }
      if (pos < end && text.charAt(pos) == '.') {
        path.append('.');
        pos++;
      } else {
        break;
      }
    }
    return path.toString();
  }

  /* ------------------------------------------------------------------ Tokens */

  private static boolean isIdentifierStart(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isIdentifierPart(char c) {
    return isIdentifierStart(c) || (c >= '0' && c <= '9');
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
  }

  private void skipWhitespace() {
    while (pos < end && isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private int skipWhitespaceAndMark() {
    skipWhitespace();
    return pos;
  }

  /** Reads {@code [A-Za-z_][A-Za-z0-9_]*}; the caller has checked the first char. */
  private String readWord() {
    int start = pos;
    while (pos < end && isIdentifierPart(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private void expect(char c) {
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != c) {
      throw error(pos, "expected '" + c + "'");
    }
    pos++;
  }

  private void open() {
    expect('(');
  }

  private void close() {
    expect(')');
  }

  /** Consumes {@code ','} (returns true) or {@code ')'} (returns false), else fails. */
  private boolean commaOrClose() {
    skipWhitespace();
    if (pos < end) {
      char c = text.charAt(pos);
      if (c == ',' || c == ')') {
        pos++;
        return c == ',';
      }
    }
    throw error(pos, "expected ',' or ')'");
  }

  /** Reads a non-negative decimal integer that fits an {@code int}. */
  private int readUnsigned() {
    skipWhitespace();
    return readDigits(pos, false);
  }

  /** Reads an optionally negative decimal integer that fits an {@code int}. */
  private int readSigned() {
    skipWhitespace();
    int start = pos;
    boolean negative = pos < end && text.charAt(pos) == '-';
    if (negative) {
      pos++;
    }
    return readDigits(start, negative);
  }

  private int readDigits(int start, boolean negative) {
    if (pos >= end || !isDigit(text.charAt(pos))) {
      throw error(pos, "expected an integer");
    }
    long value = 0;
    while (pos < end && isDigit(text.charAt(pos))) {
      value = value * 10 + (text.charAt(pos++) - '0');
      if (value > Integer.MAX_VALUE + (negative ? 1L : 0L)) {
        throw error(start, "integer out of range");
      }
    }
    return (int) (negative ? -value : value);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Reads a single-quoted string literal. */
  private String readStringLiteral() {
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != '\'') {
      throw error(pos, "expected a string literal");
    }
    return readQuoted('\'', "string literal");
  }

  /**
   * Reads text between {@code quote} characters as the server's lexer does: a doubled quote is
   * one quote; after a backslash, {@code a b e f n r t v 0} are controls, {@code xHH} is a byte
   * (runs of them must form UTF-8), {@code N} is nothing, and any other character stands for
   * itself, keeping the backslash unless it is a quote, backslash, slash, {@code =} or a control.
   */
  private String readQuoted(char quote, String what) {
    int open = pos++;
    StringBuilder out = new StringBuilder();
    byte[] bytes = null;
    int byteCount = 0;
    int bytesAt = -1;
    while (true) {
      if (pos >= end) {
        throw error(open, "unterminated " + what);
      }
      char c = text.charAt(pos);
      boolean hexByte = c == '\\' && pos + 1 < end && text.charAt(pos + 1) == 'x';
      if (!hexByte && byteCount > 0) {
        out.append(decodeUtf8(bytes, byteCount, bytesAt));
        byteCount = 0;
      }
      if (c == quote) {
        if (pos + 1 < end && text.charAt(pos + 1) == quote) {
          out.append(quote);
          pos += 2;
          continue;
        }
        pos++;
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        pos++;
        continue;
      }
      if (pos + 1 >= end) {
        throw error(open, "unterminated " + what);
      }
      char e = text.charAt(pos + 1);
      if (hexByte) {
        int hi = pos + 2 < end ? hexValue(text.charAt(pos + 2)) : -1;
        int lo = pos + 3 < end ? hexValue(text.charAt(pos + 3)) : -1;
        if (hi < 0 || lo < 0) {
          throw error(pos, "expected two hex digits after \\x");
        }
        if (byteCount == 0) {
          bytesAt = pos;
          if (bytes == null) {
            bytes = new byte[16];
          }
        } else if (byteCount == bytes.length) {
          bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        bytes[byteCount++] = (byte) (hi << 4 | lo);
        pos += 4;
        continue;
      }
      pos += 2;
      char decoded;
      switch (e) {
        case 'a': decoded = '\u0007'; break;
        case 'b': decoded = '\b'; break;
        case 'e': decoded = '\u001B'; break;
        case 'f': decoded = '\f'; break;
        case 'n': decoded = '\n'; break;
        case 'r': decoded = '\r'; break;
        case 't': decoded = '\t'; break;
        case 'v': decoded = '\u000B'; break;
        case '0': decoded = '\0'; break;
        case 'N': continue; // the server reads \N as nothing
        default: decoded = e;
      }
      boolean keepsBackslash = decoded != '\\' && decoded != '\'' && decoded != '"'
          && decoded != '`' && decoded != '/' && decoded != '=' && decoded >= 0x20
          && decoded != 0x7F;
      if (keepsBackslash) {
        out.append('\\');
      }
      out.append(decoded);
    }
  }

  private static int hexValue(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  private String decodeUtf8(byte[] bytes, int count, int at) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, count))
          .toString();
    } catch (CharacterCodingException e) {
      throw error(at, "\\x escapes that are not UTF-8 (names are Java strings here)");
    }
  }

  private TypeParseException error(int at, String expected) {
    return new TypeParseException(text, at, expected);
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
          m.put(ClickHouseType.simpleName(kind), kind);
      }
    }
    m.put("Boolean", TypeKind.BOOL);
    return Map.copyOf(m);
  }
}
