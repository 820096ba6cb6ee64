package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ArrayRows.ACC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.testkit.Allocations;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The success paths of {@link ModernConversions} allocate nothing for values that arrive as a
 * primitive, a String or a java.time object (measured with the JVM's per-thread allocation
 * counter, as {@code ConversionsAllocationTest} does; skipped where it is unavailable).
 */
final class ModernConversionsAllocationTest {
  private static final int CALLS = 200_000;
  private static final long BOUND = 64 * 1024;

  private record Case(String name, LongSupplier call) {}

  @Test
  void primitiveTextAndJavaTimeValues_allocateNothing() {
    LongSupplier counter = Allocations.currentThread();
    assumeTrue(counter != null, "no per-thread allocation counter here");
    ClickHouseType bf = ClickHouseType.of(TypeKind.BFLOAT16);
    ClickHouseType time = ClickHouseType.of(TypeKind.TIME);
    ClickHouseType t64 = ClickHouseType.time64(6);
    Object[] row = {1.5, 1.5f, 42L, "12:34:56.789", Duration.ofSeconds(-3723, 5_000),
        LocalTime.of(23, 59, 59, 999_999_999), Float.NaN};
    for (Case c : List.of(
        new Case("DOUBLE -> BFloat16", () -> ModernConversions.toBFloat16(ACC, row, 0, bf, "c")),
        new Case("Float -> BFloat16", () -> ModernConversions.toBFloat16(ACC, row, 1, bf, "c")),
        new Case("LONG -> BFloat16", () -> ModernConversions.toBFloat16(ACC, row, 2, bf, "c")),
        new Case("NaN -> BFloat16", () -> ModernConversions.toBFloat16(ACC, row, 6, bf, "c")),
        new Case("LONG -> Time", () -> ModernConversions.toTimeSeconds(ACC, row, 2, time, "c")),
        new Case("TEXT -> Time64", () -> ModernConversions.toTime64Ticks(ACC, row, 3, t64, "c")),
        new Case("Duration -> Time64",
            () -> ModernConversions.toTime64Ticks(ACC, row, 4, t64, "c")),
        new Case("LocalTime -> Time",
            () -> ModernConversions.toTimeSeconds(ACC, row, 5, time, "c")))) {
      run(c.call()); // warm up
      long before = counter.getAsLong();
      long sum = run(c.call());
      long allocated = counter.getAsLong() - before;
      assertThat(allocated).as("%s allocated %d bytes in %d calls (sum %d)", c.name(), allocated,
          CALLS, sum).isLessThan(BOUND);
    }
  }

  private static long run(LongSupplier call) {
    long sum = 0;
    for (int i = 0; i < CALLS; i++) {
      sum += call.getAsLong();
    }
    return sum;
  }

}
