package dev.handoff.benchmarks.encode;

import java.util.SplittableRandom;

/**
 * Pre-generated values of one column of a type of ClickHouse 20-26 (issue 15), in the Java form
 * both contenders of {@link ModernTypesBenchmark} take: numbers boxed once, text as {@code
 * String}, geo shapes and QBit as primitive arrays, a tuple as {@code Object[]}.
 */
final class ModernTypeValues {
  private ModernTypeValues() {}

  /** The values of a JSON column whose texts hold arrays (the column's type is {@code JSON}). */
  static final String JSON_ARRAYS = "JSON-arrays";

  /** Returns {@code rows} one-column rows of {@code type}, seeded. */
  static Object[][] rows(String type, int rows, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Object[][] out = new Object[rows][];
    for (int i = 0; i < rows; i++) {
      out[i] = new Object[] {value(type, r)};
    }
    return out;
  }

  private static Object value(String type, SplittableRandom r) {
    switch (type) {
      case "Time": // seconds, within -999:59:59..999:59:59
        return r.nextLong(-3_599_999, 3_600_000);
      case "Time64(3)": // milliseconds
        return r.nextLong(-3_599_999_999L, 3_600_000_000L);
      case "Point":
        return point(r);
      case "Ring": {
        double[][] ring = new double[4][];
        for (int i = 0; i < ring.length; i++) {
          ring[i] = point(r);
        }
        return ring;
      }
      case "Polygon": {
        double[][][] polygon = new double[2][4][];
        for (double[][] ring : polygon) {
          for (int i = 0; i < ring.length; i++) {
            ring[i] = point(r);
          }
        }
        return polygon;
      }
      case "Variant(Int64, String)":
      case "Dynamic":
        return r.nextBoolean() ? (Object) r.nextLong() : Text.alnum(r, 1, 16);
      case "JSON":
        return "{\"id\":" + r.nextInt(1_000_000) + ",\"name\":\"" + Text.alnum(r, 1, 12)
            + "\",\"tags\":{\"score\":" + r.nextInt(100) + ".5,\"ok\":" + r.nextBoolean() + "}}";
      case JSON_ARRAYS: // 6 paths: arrays of strings, numbers, mixed kinds, arrays, objects
        return "{\"id\":" + r.nextInt(1_000_000) + ",\"tags\":[\"" + Text.alnum(r, 1, 8)
            + "\",\"" + Text.alnum(r, 1, 8) + "\"],\"scores\":[" + r.nextInt(100) + ".5,"
            + r.nextInt(10) + ",null],\"mix\":[1,\"x\"," + r.nextBoolean() + "],\"m\":[[1,2],["
            + r.nextInt(100) + "]],\"items\":[{\"sku\":\"" + Text.alnum(r, 1, 8) + "\",\"qty\":"
            + r.nextInt(10) + "},{\"sku\":\"y\",\"qty\":1,\"opts\":[1,2]}]}";
      case "Nullable(Tuple(a UInt8, b String))":
        return r.nextInt(10) == 0 ? null
            : new Object[] {r.nextInt(256), Text.alnum(r, 1, 12)};
      case "BFloat16":
        return (float) r.nextGaussian();
      case "QBit(Float32, 8)": {
        float[] q = new float[8];
        for (int i = 0; i < q.length; i++) {
          q[i] = (float) r.nextGaussian();
        }
        return q;
      }
      case "SimpleAggregateFunction(sum, UInt64)":
        return r.nextLong(0, Long.MAX_VALUE);
      default:
        throw new IllegalArgumentException("no values for " + type);
    }
  }

  private static double[] point(SplittableRandom r) {
    return new double[] {r.nextDouble(-180, 180), r.nextDouble(-90, 90)};
  }
}
