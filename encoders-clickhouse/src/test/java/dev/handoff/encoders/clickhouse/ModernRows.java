package dev.handoff.encoders.clickhouse;

import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Columns of every type of ClickHouse 20-26 handoff writes besides JSON, Variant and Dynamic,
 * alone and inside Array, Map, Tuple, Nullable and LowCardinality where the server allows it, and
 * seeded random Java values of them in the forms users hand over (records, lists, primitive
 * arrays, maps, java.time values, text).
 */
final class ModernRows {
  private ModernRows() {}

  /** A named tuple as a Java record (read by component name). */
  public record Ab(long a, String b) {}

  /** Name and type of each column. */
  static final List<String[]> COLUMNS = List.of(
      col("bf", "BFloat16"), col("t", "Time"), col("t6", "Time64(6)"), col("t9", "Time64(9)"),
      col("saf", "SimpleAggregateFunction(sum, UInt64)"),
      col("safs", "SimpleAggregateFunction(anyLast, Nullable(String))"),
      col("nt", "Nullable(Tuple(a UInt8, b String))"),
      col("pt", "Point"), col("rg", "Ring"), col("ls", "LineString"),
      col("mls", "MultiLineString"), col("pg", "Polygon"), col("mpg", "MultiPolygon"),
      col("q", "QBit(Float32, 10)"), col("qb", "QBit(BFloat16, 3)"),
      col("qd", "QBit(Float64, 17)"), col("qi", "QBit(Int8, 9)"),
      col("e", "Enum('a', 'b', 'c')"), col("n", "Nested(a UInt8, b Time)"),
      col("abf", "Array(BFloat16)"), col("mt", "Map(String, Time64(3))"),
      col("tup", "Tuple(BFloat16, Time, Point)"), col("nbf", "Nullable(BFloat16)"),
      col("nt3", "Nullable(Time64(3))"), col("apt", "Array(Nullable(Point))"),
      col("mq", "Map(UInt8, QBit(Float32, 3))"), col("aq", "Array(QBit(Int8, 4))"),
      col("nq", "Nullable(QBit(Float64, 2))"), col("lcbf", "LowCardinality(BFloat16)"),
      col("lct", "LowCardinality(Nullable(Time))"),
      col("asaf", "Array(SimpleAggregateFunction(max, Int32))"),
      col("mpl", "Map(String, LineString)"),
      col("ntn", "Nullable(Tuple(Nullable(Tuple(UInt8)), Point))"),
      col("mk", "Map(Time, BFloat16)"), col("mpk", "Map(Point, UInt8)"),
      col("tq", "Tuple(r Ring, q QBit(Float32, 3), s SimpleAggregateFunction(sum, UInt64))"),
      col("nsaf", "Nullable(SimpleAggregateFunction(max, Time))"),
      col("amp", "Array(MultiPolygon)"),
      // QBit with a stride (26.x): the Native block holds the groups one after the other
      col("qs", "QBit(Float32, 32, 16)"), col("qsd", "QBit(Float64, 16, 8)"),
      col("aqs", "Array(QBit(Int8, 24, 8))"), col("nqs", "Nullable(QBit(BFloat16, 16, 8))"));

  private static String[] col(String name, String type) {
    return new String[] {name, type};
  }

  /** A random value of {@code type}. */
  static Object value(String type, SplittableRandom r) {
    switch (type) {
      case "BFloat16": return bfloat(r, true);
      case "Time": return time(r);
      case "Time64(6)": return Duration.ofSeconds(r.nextLong(-3_599_999, 3_600_000),
          r.nextInt(1_000_000) * 1000L);
      case "Time64(9)":
      case "Time64(3)":
        return r.nextInt(5) == 0 ? LocalTime.ofNanoOfDay(r.nextLong(86_400_000_000_000L))
            : Duration.ofSeconds(r.nextLong(-3_599_999, 3_600_000), r.nextInt(1_000_000_000));
      case "SimpleAggregateFunction(sum, UInt64)": return r.nextLong() & Long.MAX_VALUE;
      case "SimpleAggregateFunction(anyLast, Nullable(String))":
        return r.nextInt(3) == 0 ? null : "s" + r.nextInt(100);
      case "Nullable(Tuple(a UInt8, b String))":
        return switch (r.nextInt(4)) {
          case 0 -> null;
          case 1 -> List.of((long) r.nextInt(256), "x" + r.nextInt(9));
          case 2 -> new Ab(r.nextInt(256), "");
          default -> Map.of("b", "m", "a", (long) r.nextInt(256));
        };
      case "Point": return point(r);
      case "Ring": case "LineString": return list(r, 4, () -> point(r));
      case "MultiLineString": case "Polygon": return list(r, 3, () -> list(r, 4, () -> point(r)));
      case "MultiPolygon":
        return list(r, 3, () -> list(r, 3, () -> list(r, 4, () -> point(r))));
      case "QBit(Float32, 10)": {
        float[] f = new float[10];
        for (int i = 0; i < f.length; i++) {
          f[i] = r.nextInt(10) == 0 ? Float.intBitsToFloat(r.nextInt()) : (float) r.nextGaussian();
        }
        return f;
      }
      case "QBit(BFloat16, 3)":
        return List.of(bfloat(r, true), bfloat(r, true), bfloat(r, true));
      case "QBit(Float64, 17)": {
        double[] d = new double[17];
        for (int i = 0; i < d.length; i++) {
          d[i] = r.nextInt(10) == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextGaussian();
        }
        return d;
      }
      case "QBit(Int8, 9)": {
        int[] b = new int[9];
        for (int i = 0; i < b.length; i++) {
          b[i] = r.nextInt(-128, 128);
        }
        return b;
      }
      case "QBit(Float32, 32, 16)": {
        float[] f = new float[32];
        for (int i = 0; i < f.length; i++) {
          f[i] = r.nextInt(10) == 0 ? Float.intBitsToFloat(r.nextInt()) : (float) r.nextGaussian();
        }
        return f;
      }
      case "QBit(Float64, 16, 8)": {
        double[] d = new double[16];
        for (int i = 0; i < d.length; i++) {
          d[i] = r.nextInt(10) == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextGaussian();
        }
        return d;
      }
      case "QBit(Int8, 24, 8)": {
        List<Long> b = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
          b.add((long) r.nextInt(-128, 128));
        }
        return b;
      }
      case "Array(QBit(Int8, 24, 8))": return list(r, 3, () -> value("QBit(Int8, 24, 8)", r));
      case "Nullable(QBit(BFloat16, 16, 8))": {
        if (r.nextInt(3) == 0) {
          return null;
        }
        List<Object> b = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          b.add(bfloat(r, true));
        }
        return b;
      }
      case "QBit(Float32, 3)": return new double[] {r.nextDouble(), -1, r.nextInt(100)};
      case "QBit(Int8, 4)": return List.of(-128L, 127L, (long) r.nextInt(-128, 128), 0L);
      case "Nullable(QBit(Float64, 2))":
        return r.nextInt(3) == 0 ? null : new double[] {r.nextGaussian(), -0.0};
      case "Enum('a', 'b', 'c')": return "abc".substring(r.nextInt(3)).substring(0, 1);
      case "Nested(a UInt8, b Time)":
        return list(r, 3, () -> r.nextBoolean() ? List.of((long) r.nextInt(256), time(r))
            : Map.of("a", (long) r.nextInt(256), "b", time(r)));
      case "Array(BFloat16)": return list(r, 4, () -> bfloat(r, true));
      case "Map(String, Time64(3))": {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) {
          m.put("k" + r.nextInt(10), value("Time64(3)", r));
        }
        return m;
      }
      case "Tuple(BFloat16, Time, Point)":
        return List.of(bfloat(r, true), time(r), point(r));
      case "Nullable(BFloat16)": return r.nextInt(3) == 0 ? null : bfloat(r, true);
      case "Nullable(Time64(3))": return r.nextInt(3) == 0 ? null : value("Time64(3)", r);
      case "Array(Nullable(Point))":
        return list(r, 3, () -> r.nextInt(3) == 0 ? null : point(r));
      case "Map(UInt8, QBit(Float32, 3))": {
        Map<Long, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) {
          m.put((long) r.nextInt(256), value("QBit(Float32, 3)", r));
        }
        return m;
      }
      case "Array(QBit(Int8, 4))": return list(r, 3, () -> value("QBit(Int8, 4)", r));
      case "LowCardinality(BFloat16)":
        return bfloat(r, false); // the server folds NaN payloads and -0 in LowCardinality
      case "LowCardinality(Nullable(Time))": return r.nextInt(4) == 0 ? null : time(r);
      case "Array(SimpleAggregateFunction(max, Int32))": return list(r, 3, () -> r.nextInt());
      case "Map(String, LineString)": {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) {
          m.put("l" + i, list(r, 3, () -> point(r)));
        }
        return m;
      }
      case "Nullable(Tuple(Nullable(Tuple(UInt8)), Point))": {
        if (r.nextInt(3) == 0) {
          return null;
        }
        Object inner = r.nextInt(3) == 0 ? null : List.of((long) r.nextInt(256));
        return java.util.Arrays.asList(inner, point(r));
      }
      case "Map(Time, BFloat16)": {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) {
          m.put(Duration.ofSeconds(r.nextInt(-1000, 1000)), bfloat(r, true));
        }
        return m;
      }
      case "Map(Point, UInt8)": {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) {
          m.put(new GeoPoint(r.nextInt(100), r.nextGaussian()), (long) r.nextInt(256));
        }
        return m;
      }
      case "Tuple(r Ring, q QBit(Float32, 3), s SimpleAggregateFunction(sum, UInt64))":
        return r.nextBoolean()
            ? List.of(value("Ring", r), value("QBit(Float32, 3)", r), (long) r.nextInt(1000))
            : Map.of("s", 5L, "q", new float[] {1, 2, 3}, "r", value("Ring", r));
      case "Nullable(SimpleAggregateFunction(max, Time))":
        return r.nextInt(3) == 0 ? null : time(r);
      case "Array(MultiPolygon)": return list(r, 2, () -> value("MultiPolygon", r));
      default:
        throw new IllegalArgumentException("no generator for " + type);
    }
  }

  /** A float whose BFloat16 is not refused: zero, or with a non-zero upper half. */
  static float bfloat(SplittableRandom r, boolean nanAndNegativeZero) {
    switch (r.nextInt(6)) {
      case 0:
        return (float) r.nextInt(-1000, 1000) / 8;
      case 1:
        return nanAndNegativeZero ? -0.0f : 0.0f;
      case 2:
        if (nanAndNegativeZero) {
          return Float.intBitsToFloat(0x7F80_0000 | r.nextInt(1, 1 << 23)
              | (r.nextBoolean() ? 0x8000_0000 : 0)); // NaN, payload anywhere
        }
        return 1.5f;
      default: {
        int hi = r.nextInt(1, 0x10000);
        if ((hi & 0x7FFF) == 0 || (!nanAndNegativeZero && (hi & 0x7F80) == 0x7F80)) {
          hi = 0x3F80;
        }
        return Float.intBitsToFloat(hi << 16 | r.nextInt(0x10000));
      }
    }
  }

  private static Object time(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> Duration.ofSeconds(r.nextLong(-3_599_999, 3_600_000));
      case 1 -> LocalTime.ofSecondOfDay(r.nextInt(86_400));
      case 2 -> (long) r.nextInt(-3_599_999, 3_600_000);
      default -> String.format("%s%d:%02d:%02d", r.nextBoolean() ? "-" : "", r.nextInt(1000),
          r.nextInt(60), r.nextInt(60));
    };
  }

  private static Object point(SplittableRandom r) {
    double x = r.nextInt(20) == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextGaussian() * 90;
    double y = r.nextGaussian();
    return switch (r.nextInt(3)) {
      case 0 -> new GeoPoint(x, y);
      case 1 -> List.of(x, y);
      default -> new double[] {x, y};
    };
  }

  private static List<Object> list(SplittableRandom r, int max,
      java.util.function.Supplier<Object> element) {
    List<Object> out = new ArrayList<>();
    for (int i = r.nextInt(max + 1); i > 0; i--) {
      out.add(element.get());
    }
    return out;
  }
}
