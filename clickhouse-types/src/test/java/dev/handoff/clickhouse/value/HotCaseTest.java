package dev.handoff.clickhouse.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hot cases that {@link Conversions} reads before handing over to the type families (a LONG
 * in range, a DOUBLE, a LocalDate, an Instant) give what the full conversion gives, and every
 * value just outside them, or an adapter that fails, still ends in the full conversion's result
 * or its DATA error.
 */
final class HotCaseTest {
  private static final RowAccessor<Object[]> ROWS = RowAccessors.objectArray();

  @Test
  void minAndMaxLongAreTheRangesALongCanTakeForEveryIntegerTypeUpTo64Bits() {
    assertThat(range(TypeKind.INT8)).containsExactly(-128L, 127L);
    assertThat(range(TypeKind.UINT8)).containsExactly(0L, 255L);
    assertThat(range(TypeKind.INT16)).containsExactly(-32768L, 32767L);
    assertThat(range(TypeKind.UINT16)).containsExactly(0L, 65535L);
    assertThat(range(TypeKind.INT32)).containsExactly(-2147483648L, 2147483647L);
    assertThat(range(TypeKind.UINT32)).containsExactly(0L, 4294967295L);
    assertThat(range(TypeKind.INT64)).containsExactly(Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(range(TypeKind.UINT64)).containsExactly(0L, Long.MAX_VALUE);
    assertThatThrownBy(() -> Conversions.minLong(ClickHouseType.of(TypeKind.INT128)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Conversions.maxLong(ClickHouseType.of(TypeKind.FLOAT64)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static List<Long> range(TypeKind kind) {
    ClickHouseType t = ClickHouseType.of(kind);
    return List.of(Conversions.minLong(t), Conversions.maxLong(t));
  }

  @Test
  void theRangedToLongAgreesWithToLongInsideAndAtTheEdgesOfEveryRange() {
    for (TypeKind kind : new TypeKind[] {TypeKind.INT8, TypeKind.UINT8, TypeKind.INT16,
        TypeKind.UINT16, TypeKind.INT32, TypeKind.UINT32, TypeKind.INT64, TypeKind.UINT64}) {
      ClickHouseType t = ClickHouseType.of(kind);
      long min = Conversions.minLong(t);
      long max = Conversions.maxLong(t);
      for (Object v : new Object[] {min, max, min - 1, max + 1, 0L, 7, "12", 3.0, true,
          BigInteger.TWO.pow(64).subtract(BigInteger.ONE), null}) {
        Object[] row = {v};
        Object full = outcome(() -> Conversions.toLong(ROWS, row, 0, t, "c"));
        Object ranged = outcome(() -> Conversions.toLong(ROWS, row, 0, t, "c", min, max));
        assertThat(ranged).as("%s into %s", v, t).isEqualTo(full);
      }
    }
  }

  @Test
  void hotCasesGiveTheFullConversionsResultAndLeaveEveryOtherValueToIt() {
    ClickHouseType date = ClickHouseType.of(TypeKind.DATE);
    ClickHouseType date32 = ClickHouseType.of(TypeKind.DATE32);
    ClickHouseType dateTime = ClickHouseType.parse("DateTime('Asia/Tokyo')");
    ClickHouseType f64 = ClickHouseType.of(TypeKind.FLOAT64);
    assertThat(Conversions.toDouble(ROWS, new Object[] {-0.0}, 0, f64, "c")).isEqualTo(-0.0);
    assertThat(Conversions.toDouble(ROWS, new Object[] {5L}, 0, f64, "c")).isEqualTo(5.0);
    assertThat(Conversions.toEpochDay(ROWS, new Object[] {LocalDate.of(2149, 6, 6)}, 0, date,
        "c")).isEqualTo(65535);
    assertThat(Conversions.toEpochDay(ROWS, new Object[] {LocalDate.of(1969, 12, 31)}, 0,
        date32, "c")).isEqualTo(-1);
    assertThat(Conversions.toEpochSecond(ROWS, new Object[] {Instant.ofEpochSecond(7, 999)}, 0,
        dateTime, "c")).isEqualTo(7);
    assertThatThrownBy(() -> Conversions.toEpochDay(ROWS,
        new Object[] {LocalDate.of(2149, 6, 7)}, 0, date, "c"))
        .isInstanceOf(HandoffException.class).hasMessageContaining("column \"c\" (Date)");
    assertThatThrownBy(() -> Conversions.toEpochDay(ROWS,
        new Object[] {LocalDate.of(1969, 12, 31)}, 0, date, "c"))
        .isInstanceOf(HandoffException.class);
    assertThatThrownBy(() -> Conversions.toEpochSecond(ROWS,
        new Object[] {Instant.ofEpochSecond(-1)}, 0, dateTime, "c"))
        .isInstanceOf(HandoffException.class);
    assertThatThrownBy(() -> Conversions.toEpochSecond(ROWS,
        new Object[] {Instant.ofEpochSecond(1L << 32)}, 0, dateTime, "c"))
        .isInstanceOf(HandoffException.class);
  }

  @Test
  void anAdapterThatFailsOrLiesInTheHotCaseGetsTheDataErrorOfTheFullConversion() {
    Object[] row = {"not what the adapter says"};
    ClickHouseType i32 = ClickHouseType.of(TypeKind.INT32);
    for (RowAccessor<Object[]> bad : List.of(
        ArrayRows.throwing(new IllegalStateException("adapter broke")),
        ArrayRows.failingGetters(new IllegalStateException("getter broke")),
        ArrayRows.lying(ValueKind.LONG), ArrayRows.lying(ValueKind.DOUBLE),
        ArrayRows.lying(ValueKind.TEMPORAL))) {
      assertThatThrownBy(() -> Conversions.toLong(bad, row, 0, i32, "c", -5, 5))
          .isInstanceOf(HandoffException.class).hasMessageContaining("column \"c\" (Int32)");
      assertThatThrownBy(() -> Conversions.toDouble(bad, row, 0,
          ClickHouseType.of(TypeKind.FLOAT64), "c")).isInstanceOf(HandoffException.class);
      assertThatThrownBy(() -> Conversions.toEpochDay(bad, row, 0,
          ClickHouseType.of(TypeKind.DATE), "c")).isInstanceOf(HandoffException.class);
      assertThatThrownBy(() -> Conversions.toEpochSecond(bad, row, 0,
          ClickHouseType.of(TypeKind.DATETIME), "c")).isInstanceOf(HandoffException.class);
    }
  }

  /** Returns the result, or the class and message of what was thrown. */
  private static Object outcome(java.util.function.Supplier<Object> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }
}
