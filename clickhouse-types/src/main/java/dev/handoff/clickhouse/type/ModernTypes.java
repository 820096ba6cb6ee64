package dev.handoff.clickhouse.type;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of the types ClickHouse added after 18.16 that the model knows (geo types, QBit,
 * SimpleAggregateFunction), and the server versions that introduced the families it refuses, for
 * messages that say why a type is refused rather than that it "cannot be parsed".
 */
final class ModernTypes {
  private ModernTypes() {}

  /** The geo types, each over its underlying type, built once. */
  private static final ClickHouseType POINT = ClickHouseType.geo(TypeKind.POINT,
      List.of(ClickHouseType.of(TypeKind.FLOAT64), ClickHouseType.of(TypeKind.FLOAT64)));
  private static final ClickHouseType RING = ClickHouseType.geo(TypeKind.RING, List.of(POINT));
  private static final ClickHouseType LINE_STRING =
      ClickHouseType.geo(TypeKind.LINE_STRING, List.of(POINT));
  private static final ClickHouseType MULTI_LINE_STRING =
      ClickHouseType.geo(TypeKind.MULTI_LINE_STRING, List.of(LINE_STRING));
  private static final ClickHouseType POLYGON =
      ClickHouseType.geo(TypeKind.POLYGON, List.of(RING));
  private static final ClickHouseType MULTI_POLYGON =
      ClickHouseType.geo(TypeKind.MULTI_POLYGON, List.of(POLYGON));

  /** The functions a 26.7 server allows in SimpleAggregateFunction (its own error lists them). */
  static final Set<String> SIMPLE_FUNCTIONS = Set.of("any", "any_respect_nulls", "anyLast",
      "anyLast_respect_nulls", "min", "max", "sum", "sumWithOverflow", "groupBitAnd",
      "groupBitOr", "groupBitXor", "sumMap", "minMap", "maxMap", "groupArrayArray",
      "groupArrayLastArray", "groupUniqArrayArray", "groupUniqArrayArrayMap", "sumMappedArrays",
      "minMappedArrays", "maxMappedArrays");

  /**
   * Server type families handoff does not write, with the ClickHouse version that introduced
   * each where a message should say it (else empty).
   */
  static final Map<String, String> UNSUPPORTED = Map.ofEntries(
      Map.entry("AggregateFunction", ""),
      Map.entry("Dynamic", "24.5"),
      Map.entry("Geometry", ""),
      Map.entry("IntervalDay", ""), Map.entry("IntervalHour", ""),
      Map.entry("IntervalMicrosecond", ""), Map.entry("IntervalMillisecond", ""),
      Map.entry("IntervalMinute", ""), Map.entry("IntervalMonth", ""),
      Map.entry("IntervalNanosecond", ""), Map.entry("IntervalQuarter", ""),
      Map.entry("IntervalSecond", ""), Map.entry("IntervalWeek", ""),
      Map.entry("IntervalYear", ""),
      Map.entry("JSON", "24.8"),
      Map.entry("MultiPoint", "26.8"),
      Map.entry("Nothing", ""),
      Map.entry("Object", "22.3"),
      Map.entry("Variant", "24.1"));

  /** Returns the geo type of {@code kind}. */
  static ClickHouseType geo(TypeKind kind) {
    switch (kind) {
      case POINT: return POINT;
      case RING: return RING;
      case LINE_STRING: return LINE_STRING;
      case MULTI_LINE_STRING: return MULTI_LINE_STRING;
      case POLYGON: return POLYGON;
      case MULTI_POLYGON: return MULTI_POLYGON;
      default: throw new IllegalArgumentException(kind + " is not a geo type");
    }
  }

  /** Returns why the server refuses {@code QBit(element, dimension)}, or null. */
  static String checkQBit(ClickHouseType element, int dimension) {
    switch (element.kind()) {
      case BFLOAT16: case FLOAT32: case FLOAT64: case INT8:
        break;
      default:
        return "the elements of QBit must be BFloat16, Float32, Float64 or Int8, not " + element;
    }
    if (dimension < 1) {
      return "the dimension of QBit must be a positive integer, not " + dimension;
    }
    return null;
  }

  /**
   * Returns why the server refuses {@code stride} as the third argument of {@code QBit(T,
   * dimension, stride)}, or null: it must divide the dimension and, when less than it, be a
   * multiple of 8 (the server's words).
   */
  static String checkQBitStride(int dimension, int stride) {
    if (stride < 1) {
      return "the stride of QBit must be a positive integer, not " + stride;
    }
    if (dimension % stride != 0) {
      return "the stride of QBit must be a positive divisor of the dimension " + dimension
          + ", not " + stride;
    }
    if (stride < dimension && stride % 8 != 0) {
      return "the stride of QBit must be a multiple of 8 when it is less than the dimension, not "
          + stride;
    }
    return null;
  }

  /** Returns why the server refuses {@code SimpleAggregateFunction(function, ...)}, or null. */
  static String checkSimpleAggregateFunction(String function) {
    if (!SIMPLE_FUNCTIONS.contains(function)) {
      return "SimpleAggregateFunction does not allow the function '" + function + "' (the server "
          + "allows " + String.join(", ", new java.util.TreeSet<>(SIMPLE_FUNCTIONS)) + ")";
    }
    return null;
  }

  /** Returns why {@code name} is refused: unsupported (with its version) or unknown. */
  static String refusal(String name, String wholeType) {
    String version = UNSUPPORTED.get(name);
    if (version == null) {
      return "unknown type '" + wholeType + "' (not a ClickHouse type this library knows;"
          + " type names are case-sensitive)";
    }
    return "unsupported type '" + wholeType + "': handoff does not write " + name
        + (version.isEmpty() ? "" : " (a type of ClickHouse " + version + " and later)");
  }
}
