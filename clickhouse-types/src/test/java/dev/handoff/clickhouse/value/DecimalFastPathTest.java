package dev.handoff.clickhouse.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.api.HandoffException;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.testkit.Allocations;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * A BigDecimal of at most 15 digits and no finer fraction than the column's scale takes the
 * allocation-free path of {@link Conversions#toDecimalLong}; every result and every error must
 * be the exact path's. {@link Conversions#decimalUnscaledFast}, the encoders' row-program form
 * of that path, must give toDecimalLong's result wherever it gives one.
 */
final class DecimalFastPathTest {
  private static final int[][] TYPES = {{9, 2}, {18, 4}, {18, 0}, {18, 18}, {10, 9}, {15, 5},
      {18, 10}, {1, 0}, {3, 3}};

  @Test
  void randomDecimals_giveTheExactUnscaledValueOrTheExactPathsError() {
    SplittableRandom random = new SplittableRandom(11);
    for (int[] ps : TYPES) {
      ClickHouseType type = ClickHouseType.decimal(ps[0], ps[1]);
      for (int i = 0; i < 20_000; i++) {
        int digits = random.nextInt(1, 19);
        long unscaled = random.nextLong(1, pow10(digits)) * (random.nextBoolean() ? 1 : -1);
        if (random.nextInt(20) == 0) {
          unscaled = 0;
        }
        int scale = random.nextInt(-3, ps[1] + 3);
        BigDecimal bd = BigDecimal.valueOf(unscaled, scale);
        if (random.nextInt(10) == 0) {
          bd = bd.setScale(scale + random.nextInt(4)); // trailing zeros past the scale
        }
        check(bd, type);
      }
      for (int p = 1; p <= 18; p++) {
        // Every digit count at the edge of the range, both signs.
        BigDecimal max = new BigDecimal(BigInteger.TEN.pow(p).subtract(BigInteger.ONE), ps[1]);
        check(max, type);
        check(max.negate(), type);
        check(max.add(BigDecimal.ONE.movePointLeft(ps[1])), type);
      }
    }
  }

  private static void check(BigDecimal bd, ClickHouseType type) {
    Object[] row = {bd};
    // The exact path's order: the range first (|bd| < 10^(P-S)), then the fraction.
    if (bd.abs().compareTo(BigDecimal.ONE.movePointRight(type.precision() - type.scale())) >= 0) {
      assertThatThrownBy(() -> Conversions.toDecimalLong(RowAccessors.objectArray(), row, 0, type,
          "c")).as("%s into %s", bd, type).isInstanceOf(HandoffException.class)
          .hasMessageContaining("out of range");
      return;
    }
    BigInteger exact;
    try {
      exact = bd.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
    } catch (ArithmeticException finer) {
      assertThatThrownBy(() -> Conversions.toDecimalLong(RowAccessors.objectArray(), row, 0, type,
          "c")).as("%s into %s", bd, type).isInstanceOf(HandoffException.class)
          .hasMessageContaining("fraction digits");
      return;
    }
    assertThat(Conversions.toDecimalLong(RowAccessors.objectArray(), row, 0, type, "c"))
        .as("%s into %s", bd, type).isEqualTo(exact.longValueExact());
  }

  @Test
  void decimalUnscaledFast_answersOnlyWhereToDecimalLongAgrees() {
    SplittableRandom random = new SplittableRandom(12);
    int answered = 0;
    int declined = 0;
    for (int[] ps : TYPES) {
      ClickHouseType type = ClickHouseType.decimal(ps[0], ps[1]);
      for (int i = 0; i < 20_000; i++) {
        long unscaled = random.nextLong(-pow10(random.nextInt(1, 19)), pow10(18));
        int scale = random.nextInt(-2, ps[1] + 3);
        Object v;
        switch (random.nextInt(6)) {
          case 0: v = BigDecimal.valueOf(unscaled, scale); break;
          case 1: v = BigDecimal.valueOf(unscaled, scale).doubleValue(); break;
          case 2: v = unscaled / pow10(random.nextInt(19)); break;
          case 3: v = (int) unscaled; break;
          case 4: v = random.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY; break;
          default: v = random.nextBoolean() ? null : BigDecimal.valueOf(unscaled, scale).toString();
        }
        long fast = Conversions.decimalUnscaledFast(v, type.scale(),
            (double) Conversions.pow10(type.scale()), Conversions.pow10(type.scale()),
            Conversions.pow10(type.precision() - type.scale()),
            Conversions.pow10(type.precision()));
        if (fast == Conversions.NOT_FAST) {
          declined++;
          continue;
        }
        answered++;
        Object[] row = {v};
        assertThat(fast).as("%s (%s) into %s", v, v.getClass().getSimpleName(), type)
            .isEqualTo(Conversions.toDecimalLong(RowAccessors.objectArray(), row, 0, type, "c"));
      }
    }
    // Both outcomes must be common, or the sweep proves little.
    assertThat(answered).isGreaterThan(15_000);
    assertThat(declined).isGreaterThan(30_000);
  }

  @Test
  void pow10_isExactUpTo18() {
    assertThat(Conversions.pow10(0)).isEqualTo(1);
    assertThat(Conversions.pow10(18)).isEqualTo(1_000_000_000_000_000_000L);
    assertThat((double) Conversions.pow10(18)).isEqualTo(1e18);
  }

  @Test
  void typicalMoney_convertsWithoutAllocating() {
    LongSupplier counter = Allocations.currentThread();
    assumeTrue(counter != null, "no per-thread allocation counter here");
    ClickHouseType type = ClickHouseType.decimal(18, 4);
    Object[][] rows = new Object[1024][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new Object[] {BigDecimal.valueOf(1_234_567L * (i + 1) - 500_000L, i % 5)};
    }
    long sum = 0;
    for (int i = 0; i < 200_000; i++) { // warm up
      sum += Conversions.toDecimalLong(RowAccessors.objectArray(), rows[i & 1023], 0, type, "c");
    }
    long before = counter.getAsLong();
    for (int i = 0; i < 200_000; i++) {
      sum += Conversions.toDecimalLong(RowAccessors.objectArray(), rows[i & 1023], 0, type, "c");
    }
    long allocated = counter.getAsLong() - before;
    assertThat(sum).isNotZero();
    assertThat(allocated).as("bytes for 200,000 conversions").isLessThan(64 * 1024);
  }

  private static long pow10(int n) {
    long p = 1;
    for (int i = 0; i < n; i++) {
      p *= 10;
    }
    return p;
  }
}
