package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ArrayRows.ACC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.testkit.Allocations;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Runs each allocation-free success path of {@link Conversions} many times and checks, with the
 * JVM's per-thread allocation counter, that it allocates nothing: one 16-byte object per call
 * would be {@value #CALLS} * 16 bytes, far above the bound, which only leaves room for the
 * counter's own noise. Skipped where the counter is unavailable.
 */
final class ConversionsAllocationTest {
  private static final int CALLS = 200_000;
  private static final long BOUND = 64 * 1024;

  /** One call of a conversion on a fixed row, its result folded into a long. */
  private record Case(String name, LongSupplier call) {}

  private static final ClickHouseType INT32 = ClickHouseType.of(TypeKind.INT32);
  private static final ClickHouseType UINT64 = ClickHouseType.of(TypeKind.UINT64);
  private static final ClickHouseType UINT8 = ClickHouseType.of(TypeKind.UINT8);
  private static final ClickHouseType FLOAT32 = ClickHouseType.of(TypeKind.FLOAT32);
  private static final ClickHouseType FLOAT64 = ClickHouseType.of(TypeKind.FLOAT64);
  private static final ClickHouseType BOOL = ClickHouseType.of(TypeKind.BOOL);
  private static final ClickHouseType DEC_9_2 = ClickHouseType.decimal(9, 2);
  private static final ClickHouseType DEC_18_4 = ClickHouseType.decimal(18, 4);
  private static final ClickHouseType DATE = ClickHouseType.of(TypeKind.DATE);
  private static final ClickHouseType DATE32 = ClickHouseType.of(TypeKind.DATE32);
  private static final ClickHouseType DATETIME = ClickHouseType.of(TypeKind.DATETIME);
  private static final ClickHouseType DT64_3 = ClickHouseType.dateTime64(3, null);
  private static final ClickHouseType DT64_9 = ClickHouseType.dateTime64(9, "UTC");
  private static final ClickHouseType UUID_TYPE = ClickHouseType.of(TypeKind.UUID);
  private static final ClickHouseType IPV4 = ClickHouseType.of(TypeKind.IPV4);
  private static final ClickHouseType IPV6 = ClickHouseType.of(TypeKind.IPV6);
  private static final ClickHouseType STRING = ClickHouseType.of(TypeKind.STRING);
  private static final ClickHouseType ENUM8 = ClickHouseType.enumType(TypeKind.ENUM8,
      new String[] {"a", "b"}, new int[] {1, 2});

  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    Object[] row = {
      1_000_007L, // 0 LONG
      12345.0, // 1 DOUBLE, integral
      true, // 2 BOOLEAN
      1234.5678, // 3 DOUBLE with four fraction digits
      19_797L, // 4 LONG day
      1_710_513_000L, // 5 LONG second
      1_710_513_000_123L, // 6 LONG tick
      1_710_513_000.123, // 7 DOUBLE seconds
      Instant.parse("2024-03-15T14:30:00.123456789Z"), // 8
      LocalDate.of(2024, 3, 15), // 9
      OffsetDateTime.parse("2024-03-15T16:30:00+02:00"), // 10
      "12345", // 11
      new UUID(1, 2), // 12
      "192.168.1.10", // 13
      "2001:db8::ff00:42:8329", // 14
      "b", // 15
      1L, // 16
      "true", // 17
      -1.5, // 18
      0.1, // 19
    };
    byte[] dest = new byte[16];
    cases.add(new Case("LONG -> Int32", () -> Conversions.toLong(ACC, row, 0, INT32, "c")));
    cases.add(new Case("LONG -> UInt64", () -> Conversions.toLong(ACC, row, 0, UINT64, "c")));
    cases.add(new Case("DOUBLE -> Int32", () -> Conversions.toLong(ACC, row, 1, INT32, "c")));
    cases.add(new Case("BOOLEAN -> UInt8", () -> Conversions.toLong(ACC, row, 2, UINT8, "c")));
    cases.add(new Case("TEXT -> Int32", () -> Conversions.toLong(ACC, row, 11, INT32, "c")));
    cases.add(new Case("DOUBLE -> Float64",
        () -> Double.doubleToRawLongBits(Conversions.toDouble(ACC, row, 3, FLOAT64, "c"))));
    cases.add(new Case("LONG -> Float64",
        () -> Double.doubleToRawLongBits(Conversions.toDouble(ACC, row, 0, FLOAT64, "c"))));
    cases.add(new Case("DOUBLE -> Float32",
        () -> Float.floatToRawIntBits(Conversions.toFloat(ACC, row, 3, FLOAT32, "c"))));
    cases.add(new Case("LONG -> Float32",
        () -> Float.floatToRawIntBits(Conversions.toFloat(ACC, row, 0, FLOAT32, "c"))));
    cases.add(new Case("BOOLEAN -> Bool",
        () -> Conversions.toBool(ACC, row, 2, BOOL, "c") ? 1 : 0));
    cases.add(new Case("LONG -> Bool", () -> Conversions.toBool(ACC, row, 16, BOOL, "c") ? 1 : 0));
    cases.add(new Case("TEXT -> Bool", () -> Conversions.toBool(ACC, row, 17, BOOL, "c") ? 1 : 0));
    cases.add(new Case("LONG -> Decimal(9, 2)",
        () -> Conversions.toDecimalLong(ACC, row, 0, DEC_9_2, "c")));
    cases.add(new Case("DOUBLE -> Decimal(18, 4)",
        () -> Conversions.toDecimalLong(ACC, row, 3, DEC_18_4, "c")));
    cases.add(new Case("DOUBLE -1.5 -> Decimal(9, 2)",
        () -> Conversions.toDecimalLong(ACC, row, 18, DEC_9_2, "c")));
    cases.add(new Case("DOUBLE 0.1 -> Decimal(9, 2)",
        () -> Conversions.toDecimalLong(ACC, row, 19, DEC_9_2, "c")));
    cases.add(new Case("TEXT -> Decimal(9, 2)",
        () -> Conversions.toDecimalLong(ACC, row, 11, DEC_9_2, "c")));
    cases.add(new Case("LONG -> Date", () -> Conversions.toEpochDay(ACC, row, 4, DATE, "c")));
    cases.add(new Case("LONG -> Date32", () -> Conversions.toEpochDay(ACC, row, 4, DATE32, "c")));
    cases.add(new Case("LocalDate -> Date", () -> Conversions.toEpochDay(ACC, row, 9, DATE, "c")));
    cases.add(new Case("Instant -> Date", () -> Conversions.toEpochDay(ACC, row, 8, DATE, "c")));
    cases.add(new Case("LONG -> DateTime",
        () -> Conversions.toEpochSecond(ACC, row, 5, DATETIME, "c")));
    cases.add(new Case("Instant -> DateTime",
        () -> Conversions.toEpochSecond(ACC, row, 8, DATETIME, "c")));
    cases.add(new Case("OffsetDateTime -> DateTime",
        () -> Conversions.toEpochSecond(ACC, row, 10, DATETIME, "c")));
    cases.add(new Case("LONG -> DateTime64(3)",
        () -> Conversions.toDateTime64Ticks(ACC, row, 6, DT64_3, "c")));
    cases.add(new Case("DOUBLE -> DateTime64(3)",
        () -> Conversions.toDateTime64Ticks(ACC, row, 7, DT64_3, "c")));
    cases.add(new Case("Instant -> DateTime64(9)",
        () -> Conversions.toDateTime64Ticks(ACC, row, 8, DT64_9, "c")));
    cases.add(new Case("UUID -> UUID",
        () -> Conversions.toUuid(ACC, row, 12, UUID_TYPE, "c").getLeastSignificantBits()));
    cases.add(new Case("TEXT -> IPv4", () -> Conversions.toIPv4(ACC, row, 13, IPV4, "c")));
    cases.add(new Case("LONG -> IPv4", () -> Conversions.toIPv4(ACC, row, 0, IPV4, "c")));
    cases.add(new Case("TEXT -> IPv6", () -> {
      Conversions.toIPv6(ACC, row, 14, IPV6, "c", dest);
      return dest[15];
    }));
    cases.add(new Case("TEXT -> Enum8", () -> Conversions.toEnum(ACC, row, 15, ENUM8, "c")));
    cases.add(new Case("LONG -> Enum8", () -> Conversions.toEnum(ACC, row, 16, ENUM8, "c")));
    cases.add(new Case("TEXT -> String",
        () -> Conversions.toText(ACC, row, 11, STRING, "c").length()));
    cases.add(new Case("BOOLEAN -> String",
        () -> Conversions.toText(ACC, row, 2, STRING, "c").length()));
    return cases;
  }

  private static long run(LongSupplier call) {
    long sum = 0;
    for (int i = 0; i < CALLS; i++) {
      sum += call.getAsLong();
    }
    return sum;
  }

  @Test
  void primitiveAndCommonSuccessPaths_allocateNothing() {
    LongSupplier counter = Allocations.currentThread();
    assumeTrue(counter != null, "no per-thread allocation counter here");
    for (Case c : cases()) {
      run(c.call()); // warm up: class initialisation, interpreter profiles, JIT
      long before = counter.getAsLong();
      long sum = run(c.call());
      long allocated = counter.getAsLong() - before;
      assertThat(allocated).as("%s allocated %d bytes in %d calls (sum %d)", c.name(), allocated,
          CALLS, sum).isLessThan(BOUND);
    }
  }

  @Test
  void counter_seesTheAllocatingPath() {
    LongSupplier counter = Allocations.currentThread();
    assumeTrue(counter != null, "no per-thread allocation counter here");
    // 1710513000.123 in DateTime64(9) leaves the fast path: BigDecimal.valueOf allocates.
    Object[] row = {1_710_513_000.123};
    ClickHouseType dt64ns = ClickHouseType.dateTime64(9, null);
    LongSupplier call = () -> Conversions.toDateTime64Ticks(ACC, row, 0, dt64ns, "c");
    run(call);
    long before = counter.getAsLong();
    run(call);
    assertThat(counter.getAsLong() - before).isGreaterThan(16L * CALLS);
  }
}
