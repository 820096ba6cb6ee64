package dev.handoff.encoders.clickhouse;

import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random good and bad Java values of the types of ClickHouse 20-26 that {@link
 * NativeRollbackProperties} adds to its schemas: BFloat16, Time, Time64(3), Point, Ring,
 * QBit(Float32, 3), QBit(Int8, 16, 8) and SimpleAggregateFunction(max, Int32).
 */
final class ModernValues {
  private ModernValues() {}

  /** A value of {@code type} the conversions accept. */
  static Object good(String type, SplittableRandom rnd) {
    switch (type) {
      case "BFloat16":
        return rnd.nextInt(8) == 0 ? Float.NaN : (float) rnd.nextInt(-1000, 1000) / 8;
      case "Time":
        return switch (rnd.nextInt(3)) {
          case 0 -> Duration.ofSeconds(rnd.nextLong(-3_599_999, 3_600_000));
          case 1 -> LocalTime.ofSecondOfDay(rnd.nextInt(86_400));
          default -> (long) rnd.nextInt(-3_599_999, 3_600_000);
        };
      case "Time64(3)":
        return rnd.nextBoolean() ? Duration.ofMillis(rnd.nextLong(-3_599_999_999L,
            3_600_000_000L)) : "-12:34:56.789";
      case "Point":
        return point(rnd);
      case "Ring": {
        List<Object> ring = new ArrayList<>();
        for (int i = rnd.nextInt(4); i > 0; i--) {
          ring.add(point(rnd));
        }
        return ring;
      }
      case "QBit(Float32, 3)":
        return rnd.nextBoolean() ? new float[] {rnd.nextFloat(), -1.5f, 0f}
            : List.of(1.0, (double) rnd.nextInt(100), -0.0);
      case "QBit(Int8, 16, 8)": {
        int[] b = new int[16];
        for (int i = 0; i < b.length; i++) {
          b[i] = rnd.nextInt(-128, 128);
        }
        return b;
      }
      case "SimpleAggregateFunction(max, Int32)":
        return (long) rnd.nextInt();
      default:
        throw new IllegalArgumentException("no generator for " + type);
    }
  }

  private static Object point(SplittableRandom rnd) {
    double x = rnd.nextInt(-180, 181);
    double y = rnd.nextDouble();
    return switch (rnd.nextInt(3)) {
      case 0 -> new GeoPoint(x, y);
      case 1 -> List.of(x, y);
      default -> new double[] {x, y};
    };
  }

  /** A value of {@code type} the conversions refuse. */
  static Object bad(String type, SplittableRandom rnd) {
    switch (type) {
      case "BFloat16":
        return rnd.nextBoolean() ? "nope" : 1e-45;
      case "Time":
        return rnd.nextBoolean() ? Duration.ofHours(1000) : "25:61:00";
      case "Time64(3)":
        return rnd.nextBoolean() ? "1000:00:00" : LocalTime.NOON.atDate(
            java.time.LocalDate.EPOCH);
      case "Point":
        return rnd.nextBoolean() ? List.of(1.0) : new double[] {1, 2, 3};
      case "Ring":
        return List.of(new GeoPoint(0, 0), List.of("x", 1.0));
      case "QBit(Float32, 3)":
        return rnd.nextBoolean() ? new float[2] : List.of(1.0, "x", 2.0);
      case "QBit(Int8, 16, 8)": // too short, or an element out of range
        return rnd.nextBoolean() ? new int[8] : List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L,
            11L, 12L, 13L, 14L, 15L, 128L);
      case "SimpleAggregateFunction(max, Int32)":
        return 1L << 31;
      default:
        throw new IllegalArgumentException("no bad value for " + type);
    }
  }
}
