package dev.handoff.clickhouse.type;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The part of {@link TypeParser} for the types of ClickHouse 19.8 to 26 that take arguments:
 * {@code Time64}, {@code QBit}, {@code SimpleAggregateFunction}, {@code Variant}, {@code Dynamic}
 * and {@code JSON}, and the error for a type name the model refuses.
 */
abstract class ModernTypeSyntax extends TypeTokens {

  ModernTypeSyntax(String text) {
    super(text);
  }

  /**
   * Parses one type at the current position (after optional whitespace).
   *
   * @param inNullable whether the type is the direct argument of {@code Nullable}, the only place
   *     {@code Nothing} may appear
   */
  abstract ClickHouseType parseType(boolean inNullable);

  /** {@code Time64(P)}; the server refuses a time zone argument. */
  ClickHouseType time64() {
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

  /** {@code QBit(T, N)} or {@code QBit(T, N, S)} with a stride S (ClickHouse 26.x). */
  ClickHouseType qbit() {
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
    int stride = dimension;
    if (commaOrClose()) {
      int strideAt = skipWhitespaceAndMark();
      stride = readUnsigned();
      problem = ModernTypes.checkQBitStride(dimension, stride);
      if (problem != null) {
        throw error(strideAt, problem);
      }
      close();
    }
    return ClickHouseType.qbit(element, dimension, stride);
  }

  /** {@code SimpleAggregateFunction(f, T)} with a function the server allows there. */
  ClickHouseType simpleAggregateFunction() {
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
  TypeParseException refused(int start, String name) {
    return TypeParseException.refused(text, start,
        ModernTypes.refusal(name, wholeTypeAt(start)));
  }

  /** {@code Variant(T1, ...)}: no Nullable, LowCardinality(Nullable), Variant or Dynamic inside. */
  ClickHouseType variant() {
    open();
    List<ClickHouseType> types = new ArrayList<>();
    do {
      int at = skipWhitespaceAndMark();
      ClickHouseType t = parseType(true); // the server drops a Nothing
      String problem = TypeRules.variantElementProblem(t);
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
  ClickHouseType dynamic() {
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
  int parameterValue(int max, String what) {
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
  ClickHouseType json() {
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
}
