package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ArrayRows.ACC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.testkit.Gen;
import dev.handoff.testkit.SeedSweep;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seed-swept properties of {@link Conversions} against independent references (BigInteger and
 * BigDecimal arithmetic, java.time, a formatter written here). A failure names the seed; rerun
 * one with {@code -Dhandoff.seed=N}.
 */
final class ConversionsProperties {

  private static final int SEEDS = 3_000;

  private static final List<TypeKind> INTEGER_KINDS = List.of(TypeKind.INT8, TypeKind.INT16,
      TypeKind.INT32, TypeKind.INT64, TypeKind.INT128, TypeKind.INT256, TypeKind.UINT8,
      TypeKind.UINT16, TypeKind.UINT32, TypeKind.UINT64, TypeKind.UINT128, TypeKind.UINT256);

  static Object[] row(Object v) {
    return new Object[] {v};
  }

  static int bits(TypeKind k) {
    return k.fixedWidth() * 8;
  }

  static boolean unsigned(TypeKind k) {
    return k.name().startsWith("U");
  }

  static BigInteger min(TypeKind k) {
    return unsigned(k) ? BigInteger.ZERO : BigInteger.TWO.pow(bits(k) - 1).negate();
  }

  static BigInteger max(TypeKind k) {
    return BigInteger.TWO.pow(unsigned(k) ? bits(k) : bits(k) - 1).subtract(BigInteger.ONE);
  }

  static boolean inRange(BigInteger v, TypeKind k) {
    return v.compareTo(min(k)) >= 0 && v.compareTo(max(k)) <= 0;
  }

  /** Returns the DATA error {@code call} throws, or null when it returns. */
  static HandoffException dataError(Runnable call) {
    Throwable t = catchThrowable(call::run);
    if (t == null) {
      return null;
    }
    assertThat(t).isInstanceOf(HandoffException.class);
    assertThat(((HandoffException) t).errorClass()).isEqualTo(ErrorClass.DATA);
    return (HandoffException) t;
  }

  /* ------------------------------------------------------------------ integers */

  /** An integer value, written in one of the forms an integer column takes. */
  record IntegerCase(TypeKind kind, BigInteger value, String form) {
    Object input() {
      switch (form) {
        case "LONG": return value.longValue();
        case "TEXT": return value.toString();
        case "BIG_DECIMAL": return new BigDecimal(value).setScale(2);
        case "DOUBLE": return value.doubleValue();
        default: return value;
      }
    }
  }

  /** Values near every integer type's limits, some random ones, in every form that fits. */
  static final Gen<IntegerCase> INTEGERS = random -> {
    TypeKind kind = INTEGER_KINDS.get(random.nextInt(INTEGER_KINDS.size()));
    // Half the time the limits of the column's own type, else of another one.
    TypeKind near = random.nextBoolean()
        ? kind : INTEGER_KINDS.get(random.nextInt(INTEGER_KINDS.size()));
    BigInteger v;
    switch (random.nextInt(4)) {
      case 0 -> v = (random.nextBoolean() ? min(near) : max(near))
          .add(BigInteger.valueOf(random.nextInt(-2, 3)));
      case 1 -> v = BigInteger.valueOf(Gen.longs().next(random));
      case 2 -> v = new BigInteger(random.nextInt(1, 260), new java.util.Random(random.nextLong()));
      default -> v = BigInteger.valueOf(random.nextLong() >> random.nextInt(64));
    }
    if (random.nextBoolean()) {
      v = v.negate();
    }
    List<String> forms = new java.util.ArrayList<>(List.of("TEXT", "BIG_INTEGER", "BIG_DECIMAL"));
    if (v.bitLength() <= 63) {
      forms.add("LONG");
    }
    if (v.bitLength() <= 53) {
      forms.add("DOUBLE");
    }
    return new IntegerCase(kind, v, forms.get(random.nextInt(forms.size())));
  };

  @Test
  void integers_areAcceptedExactlyWhenInRange() {
    SeedSweep.run("an integer goes in iff it is in range, unchanged", 1, SEEDS, INTEGERS::sample,
        c -> {
          ClickHouseType type = ClickHouseType.of(c.kind());
          boolean expected = inRange(c.value(), c.kind());
          BigInteger[] big = new BigInteger[1];
          HandoffException e = dataError(() ->
              big[0] = Conversions.toBigInteger(ACC, row(c.input()), 0, type, "c"));
          assertThat(e == null).as("accepted by toBigInteger (%s)", e).isEqualTo(expected);
          if (expected) {
            assertThat(big[0]).isEqualTo(c.value());
          } else {
            assertThat(e.getMessage()).contains("is out of range");
          }
          if (bits(c.kind()) <= 64) {
            long[] got = new long[1];
            HandoffException e2 = dataError(() ->
                got[0] = Conversions.toLong(ACC, row(c.input()), 0, type, "c"));
            assertThat(e2 == null).as("accepted by toLong (%s)", e2).isEqualTo(expected);
            if (expected) {
              assertThat(got[0]).isEqualTo(c.value().longValue()); // UInt64: the unsigned bits
            }
          }
          return true;
        });
  }

  record DoubleCase(TypeKind kind, double value) {}

  @Test
  void doubles_goIntoIntegersIffIntegralAndInRange() {
    Gen<DoubleCase> gen = random -> {
      TypeKind kind = INTEGER_KINDS.get(random.nextInt(INTEGER_KINDS.size()));
      double d = switch (random.nextInt(5)) {
        case 0 -> random.nextLong() * Math.scalb(1.0, random.nextInt(-70, 200));
        case 1 -> Math.rint(random.nextDouble(-1e6, 1e6)) + (random.nextBoolean() ? 0 : 0.5);
        case 2 -> max(kind).doubleValue() * (random.nextBoolean() ? 1 : -1);
        case 3 -> Double.longBitsToDouble(random.nextLong());
        default -> random.nextInt(-300, 300);
      };
      return new DoubleCase(kind, d);
    };
    SeedSweep.run("a double goes into an integer iff integral and in range", 1, SEEDS,
        gen::sample, c -> {
          double d = c.value();
          boolean integral = Double.isFinite(d) && d == Math.rint(d);
          boolean expected = integral && inRange(new BigDecimal(d).toBigInteger(), c.kind());
          ClickHouseType type = ClickHouseType.of(c.kind());
          BigInteger[] got = new BigInteger[1];
          HandoffException e = dataError(() ->
              got[0] = Conversions.toBigInteger(ACC, row(d), 0, type, "c"));
          assertThat(e == null).as("accepted (%s)", e).isEqualTo(expected);
          if (expected) {
            assertThat(got[0]).isEqualTo(new BigDecimal(d).toBigIntegerExact());
          }
          if (bits(c.kind()) <= 64) {
            assertThat(dataError(() -> Conversions.toLong(ACC, row(d), 0, type, "c")) == null)
                .isEqualTo(expected);
          }
          return true;
        });
  }

  /* ------------------------------------------------------------------ decimals */

  record DecimalCase(int precision, int scale, BigDecimal value) {}

  @Test
  void bigDecimals_goIntoDecimalIffExactlyRepresentable() {
    Gen<DecimalCase> gen = random -> {
      int p = random.nextInt(1, 77);
      int s = random.nextInt(0, p + 1);
      int digits = random.nextInt(1, p + 4);
      BigInteger unscaled = new BigInteger(digits * 4, new java.util.Random(random.nextLong()))
          .mod(BigInteger.TEN.pow(digits));
      if (random.nextInt(4) == 0) {
        unscaled = unscaled.multiply(BigInteger.TEN.pow(random.nextInt(1, 5))); // trailing zeros
      }
      int scale = random.nextInt(-3, s + 4);
      BigDecimal v = new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), scale);
      return new DecimalCase(p, s, v);
    };
    SeedSweep.run("a BigDecimal goes into Decimal(P, S) iff exact, as movePointRight(S)", 1,
        SEEDS, gen::sample, c -> {
          ClickHouseType type = ClickHouseType.decimal(c.precision(), c.scale());
          BigDecimal moved = c.value().movePointRight(c.scale());
          boolean exact = moved.signum() == 0 || moved.stripTrailingZeros().scale() <= 0;
          boolean expected = exact
              && moved.toBigInteger().abs().compareTo(BigInteger.TEN.pow(c.precision())) < 0;
          for (Object input : List.of(c.value(), c.value().toString(),
              c.value().toPlainString())) {
            BigInteger[] got = new BigInteger[1];
            HandoffException e = dataError(() ->
                got[0] = Conversions.toDecimalBig(ACC, row(input), 0, type, "c"));
            assertThat(e == null).as("%s accepted (%s)", input, e).isEqualTo(expected);
            if (expected) {
              assertThat(got[0]).isEqualTo(moved.toBigIntegerExact());
              if (c.precision() <= 18) {
                assertThat(Conversions.toDecimalLong(ACC, row(input), 0, type, "c"))
                    .isEqualTo(got[0].longValueExact());
              }
            }
          }
          return true;
        });
  }

  record DecimalDoubleCase(int precision, int scale, long unscaled, double value) {}

  @Test
  void doublesOfShortDecimals_goIntoDecimalAsThatDecimal() {
    Gen<DecimalDoubleCase> gen = random -> {
      int p = random.nextInt(1, 39);
      int s = random.nextInt(0, Math.min(p, 22) + 1);
      long bound = p >= 16 ? 1L << 50 : Math.min(1L << 50, BigInteger.TEN.pow(p).longValue());
      long u = random.nextLong(-bound + 1, bound);
      double d = u / Math.pow(10, s); // both exact, so the quotient is correctly rounded
      return new DecimalDoubleCase(p, s, u, d);
    };
    SeedSweep.run("the double of a decimal with <= S fraction digits goes in as that decimal", 1,
        SEEDS, gen::sample, c -> {
          ClickHouseType type = ClickHouseType.decimal(c.precision(), c.scale());
          assertThat(Conversions.toDecimalBig(ACC, row(c.value()), 0, type, "c"))
              .isEqualTo(BigInteger.valueOf(c.unscaled()));
          if (c.precision() <= 18) {
            assertThat(Conversions.toDecimalLong(ACC, row(c.value()), 0, type, "c"))
                .isEqualTo(c.unscaled());
          }
          return true;
        });
  }

  record AnyDoubleCase(int precision, int scale, double value) {}

  @Test
  void anyDouble_thatGoesIntoDecimal_readsBackAsTheSameDouble() {
    Gen<AnyDoubleCase> gen = random -> {
      int p = random.nextInt(1, 39);
      int s = random.nextInt(0, p + 1);
      double d = switch (random.nextInt(3)) {
        case 0 -> Double.longBitsToDouble(random.nextLong());
        case 1 -> random.nextDouble(-1e6, 1e6);
        default -> Math.round(random.nextDouble(-1e9, 1e9)) / 1000.0;
      };
      return new AnyDoubleCase(p, s, d);
    };
    SeedSweep.run("an accepted double reads back as itself and is never rounded", 1, SEEDS,
        gen::sample, c -> {
          ClickHouseType type = ClickHouseType.decimal(c.precision(), c.scale());
          BigInteger[] got = new BigInteger[1];
          HandoffException e = dataError(() ->
              got[0] = Conversions.toDecimalBig(ACC, row(c.value()), 0, type, "c"));
          if (e == null) {
            double back = new BigDecimal(got[0], c.scale()).doubleValue();
            assertThat(back == c.value()).as("reads back as %s", back).isTrue();
            assertThat(got[0].abs()).isLessThan(BigInteger.TEN.pow(c.precision()));
          } else if (Double.isFinite(c.value())) {
            // Rejected: the double's shortest decimal form does not fit.
            BigDecimal shortest = BigDecimal.valueOf(c.value());
            boolean fits = shortest.stripTrailingZeros().scale() <= c.scale()
                && shortest.setScale(c.scale(), java.math.RoundingMode.UNNECESSARY)
                .unscaledValue().abs().compareTo(BigInteger.TEN.pow(c.precision())) < 0;
            assertThat(fits).as("rejected although %s fits: %s", shortest, e).isFalse();
          }
          return true;
        });
  }

  /* ------------------------------------------------------------------ dates and times */

  private static final DateTimeFormatter SPACE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);

  @Test
  void dateTimes_readTheSameSecondFromEveryForm() {
    ClickHouseType type = ClickHouseType.of(TypeKind.DATETIME);
    SeedSweep.run("DateTime: LONG, Instant, ISO and space text agree", 1, SEEDS,
        seed -> new SplittableRandom(seed).nextLong(0, 1L << 32), s -> {
          Instant i = Instant.ofEpochSecond(s);
          LocalDateTime ldt = LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC);
          for (Object input : List.of(s, i, i.toString(), ldt, ldt.format(SPACE),
              Long.toString(s))) {
            assertThat(Conversions.toEpochSecond(ACC, row(input), 0, type, "c"))
                .as("%s", input).isEqualTo(s);
          }
          return true;
        });
  }

  record TickCase(int precision, long ticks) {}

  @Test
  void dateTime64s_readTheSameTickFromEveryForm() {
    Gen<TickCase> gen = random -> {
      int p = random.nextInt(0, 10);
      long unit = BigInteger.TEN.pow(p).longValueExact();
      long min = -2_208_988_800L * unit;
      long max = p == 9 ? Long.MAX_VALUE : 10_413_792_000L * unit - 1;
      return new TickCase(p, random.nextLong(min, max) + random.nextInt(2));
    };
    SeedSweep.run("DateTime64(P): LONG, Instant, BigDecimal seconds and ISO text agree", 1,
        SEEDS, gen::sample, c -> {
          ClickHouseType type = ClickHouseType.dateTime64(c.precision(), null);
          long unit = BigInteger.TEN.pow(c.precision()).longValueExact();
          Instant i = Instant.ofEpochSecond(Math.floorDiv(c.ticks(), unit),
              Math.floorMod(c.ticks(), unit) * (1_000_000_000L / unit));
          BigDecimal seconds = BigDecimal.valueOf(c.ticks(), c.precision());
          for (Object input : List.of(c.ticks(), i, seconds, seconds.toPlainString(),
              i.toString())) {
            assertThat(Conversions.toDateTime64Ticks(ACC, row(input), 0, type, "c"))
                .as("%s", input).isEqualTo(c.ticks());
          }
          // A finer instant floors to the same tick.
          if (c.precision() < 9) {
            Instant finer = i.plusNanos(1_000_000_000L / unit - 1);
            assertThat(Conversions.toDateTime64Ticks(ACC, row(finer), 0, type, "c"))
                .isEqualTo(c.ticks());
          }
          return true;
        });
  }

  @Test
  void date32s_readTheSameDayFromEveryForm() {
    ClickHouseType type = ClickHouseType.of(TypeKind.DATE32);
    SeedSweep.run("Date32: LONG, LocalDate, ISO text and instants agree", 1, SEEDS,
        seed -> new SplittableRandom(seed).nextLong(-25_567, 120_530), day -> {
          LocalDate d = LocalDate.ofEpochDay(day);
          Instant lastSecond = Instant.ofEpochSecond(day * 86_400 + 86_399);
          for (Object input : List.of(day, d, d.toString(), lastSecond, d.atTime(23, 59))) {
            assertThat(Conversions.toEpochDay(ACC, row(input), 0, type, "c"))
                .as("%s", input).isEqualTo((int) (long) day);
          }
          return true;
        });
  }

  /* ------------------------------------------------------------------ IP addresses */

  record Ipv6Case(byte[] bytes, String text) {
    @Override
    public String toString() {
      return HexFormat.of().formatHex(bytes) + " as " + text;
    }
  }

  /** Writes 16 bytes as IPv6 text: compressed or not, any case, padded or not, IPv4 tail. */
  static String ipv6Text(byte[] b, SplittableRandom random) {
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = (b[2 * i] & 0xFF) << 8 | (b[2 * i + 1] & 0xFF);
    }
    boolean tail = random.nextInt(4) == 0;
    int n = tail ? 6 : 8;
    // The longest run of zero groups (length >= 1), compressed half of the time.
    int bestStart = -1;
    int bestLength = 0;
    for (int i = 0; i < n; i++) {
      int j = i;
      while (j < n && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
    }
    boolean compress = bestLength > 0 && random.nextBoolean();
    boolean upper = random.nextBoolean();
    boolean pad = random.nextInt(4) == 0;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (compress && i == bestStart) {
        sb.append(i == 0 ? "::" : ":");
        i += bestLength - 1;
        continue;
      }
      String g = Integer.toHexString(groups[i]);
      if (pad) {
        g = "0".repeat(4 - g.length()) + g;
      }
      sb.append(upper ? g.toUpperCase(Locale.ROOT) : g);
      if (i < n - 1 || tail) {
        sb.append(':');
      }
    }
    if (tail) {
      sb.append(b[12] & 0xFF).append('.').append(b[13] & 0xFF).append('.').append(b[14] & 0xFF)
          .append('.').append(b[15] & 0xFF);
    }
    return sb.toString();
  }

  @Test
  void ipv6Text_roundTrips() {
    Gen<Ipv6Case> gen = random -> {
      byte[] b = new byte[16];
      random.nextBytes(b);
      // Zero runs of random position and length, so '::' is exercised everywhere.
      int from = random.nextInt(17);
      Arrays.fill(b, from, random.nextInt(from, 17), (byte) 0);
      if (random.nextInt(8) == 0) {
        Arrays.fill(b, (byte) 0);
      }
      return new Ipv6Case(b, ipv6Text(b, random));
    };
    ClickHouseType type = ClickHouseType.of(TypeKind.IPV6);
    SeedSweep.run("IPv6 text in every spelling reads back as its bytes", 1, SEEDS, gen::sample,
        c -> {
          byte[] dest = new byte[16];
          Arrays.fill(dest, (byte) 0x5A); // encoders reuse one scratch array
          Conversions.toIPv6(ACC, row(c.text()), 0, type, "c", dest);
          assertThat(dest).isEqualTo(c.bytes());
          return true;
        });
  }

  @Test
  void ipv4Text_roundTrips() {
    ClickHouseType type = ClickHouseType.of(TypeKind.IPV4);
    SeedSweep.run("IPv4 text and numbers read back as the address", 1, SEEDS,
        seed -> new SplittableRandom(seed).nextInt(), boxed -> {
          int v = boxed;
          String text = (v >>> 24) + "." + (v >>> 16 & 0xFF) + "." + (v >>> 8 & 0xFF) + "."
              + (v & 0xFF);
          assertThat(Conversions.toIPv4(ACC, row(text), 0, type, "c")).isEqualTo(v);
          assertThat(Conversions.toIPv4(ACC, row(v & 0xFFFF_FFFFL), 0, type, "c")).isEqualTo(v);
          byte[] dest = new byte[16];
          Conversions.toIPv6(ACC, row(text), 0, ClickHouseType.of(TypeKind.IPV6), "c", dest);
          assertThat(dest).startsWith(new byte[10]).endsWith(
              (byte) 0xFF, (byte) 0xFF, (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8),
              (byte) v);
          return true;
        });
  }

  /* ------------------------------------------------------------------ robustness */

  record AnyValueCase(Object value) {
    @Override
    public String toString() {
      return value == null ? "null"
          : value.getClass().getSimpleName() + " " + (value instanceof byte[] b
              ? HexFormat.of().formatHex(b) : value);
    }
  }

  /** Text that is almost a number, date, UUID or address, or random. */
  static String nearMiss(SplittableRandom random) {
    String base = List.of("1710513000", "-12.5e3", "2024-03-15 14:30:00.123", "2024-02-29",
        "550e8400-e29b-41d4-a716-446655440000", "2001:db8::1", "::ffff:1.2.3.4", "192.168.1.10",
        "nan", "-inf", "true", "18446744073709551615", "1e-400", "9".repeat(80), "0.000")
        .get(random.nextInt(15));
    StringBuilder sb = new StringBuilder(base);
    for (int k = random.nextInt(3); k > 0 && sb.length() > 0; k--) {
      int at = random.nextInt(sb.length());
      switch (random.nextInt(3)) {
        case 0 -> sb.deleteCharAt(at);
        case 1 -> sb.insert(at, ":.-e0Z ".charAt(random.nextInt(7)));
        default -> sb.setCharAt(at, (char) random.nextInt(0x20, 0x7F));
      }
    }
    return sb.toString();
  }

  static final Gen<AnyValueCase> ANY_VALUE = random -> {
    Object v = switch (random.nextInt(10)) {
      case 0 -> Gen.longs().next(random);
      case 1 -> Double.longBitsToDouble(random.nextLong());
      case 2 -> new BigDecimal(new BigInteger(random.nextInt(1, 300),
          new java.util.Random(random.nextLong())), random.nextInt(-1000, 1000));
      case 3 -> new BigInteger(random.nextInt(1, 300), new java.util.Random(random.nextLong()));
      case 4 -> Gen.text(40).next(random);
      case 5 -> nearMiss(random);
      case 6 -> {
        byte[] b = new byte[random.nextInt(20)];
        random.nextBytes(b);
        yield b;
      }
      case 7 -> Instant.ofEpochSecond(random.nextLong(-10_000_000_000_000L, 10_000_000_000_000L),
          random.nextInt(1_000_000_000));
      case 8 -> random.nextBoolean();
      default -> LocalDate.ofEpochDay(random.nextLong(-1_000_000, 1_000_000));
    };
    return new AnyValueCase(v);
  };

  @Test
  void anyValue_intoAnyMethod_returnsOrFailsWithData() {
    SeedSweep.run("no exception but a DATA HandoffException escapes", 1, SEEDS * 3,
        ANY_VALUE::sample, c -> {
          for (Conv.Target t : Conv.ALL) {
            HandoffException e = dataError(() ->
                t.conv().apply(ACC, row(c.value()), 0, t.type(), "c"));
            if (e != null) {
              assertThat(e.getMessage()).startsWith("column \"c\" (" + t.type() + "): value ");
            }
          }
          return true;
        });
  }
}
