package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ArrayRows.ACC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unit tests of {@link Conversions}: every accepted conversion with its edge values (pinned to
 * {@code clickhouse-formats.md} section 4 where it gives them) and every error, each checked for
 * class DATA and a message naming the column, the type and the value.
 */
class ConversionsTest {

  static final ClickHouseType INT8 = ClickHouseType.of(TypeKind.INT8);
  static final ClickHouseType INT16 = ClickHouseType.of(TypeKind.INT16);
  static final ClickHouseType INT32 = ClickHouseType.of(TypeKind.INT32);
  static final ClickHouseType INT64 = ClickHouseType.of(TypeKind.INT64);
  static final ClickHouseType INT128 = ClickHouseType.of(TypeKind.INT128);
  static final ClickHouseType INT256 = ClickHouseType.of(TypeKind.INT256);
  static final ClickHouseType UINT8 = ClickHouseType.of(TypeKind.UINT8);
  static final ClickHouseType UINT16 = ClickHouseType.of(TypeKind.UINT16);
  static final ClickHouseType UINT32 = ClickHouseType.of(TypeKind.UINT32);
  static final ClickHouseType UINT64 = ClickHouseType.of(TypeKind.UINT64);
  static final ClickHouseType UINT128 = ClickHouseType.of(TypeKind.UINT128);
  static final ClickHouseType UINT256 = ClickHouseType.of(TypeKind.UINT256);
  static final ClickHouseType FLOAT32 = ClickHouseType.of(TypeKind.FLOAT32);
  static final ClickHouseType FLOAT64 = ClickHouseType.of(TypeKind.FLOAT64);
  static final ClickHouseType BOOL = ClickHouseType.of(TypeKind.BOOL);
  static final ClickHouseType STRING = ClickHouseType.of(TypeKind.STRING);
  static final ClickHouseType DATE = ClickHouseType.of(TypeKind.DATE);
  static final ClickHouseType DATE32 = ClickHouseType.of(TypeKind.DATE32);
  static final ClickHouseType DATETIME = ClickHouseType.of(TypeKind.DATETIME);
  static final ClickHouseType UUID_TYPE = ClickHouseType.of(TypeKind.UUID);
  static final ClickHouseType IPV4 = ClickHouseType.of(TypeKind.IPV4);
  static final ClickHouseType IPV6 = ClickHouseType.of(TypeKind.IPV6);

  static final BigInteger TWO = BigInteger.TWO;

  /** Runs {@code v} through {@code c} as field 0 of a one-field row in column "c". */
  static <T> T conv(Conv<T> c, ClickHouseType type, Object v) {
    return c.apply(ACC, new Object[] {v}, 0, type, "c");
  }

  /**
   * Asserts that {@code v} fails in {@code c} with a DATA error whose message names column "c",
   * the type, the value as {@code shown} and contains {@code reason}; returns the error.
   */
  static HandoffException rejects(Conv<?> c, ClickHouseType type, Object v, String shown,
      String reason) {
    return rejects(ACC, c, type, v, shown, reason);
  }

  static HandoffException rejects(RowAccessor<Object[]> acc, Conv<?> c, ClickHouseType type,
      Object v, String shown, String reason) {
    Throwable t = catchThrowable(() -> c.apply(acc, new Object[] {v}, 0, type, "c"));
    assertThat(t).as("converting %s to %s", v, type).isInstanceOf(HandoffException.class);
    HandoffException e = (HandoffException) t;
    assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
    assertThat(e.getMessage())
        .startsWith("column \"c\" (" + type + "): value " + shown + " (")
        .contains(reason);
    return e;
  }

  static BigInteger pow2(int n) {
    return TWO.pow(n);
  }

  /** Returns {@code s} as an error message shows it: cut to 64 characters. */
  static String cut(String s) {
    return s.length() <= 64 ? s : s.substring(0, 64) + "...";
  }

  /* ================================================================== integers */

  @Nested
  class Integers {

    @Test
    void acceptsEveryLimitOfEveryWidth() {
      assertThat(conv(Conv.TO_LONG, INT8, -128L)).isEqualTo(-128L);
      assertThat(conv(Conv.TO_LONG, INT8, 127)).isEqualTo(127L);
      assertThat(conv(Conv.TO_LONG, UINT8, 255L)).isEqualTo(255L);
      assertThat(conv(Conv.TO_LONG, INT16, -32768L)).isEqualTo(-32768L);
      assertThat(conv(Conv.TO_LONG, INT16, (short) 32767)).isEqualTo(32767L);
      assertThat(conv(Conv.TO_LONG, UINT16, 65535L)).isEqualTo(65535L);
      assertThat(conv(Conv.TO_LONG, INT32, Integer.MIN_VALUE)).isEqualTo(-2147483648L);
      assertThat(conv(Conv.TO_LONG, UINT32, 4294967295L)).isEqualTo(4294967295L);
      assertThat(conv(Conv.TO_LONG, INT64, Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
      assertThat(conv(Conv.TO_LONG, INT64, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
      assertThat(conv(Conv.TO_LONG, UINT64, 0L)).isZero();
      assertThat(conv(Conv.TO_LONG, UINT64, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void givesUInt64AboveLongMaxAsUnsignedBitsFromBigIntegerAndText() {
      BigInteger max = pow2(64).subtract(BigInteger.ONE);
      assertThat(conv(Conv.TO_LONG, UINT64, max)).isEqualTo(-1L);
      assertThat(conv(Conv.TO_LONG, UINT64, "18446744073709551615")).isEqualTo(-1L);
      assertThat(conv(Conv.TO_LONG, UINT64, pow2(63))).isEqualTo(Long.MIN_VALUE);
      assertThat(conv(Conv.TO_LONG, UINT64, "9223372036854775808")).isEqualTo(Long.MIN_VALUE);
      assertThat(conv(Conv.TO_LONG, UINT64, 0x1p63)).isEqualTo(Long.MIN_VALUE);
      assertThat(conv(Conv.TO_LONG, UINT64, 0x1.fffffffffffffp63))
          .isEqualTo(0xFFFF_FFFF_FFFF_F800L);
    }

    @Test
    void rejectsOutOfRangeLongs() {
      rejects(Conv.TO_LONG, INT8, 128L, "128", "is out of range -128..127");
      rejects(Conv.TO_LONG, INT8, -129L, "-129", "is out of range -128..127");
      rejects(Conv.TO_LONG, UINT8, 256L, "256", "is out of range 0..255");
      rejects(Conv.TO_LONG, INT16, 32768L, "32768", "is out of range -32768..32767");
      rejects(Conv.TO_LONG, UINT16, 65536L, "65536", "is out of range 0..65535");
      rejects(Conv.TO_LONG, INT32, 2147483648L, "2147483648", "-2147483648..2147483647");
      rejects(Conv.TO_LONG, UINT32, 4294967296L, "4294967296", "is out of range 0..4294967295");
    }

    @ParameterizedTest
    @ValueSource(strings = {"UInt8", "UInt16", "UInt32", "UInt64"})
    void rejectsNegativeValuesIntoUnsignedTypes(String name) {
      ClickHouseType type = ClickHouseType.of(TypeKind.valueOf(name.toUpperCase()));
      rejects(Conv.TO_LONG, type, -1L, "-1", "is out of range 0..");
      rejects(Conv.TO_LONG, type, Long.MIN_VALUE, "-9223372036854775808", "is out of range 0..");
      rejects(Conv.TO_LONG, type, "-1", "\"-1\"", "is out of range 0..");
      rejects(Conv.TO_LONG, type, BigInteger.valueOf(-1), "-1", "is out of range 0..");
      rejects(Conv.TO_LONG, type, -1.0, "-1.0", "is out of range 0..");
    }

    @Test
    void rejectsTwoToThe64IntoUInt64AndTwoToThe63IntoInt64() {
      rejects(Conv.TO_LONG, UINT64, pow2(64), "18446744073709551616",
          "is out of range 0..18446744073709551615");
      rejects(Conv.TO_LONG, UINT64, "18446744073709551616", "\"18446744073709551616\"",
          "is out of range 0..18446744073709551615");
      rejects(Conv.TO_LONG, UINT64, 0x1p64, "1.8446744073709552E19", "is out of range");
      rejects(Conv.TO_LONG, INT64, pow2(63), "9223372036854775808", "is out of range");
      rejects(Conv.TO_LONG, INT64, 0x1p63, "9.223372036854776E18", "is out of range");
      rejects(Conv.TO_LONG, INT64, "-9223372036854775809", "\"-9223372036854775809\"",
          "is out of range");
      assertThat(conv(Conv.TO_LONG, INT64, -0x1p63)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void acceptsBooleansAsZeroAndOne() {
      assertThat(conv(Conv.TO_LONG, UINT8, true)).isEqualTo(1L);
      assertThat(conv(Conv.TO_LONG, INT8, false)).isZero();
    }

    @Test
    void acceptsIntegralDoublesAndRejectsOthers() {
      assertThat(conv(Conv.TO_LONG, INT32, 3.0)).isEqualTo(3L);
      assertThat(conv(Conv.TO_LONG, INT32, -0.0)).isZero();
      assertThat(conv(Conv.TO_LONG, INT64, 0x1p62)).isEqualTo(1L << 62);
      assertThat(conv(Conv.TO_LONG, INT8, 1.0f)).isEqualTo(1L);
      rejects(Conv.TO_LONG, INT32, 3.5, "3.5", "is not an integer");
      rejects(Conv.TO_LONG, INT64, 1e-300, "1.0E-300", "is not an integer");
      rejects(Conv.TO_LONG, INT32, Double.NaN, "NaN", "is not finite");
      rejects(Conv.TO_LONG, INT32, Double.POSITIVE_INFINITY, "Infinity", "is not finite");
      rejects(Conv.TO_LONG, INT8, 128.0, "128.0", "is out of range -128..127");
    }

    @Test
    void acceptsIntegralBigDecimalsAndRejectsFractions() {
      assertThat(conv(Conv.TO_LONG, INT32, new BigDecimal("42.000"))).isEqualTo(42L);
      assertThat(conv(Conv.TO_LONG, INT32, new BigDecimal("1E+3"))).isEqualTo(1000L);
      assertThat(conv(Conv.TO_LONG, INT32, new BigDecimal("0E+999999999"))).isZero();
      rejects(Conv.TO_LONG, INT32, new BigDecimal("42.5"), "42.5", "is not an integer");
      rejects(Conv.TO_LONG, INT32, new BigDecimal("0.001"), "0.001", "is not an integer");
      rejects(Conv.TO_LONG, INT32, new BigDecimal("1E+100"), "1E+100", "is out of range");
      // A huge exponent is refused before anything is scaled.
      rejects(Conv.TO_LONG, INT64, new BigDecimal("1E+999999999"), "1E+999999999",
          "is out of range");
      rejects(Conv.TO_LONG, INT64, new BigDecimal("1E-999999999"), "1E-999999999",
          "is not an integer");
    }

    @Test
    void acceptsNumericText() {
      assertThat(conv(Conv.TO_LONG, INT32, "42")).isEqualTo(42L);
      assertThat(conv(Conv.TO_LONG, INT32, "-7")).isEqualTo(-7L);
      assertThat(conv(Conv.TO_LONG, INT32, "+5")).isEqualTo(5L);
      assertThat(conv(Conv.TO_LONG, INT32, "007")).isEqualTo(7L);
      assertThat(conv(Conv.TO_LONG, INT32, "1e3")).isEqualTo(1000L);
      assertThat(conv(Conv.TO_LONG, INT32, "2.0")).isEqualTo(2L);
      assertThat(conv(Conv.TO_LONG, INT64, new StringBuilder("-9223372036854775808")))
          .isEqualTo(Long.MIN_VALUE);
      assertThat(conv(Conv.TO_LONG, INT64, "000000000000000000000000001")).isEqualTo(1L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", " 1", "1 ", "0x10", "1_000", "1d", "1f", "--1", "+", "-",
        "1e", "1e+", ".", "1.2.3", "١٢", "Infinity1", "e5"})
    void rejectsTextThatIsNotANumber(String text) {
      rejects(Conv.TO_LONG, INT32, text, '"' + text + '"', "is not a number");
    }

    @Test
    void rejectsNonIntegralAndNonFiniteText() {
      rejects(Conv.TO_LONG, INT32, "2.5", "\"2.5\"", "is not an integer");
      rejects(Conv.TO_LONG, INT32, "nan", "\"nan\"", "is not finite");
      rejects(Conv.TO_LONG, INT32, "-inf", "\"-inf\"", "is not finite");
      rejects(Conv.TO_LONG, INT32, "1e10", "\"1e10\"", "is out of range");
      rejects(Conv.TO_LONG, INT32, "1" + "0".repeat(400), '"' + "1" + "0".repeat(63) + "...\"",
          "is not a number");
    }

    @Test
    void rejectsOtherKinds() {
      rejects(Conv.TO_LONG, INT32, List.of(1, 2), "[1, 2]", "cannot convert SEQUENCE to Int32");
      rejects(Conv.TO_LONG, INT32, Map.of("a", 1), "{a=1}", "cannot convert MAP to Int32");
      rejects(Conv.TO_LONG, INT32, new byte[] {1, 2}, "0x0102 (2 bytes)",
          "cannot convert BYTES to Int32");
      rejects(Conv.TO_LONG, INT32, new UUID(0, 1), "00000000-0000-0000-0000-000000000001",
          "cannot convert UUID to Int32");
      rejects(Conv.TO_LONG, INT32, Instant.EPOCH, "1970-01-01T00:00:00Z",
          "cannot convert TEMPORAL to Int32");
      rejects(Conv.TO_LONG, INT32, new Object[] {1}, "[1]", "cannot convert SEQUENCE to Int32");
      rejects(Conv.TO_LONG, INT32, Optional.of(120), "Optional[120]",
          "cannot convert OTHER to Int32");
    }

    @Test
    void rejectsNull() {
      rejects(Conv.TO_LONG, INT32, null, "null", "null into a non-Nullable column");
    }

    @Test
    void refusesTypesItDoesNotRead() {
      assertThatThrownBy(() -> conv(Conv.TO_LONG, INT128, 1L))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> conv(Conv.TO_LONG, STRING, 1L))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> conv(Conv.TO_BIG_INTEGER, FLOAT64, 1L))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class WideIntegers {

    @Test
    void acceptsTheLimitsOf128And256Bits() {
      BigInteger min128 = pow2(127).negate();
      BigInteger max128 = pow2(127).subtract(BigInteger.ONE);
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, min128)).isEqualTo(min128);
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, max128)).isEqualTo(max128);
      assertThat(conv(Conv.TO_BIG_INTEGER, UINT128, pow2(128).subtract(BigInteger.ONE)))
          .isEqualTo(pow2(128).subtract(BigInteger.ONE));
      assertThat(conv(Conv.TO_BIG_INTEGER, INT256, pow2(255).negate()))
          .isEqualTo(pow2(255).negate());
      assertThat(conv(Conv.TO_BIG_INTEGER, UINT256, pow2(256).subtract(BigInteger.ONE)))
          .isEqualTo(pow2(256).subtract(BigInteger.ONE));
      // formats doc 4.1: UInt128 2^64, UInt256 100, Int128 -1.
      assertThat(conv(Conv.TO_BIG_INTEGER, UINT128, "18446744073709551616")).isEqualTo(pow2(64));
      assertThat(conv(Conv.TO_BIG_INTEGER, UINT256, 100L)).isEqualTo(BigInteger.valueOf(100));
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, -1)).isEqualTo(BigInteger.valueOf(-1));
    }

    @Test
    void rejectsOneBeyondEachLimit() {
      rejects(Conv.TO_BIG_INTEGER, INT128, pow2(127), pow2(127).toString(),
          "is out of range -2^127..2^127-1");
      rejects(Conv.TO_BIG_INTEGER, INT128, pow2(127).negate().subtract(BigInteger.ONE),
          pow2(127).negate().subtract(BigInteger.ONE).toString(), "is out of range");
      rejects(Conv.TO_BIG_INTEGER, UINT128, pow2(128), pow2(128).toString(),
          "is out of range 0..2^128-1");
      rejects(Conv.TO_BIG_INTEGER, UINT128, -1L, "-1", "is out of range 0..2^128-1");
      rejects(Conv.TO_BIG_INTEGER, INT256, pow2(255), cut(pow2(255).toString()),
          "is out of range -2^255..2^255-1");
      String big = pow2(256).toString();
      rejects(Conv.TO_BIG_INTEGER, UINT256, big, '"' + cut(big) + '"',
          "is out of range 0..2^256-1");
      rejects(Conv.TO_BIG_INTEGER, UINT256, 0x1p256, "1.157920892373162E77", "is out of range");
    }

    @Test
    void convertsEveryNumericKindExactly() {
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, 1e30))
          .isEqualTo(new BigDecimal(1e30).toBigIntegerExact());
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, new BigDecimal("12345678901234567890123.000")))
          .isEqualTo(new BigInteger("12345678901234567890123"));
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, "-1.5e3")).isEqualTo(BigInteger.valueOf(-1500));
      assertThat(conv(Conv.TO_BIG_INTEGER, INT128, true)).isEqualTo(BigInteger.ONE);
      assertThat(conv(Conv.TO_BIG_INTEGER, INT8, 127L)).isEqualTo(BigInteger.valueOf(127));
      rejects(Conv.TO_BIG_INTEGER, INT8, 128L, "128", "is out of range -128..127");
      rejects(Conv.TO_BIG_INTEGER, INT128, 0.5, "0.5", "is not an integer");
      rejects(Conv.TO_BIG_INTEGER, INT128, "1.5", "\"1.5\"", "is not an integer");
      rejects(Conv.TO_BIG_INTEGER, INT128, "x", "\"x\"", "is not a number");
      rejects(Conv.TO_BIG_INTEGER, INT128, Double.NaN, "NaN", "is not finite");
      rejects(Conv.TO_BIG_INTEGER, INT128, null, "null", "null into a non-Nullable column");
      rejects(Conv.TO_BIG_INTEGER, INT128, List.of(), "[]", "cannot convert SEQUENCE to Int128");
    }
  }

  /* ================================================================== floats and Bool */

  @Nested
  class Floats {

    @Test
    void passesDoublesThroughBitForBit() {
      double nanWithSign = Double.longBitsToDouble(0xFFF8_0000_0000_0000L);
      assertThat(Double.doubleToRawLongBits(conv(Conv.TO_DOUBLE, FLOAT64, nanWithSign)))
          .isEqualTo(0xFFF8_0000_0000_0000L);
      assertThat(Double.doubleToRawLongBits(conv(Conv.TO_DOUBLE, FLOAT64, -0.0)))
          .isEqualTo(Double.doubleToRawLongBits(-0.0));
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, Double.MIN_VALUE)).isEqualTo(Double.MIN_VALUE);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, Double.NEGATIVE_INFINITY))
          .isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, 0.1f)).isEqualTo((double) 0.1f);
    }

    @Test
    void acceptsLongsOnlyWhenExactlyRepresentable() {
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, 1L << 53)).isEqualTo(0x1p53);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, -(1L << 53))).isEqualTo(-0x1p53);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, (1L << 53) + 2)).isEqualTo(0x1p53 + 2);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, 1L << 62)).isEqualTo(0x1p62);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, Long.MIN_VALUE)).isEqualTo(-0x1p63);
      rejects(Conv.TO_DOUBLE, FLOAT64, (1L << 53) + 1, "9007199254740993",
          "is not exactly representable as a Float64");
      rejects(Conv.TO_DOUBLE, FLOAT64, Long.MAX_VALUE, "9223372036854775807",
          "is not exactly representable as a Float64");
    }

    @Test
    void acceptsBigIntegersOnlyWhenExactlyRepresentable() {
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, pow2(100))).isEqualTo(0x1p100);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, pow2(1023).negate())).isEqualTo(-0x1p1023);
      rejects(Conv.TO_DOUBLE, FLOAT64, pow2(100).add(BigInteger.ONE),
          pow2(100).add(BigInteger.ONE).toString(), "is not exactly representable");
      rejects(Conv.TO_DOUBLE, FLOAT64, pow2(1024), cut(pow2(1024).toString()),
          "is out of range for a Float64");
    }

    @Test
    void roundsDecimalsToTheNearestDoubleButRejectsOverflowAndUnderflow() {
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, new BigDecimal("0.1"))).isEqualTo(0.1);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, new BigDecimal("-2.5E-300"))).isEqualTo(-2.5e-300);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, BigDecimal.ZERO)).isEqualTo(0.0);
      rejects(Conv.TO_DOUBLE, FLOAT64, new BigDecimal("1E+400"), "1E+400",
          "is out of range for a Float64");
      rejects(Conv.TO_DOUBLE, FLOAT64, new BigDecimal("1E-400"), "1E-400",
          "is too small for a Float64");
    }

    @Test
    void parsesText() {
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "1.5")).isEqualTo(1.5);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "-0.1e-2")).isEqualTo(-0.001);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, ".5")).isEqualTo(0.5);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "42")).isEqualTo(42.0);
      assertThat(Double.doubleToRawLongBits(conv(Conv.TO_DOUBLE, FLOAT64, "-0")))
          .isEqualTo(Double.doubleToRawLongBits(-0.0));
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "nan")).isNaN();
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "NaN")).isNaN();
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "inf")).isEqualTo(Double.POSITIVE_INFINITY);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "-inf")).isEqualTo(Double.NEGATIVE_INFINITY);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "+Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "9007199254740992")).isEqualTo(0x1p53);
      assertThat(conv(Conv.TO_DOUBLE, FLOAT64, "0.0e5")).isEqualTo(0.0);
      rejects(Conv.TO_DOUBLE, FLOAT64, "9007199254740993", "\"9007199254740993\"",
          "is not exactly representable as a Float64");
      rejects(Conv.TO_DOUBLE, FLOAT64, "1e400", "\"1e400\"", "is out of range for a Float64");
      rejects(Conv.TO_DOUBLE, FLOAT64, "1e-400", "\"1e-400\"", "is too small for a Float64");
      rejects(Conv.TO_DOUBLE, FLOAT64, "0x1p3", "\"0x1p3\"", "is not a number");
      rejects(Conv.TO_DOUBLE, FLOAT64, "1.5d", "\"1.5d\"", "is not a number");
      rejects(Conv.TO_DOUBLE, FLOAT64, " 1.5", "\" 1.5\"", "is not a number");
      rejects(Conv.TO_DOUBLE, FLOAT64, "nanx", "\"nanx\"", "is not a number");
    }

    @Test
    void float32RoundsDoublesButRejectsOverflow() {
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, 0.1)).isEqualTo(0.1f);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, (double) Float.MAX_VALUE)).isEqualTo(Float.MAX_VALUE);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, -(double) Float.MIN_VALUE))
          .isEqualTo(-Float.MIN_VALUE);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, Double.NaN)).isNaN();
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, Double.NEGATIVE_INFINITY))
          .isEqualTo(Float.NEGATIVE_INFINITY);
      assertThat(Float.floatToRawIntBits(conv(Conv.TO_FLOAT, FLOAT32, -0.0)))
          .isEqualTo(Float.floatToRawIntBits(-0.0f));
      rejects(Conv.TO_FLOAT, FLOAT32, 1e39, "1.0E39", "is out of range for a Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, -Double.MAX_VALUE, "-1.7976931348623157E308",
          "is out of range for a Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, 1e-50, "1.0E-50", "is too small for a Float32");
    }

    @Test
    void float32TakesIntegersOnlyWhenExact() {
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, 16_777_216L)).isEqualTo(16_777_216f);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, Long.MIN_VALUE)).isEqualTo(-0x1p63f);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, pow2(127))).isEqualTo(0x1p127f);
      rejects(Conv.TO_FLOAT, FLOAT32, 16_777_217L, "16777217",
          "is not exactly representable as a Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, Long.MAX_VALUE, "9223372036854775807",
          "is not exactly representable as a Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, pow2(128), pow2(128).toString(),
          "is out of range for a Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, "16777217", "\"16777217\"",
          "is not exactly representable as a Float32");
    }

    @Test
    void float32ParsesTextAndDecimalsWithoutDoubleRounding() {
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, "0.1")).isEqualTo(0.1f);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, "-inf")).isEqualTo(Float.NEGATIVE_INFINITY);
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, "16777216")).isEqualTo(16_777_216f);
      // 1.00000005960464477550...: via double it would round to 1.0000000596046448, then to even.
      String halfwayPlus = "1.00000005960464477550";
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, halfwayPlus)).isEqualTo(Math.nextUp(1.0f));
      assertThat(conv(Conv.TO_FLOAT, FLOAT32, new BigDecimal(halfwayPlus)))
          .isEqualTo(Math.nextUp(1.0f));
      rejects(Conv.TO_FLOAT, FLOAT32, "1e39", "\"1e39\"", "is out of range for a Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, new BigDecimal("1e39"), "1E+39", "is out of range");
      rejects(Conv.TO_FLOAT, FLOAT32, new BigDecimal("1e-50"), "1E-50", "is too small");
    }

    @Test
    void rejectsOtherKinds() {
      rejects(Conv.TO_DOUBLE, FLOAT64, true, "true", "cannot convert BOOLEAN to Float64");
      rejects(Conv.TO_DOUBLE, FLOAT64, null, "null", "null into a non-Nullable column");
      rejects(Conv.TO_FLOAT, FLOAT32, List.of(1.0), "[1.0]", "cannot convert SEQUENCE to Float32");
      rejects(Conv.TO_FLOAT, FLOAT32, null, "null", "null into a non-Nullable column");
    }
  }

  @Nested
  class Bools {

    @Test
    void acceptsBooleansZeroOneAndTheirText() {
      assertThat(conv(Conv.TO_BOOL, BOOL, true)).isTrue();
      assertThat(conv(Conv.TO_BOOL, BOOL, false)).isFalse();
      assertThat(conv(Conv.TO_BOOL, BOOL, 1L)).isTrue();
      assertThat(conv(Conv.TO_BOOL, BOOL, 0)).isFalse();
      assertThat(conv(Conv.TO_BOOL, BOOL, "true")).isTrue();
      assertThat(conv(Conv.TO_BOOL, BOOL, "TRUE")).isTrue();
      assertThat(conv(Conv.TO_BOOL, BOOL, "False")).isFalse();
      assertThat(conv(Conv.TO_BOOL, BOOL, "1")).isTrue();
      assertThat(conv(Conv.TO_BOOL, BOOL, new StringBuilder("0"))).isFalse();
    }

    @Test
    void rejectsEverythingElse() {
      rejects(Conv.TO_BOOL, BOOL, 2L, "2", "is not a boolean (expected 0 or 1)");
      rejects(Conv.TO_BOOL, BOOL, -1L, "-1", "is not a boolean");
      rejects(Conv.TO_BOOL, BOOL, "yes", "\"yes\"", "is not a boolean (expected true, false");
      rejects(Conv.TO_BOOL, BOOL, "t", "\"t\"", "is not a boolean");
      rejects(Conv.TO_BOOL, BOOL, "", "\"\"", "is not a boolean");
      rejects(Conv.TO_BOOL, BOOL, 1.0, "1.0", "cannot convert DOUBLE to Bool");
      rejects(Conv.TO_BOOL, BOOL, null, "null", "null into a non-Nullable column");
    }
  }

  /* ================================================================== Decimal */

  @Nested
  class Decimals {

    final ClickHouseType d92 = ClickHouseType.decimal(9, 2);

    @Test
    void pinsTheFormatsDocExamples() {
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("-1.50"))).isEqualTo(-150L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("9999999.99")))
          .isEqualTo(999_999_999L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, ClickHouseType.decimal(18, 18),
          new BigDecimal("0.999999999999999999"))).isEqualTo(999_999_999_999_999_999L);
      BigInteger max38 = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 0),
          new BigDecimal(max38.negate()))).isEqualTo(max38.negate());
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(76, 10), new BigDecimal("-1.5")))
          .isEqualTo(BigInteger.valueOf(-15_000_000_000L));
    }

    @Test
    void scalesLongsAndChecksThePrecision() {
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, 5L)).isEqualTo(500L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, -9_999_999L)).isEqualTo(-999_999_900L);
      rejects(Conv.TO_DECIMAL_LONG, d92, 10_000_000L, "10000000",
          "is out of range: more than 9 digits");
      ClickHouseType d180 = ClickHouseType.decimal(18, 0);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d180, 999_999_999_999_999_999L))
          .isEqualTo(999_999_999_999_999_999L);
      rejects(Conv.TO_DECIMAL_LONG, d180, Long.MAX_VALUE, "9223372036854775807",
          "is out of range");
      rejects(Conv.TO_DECIMAL_LONG, ClickHouseType.decimal(18, 17), Long.MIN_VALUE,
          "-9223372036854775808", "is out of range");
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 19), Long.MIN_VALUE))
          .isEqualTo(BigInteger.valueOf(Long.MIN_VALUE).multiply(BigInteger.TEN.pow(19)));
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 20), Long.MIN_VALUE,
          "-9223372036854775808", "is out of range");
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 30), 100_000_000L, "100000000",
          "is out of range");
    }

    @Test
    void neverRoundsBigDecimals() {
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("1.230"))).isEqualTo(123L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("1E+2"))).isEqualTo(10_000L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("0.000"))).isZero();
      rejects(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("0.001"), "0.001",
          "has more fraction digits than the scale 2 holds");
      rejects(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("1.005"), "1.005",
          "has more fraction digits");
      rejects(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("10000000.00"), "10000000.00",
          "is out of range: more than 9 digits");
      rejects(Conv.TO_DECIMAL_LONG, d92, new BigDecimal("-10000000"), "-10000000",
          "is out of range");
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 0),
          new BigDecimal(BigInteger.TEN.pow(38)), "1" + "0".repeat(38), "is out of range");
      // Huge exponents are refused before any scaling.
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(76, 0), new BigDecimal("1E+999999999"),
          "1E+999999999", "is out of range");
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(76, 76),
          new BigDecimal("1E-999999999"), "1E-999999999", "has more fraction digits");
    }

    @Test
    void takesBigIntegers() {
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, BigInteger.valueOf(-3))).isEqualTo(-300L);
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(40, 1), pow2(100)))
          .isEqualTo(pow2(100).multiply(BigInteger.TEN));
      rejects(Conv.TO_DECIMAL_LONG, d92, pow2(100), pow2(100).toString(), "is out of range");
    }

    @Test
    void takesTheDoubleOfAShortDecimalExactly() {
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, -1.5)).isEqualTo(-150L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, 0.1)).isEqualTo(10L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, 1.1)).isEqualTo(110L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, 0.29)).isEqualTo(29L); // 0.29*100 = 28.999...
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, 9999999.99)).isEqualTo(999_999_999L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, -0.0)).isZero();
      assertThat(conv(Conv.TO_DECIMAL_LONG, ClickHouseType.decimal(18, 4), 123456789012.3456))
          .isEqualTo(1_234_567_890_123_456L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, ClickHouseType.decimal(18, 0), 1e17))
          .isEqualTo(100_000_000_000_000_000L);
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 2), 0.1))
          .isEqualTo(BigInteger.TEN);
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 30), 0.1))
          .isEqualTo(BigInteger.TEN.pow(29));
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 0), 1e30))
          .isEqualTo(BigInteger.TEN.pow(30));
    }

    @Test
    void rejectsDoublesThatNeedRoundingOrAreNotFinite() {
      rejects(Conv.TO_DECIMAL_LONG, d92, 0.125, "0.125", "has more fraction digits");
      rejects(Conv.TO_DECIMAL_LONG, d92, 1.0 / 3, "0.3333333333333333", "has more fraction");
      rejects(Conv.TO_DECIMAL_LONG, d92, 1e7, "1.0E7", "is out of range");
      rejects(Conv.TO_DECIMAL_LONG, d92, 1e300, "1.0E300", "is out of range");
      rejects(Conv.TO_DECIMAL_LONG, d92, Double.NaN, "NaN", "is not finite");
      rejects(Conv.TO_DECIMAL_LONG, d92, Double.POSITIVE_INFINITY, "Infinity", "is not finite");
      rejects(Conv.TO_DECIMAL_LONG, d92, Double.NEGATIVE_INFINITY, "-Infinity", "is not finite");
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 2), Double.NaN, "NaN",
          "is not finite");
    }

    @Test
    void parsesTextExactly() {
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, "-1.50")).isEqualTo(-150L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, "42")).isEqualTo(4200L);
      assertThat(conv(Conv.TO_DECIMAL_LONG, d92, "1.5e2")).isEqualTo(15_000L);
      assertThat(conv(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 10),
          "12345678901234567890.0123456789"))
          .isEqualTo(new BigInteger("123456789012345678900123456789"));
      rejects(Conv.TO_DECIMAL_LONG, d92, "0.001", "\"0.001\"", "has more fraction digits");
      rejects(Conv.TO_DECIMAL_LONG, d92, "abc", "\"abc\"", "is not a number");
      rejects(Conv.TO_DECIMAL_LONG, d92, "nan", "\"nan\"", "is not finite");
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 2), "inf", "\"inf\"",
          "is not finite");
      rejects(Conv.TO_DECIMAL_LONG, d92, "1e99999999999", "\"1e99999999999\"", "is out of range");
    }

    @Test
    void rejectsOtherKindsAndRefusesWideTypes() {
      rejects(Conv.TO_DECIMAL_LONG, d92, true, "true", "cannot convert BOOLEAN to Decimal(9, 2)");
      rejects(Conv.TO_DECIMAL_LONG, d92, null, "null", "null into a non-Nullable column");
      rejects(Conv.TO_DECIMAL_BIG, ClickHouseType.decimal(38, 2), null, "null",
          "null into a non-Nullable column");
      assertThatThrownBy(() -> conv(Conv.TO_DECIMAL_LONG, ClickHouseType.decimal(19, 2), 1L))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> conv(Conv.TO_DECIMAL_BIG, INT32, 1L))
          .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bigAgreesWithLongForNarrowTypes() {
      for (Object v : new Object[] {5L, -1.5, new BigDecimal("1.23"), "7.5"}) {
        assertThat(conv(Conv.TO_DECIMAL_BIG, d92, v))
            .isEqualTo(BigInteger.valueOf(conv(Conv.TO_DECIMAL_LONG, d92, v)));
      }
    }
  }

  /* ================================================================== dates and times */

  @Nested
  class Dates {

    @Test
    void pinsTheFormatsDocDays() {
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(1970, 1, 1))).isZero();
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(2000, 2, 29))).isEqualTo(11016);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(2024, 3, 15))).isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(2105, 12, 31))).isEqualTo(49672);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(2149, 6, 6))).isEqualTo(65535);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32, LocalDate.of(1900, 1, 1))).isEqualTo(-25567);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32, LocalDate.of(1969, 12, 31))).isEqualTo(-1);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32, LocalDate.of(2299, 12, 31))).isEqualTo(120529);
    }

    @Test
    void rejectsDaysOutsideTheRange() {
      rejects(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(2149, 6, 7), "2149-06-07",
          "is out of range 1970-01-01..2149-06-06");
      rejects(Conv.TO_EPOCH_DAY, DATE, LocalDate.of(1969, 12, 31), "1969-12-31",
          "is out of range 1970-01-01..2149-06-06");
      rejects(Conv.TO_EPOCH_DAY, DATE, 65536L, "65536", "is out of range");
      rejects(Conv.TO_EPOCH_DAY, DATE, -1L, "-1", "is out of range");
      rejects(Conv.TO_EPOCH_DAY, DATE32, LocalDate.of(1899, 12, 31), "1899-12-31",
          "is out of range 1900-01-01..2299-12-31");
      rejects(Conv.TO_EPOCH_DAY, DATE32, LocalDate.of(2300, 1, 1), "2300-01-01",
          "is out of range 1900-01-01..2299-12-31");
      rejects(Conv.TO_EPOCH_DAY, DATE32, Long.MAX_VALUE, "9223372036854775807", "is out of range");
      rejects(Conv.TO_EPOCH_DAY, DATE32, pow2(70), pow2(70).toString(), "is out of range");
    }

    @Test
    void takesLongsAsDays() {
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, 19797L)).isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32, -25567)).isEqualTo(-25567);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, BigInteger.valueOf(7))).isEqualTo(7);
    }

    @Test
    void takesTheDateOfDateTimesInTheTypesZone() {
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, LocalDateTime.of(2024, 3, 15, 23, 59)))
          .isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, Instant.parse("2024-03-15T23:59:59.999Z")))
          .isEqualTo(19797);
      // An instant is read in the type's zone, UTC for Date: 01:00+02:00 is 23:00 the day before.
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, OffsetDateTime.parse("2024-03-15T01:00+02:00")))
          .isEqualTo(19796);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32,
          ZonedDateTime.of(2024, 3, 15, 0, 30, 0, 0, ZoneId.of("Europe/Berlin"))))
          .isEqualTo(19796);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32, Instant.parse("1969-12-31T23:59:59Z")))
          .isEqualTo(-1);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, Date.from(Instant.parse("2024-03-15T12:00:00Z"))))
          .isEqualTo(19797);
    }

    @Test
    void readsAJavaSqlDateAsItsLocalDate() throws ReflectiveOperationException {
      // java.sql is not readable from this module, so the class is made reflectively.
      Object sqlDate = Class.forName("java.sql.Date").getMethod("valueOf", String.class)
          .invoke(null, "2024-03-15");
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, sqlDate)).isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_SECOND, ClickHouseType.dateTime("Europe/Berlin"), sqlDate))
          .isEqualTo(1_710_460_800L - 3600);
    }

    @Test
    void parsesIsoText() {
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, "2024-03-15")).isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, "2024-03-15 14:30:00")).isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, "2024-03-15T14:30:00")).isEqualTo(19797);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE, "2024-03-15T23:30:00-02:00")).isEqualTo(19798);
      assertThat(conv(Conv.TO_EPOCH_DAY, DATE32, "1900-01-01")).isEqualTo(-25567);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-02-30", "2023-02-29", "20240315", "19797", "15.03.2024",
        "2024-3-15", "2024-03-15x", " 2024-03-15", "2024-03-15T25:00:00", "tomorrow", ""})
    void rejectsMalformedText(String text) {
      rejects(Conv.TO_EPOCH_DAY, DATE, text, '"' + text + '"',
          "is not a valid date or date-time");
    }

    @Test
    void rejectsOtherKinds() {
      rejects(Conv.TO_EPOCH_DAY, DATE, LocalTime.NOON, "12:00",
          "is a LocalTime, not a date or date-time");
      rejects(Conv.TO_EPOCH_DAY, DATE, 1.5, "1.5", "cannot convert DOUBLE to Date");
      rejects(Conv.TO_EPOCH_DAY, DATE, null, "null", "null into a non-Nullable column");
      rejects(Conv.TO_EPOCH_DAY, DATE32, Optional.empty(), "Optional.empty",
          "cannot convert OTHER to Date32");
      assertThatThrownBy(() -> conv(Conv.TO_EPOCH_DAY, DATETIME, 1L))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class DateTimes {

    final ClickHouseType berlin = ClickHouseType.dateTime("Europe/Berlin");
    final ClickHouseType kolkata = ClickHouseType.dateTime("Asia/Kolkata");

    @Test
    void pinsTheFormatsDocSeconds() {
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, Instant.parse("2024-03-15T14:30:00Z")))
          .isEqualTo(1_710_513_000L);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, Instant.EPOCH)).isZero();
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, Instant.parse("2106-02-07T06:28:15Z")))
          .isEqualTo(4_294_967_295L);
    }

    @Test
    void takesEveryTemporalKind() {
      long expected = 1_710_513_000L;
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, LocalDateTime.of(2024, 3, 15, 14, 30)))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, berlin, LocalDateTime.of(2024, 3, 15, 15, 30)))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, kolkata, LocalDateTime.of(2024, 3, 15, 20, 0)))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, berlin, OffsetDateTime.parse("2024-03-15T14:30Z")))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME,
          ZonedDateTime.of(2024, 3, 15, 10, 30, 0, 0, ZoneId.of("America/New_York"))))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, LocalDate.of(2024, 3, 15)))
          .isEqualTo(1_710_460_800L);
      assertThat(conv(Conv.TO_EPOCH_SECOND, berlin, LocalDate.of(2024, 3, 15)))
          .isEqualTo(1_710_460_800L - 3600);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, LegacyDates.date(expected)))
          .isEqualTo(expected);
    }

    @Test
    void dropsTheFractionOfASecond() {
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, Instant.parse("2024-03-15T14:30:00.999Z")))
          .isEqualTo(1_710_513_000L);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15 14:30:00.999999999"))
          .isEqualTo(1_710_513_000L);
      // Floor, not truncation toward zero: half a second before the epoch is second -1.
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, Instant.parse("1969-12-31T23:59:59.500Z"),
          "1969-12-31T23:59:59.500Z", "is out of range 1970-01-01 00:00:00..2106-02-07 06:28:15");
    }

    @Test
    void takesLongsAndIntegerTextAsEpochSeconds() {
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, 1_710_513_000L)).isEqualTo(1_710_513_000L);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "1710513000")).isEqualTo(1_710_513_000L);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, 4_294_967_295L)).isEqualTo(4_294_967_295L);
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, 4_294_967_296L, "4294967296",
          "is out of range 1970-01-01 00:00:00..2106-02-07 06:28:15 UTC");
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, -1L, "-1", "is out of range");
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, "-1", "\"-1\"", "is out of range");
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, "99999999999999999999", "\"99999999999999999999\"",
          "is out of range");
    }

    @Test
    void parsesIsoText() {
      long expected = 1_710_513_000L;
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15 14:30:00")).isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15T14:30:00")).isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15T14:30")).isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15T14:30:00Z")).isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, berlin, "2024-03-15T16:30:00+02:00"))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, berlin, "2024-03-15 15:30:00")).isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15T15:30:00[Europe/Berlin]"))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_EPOCH_SECOND, DATETIME, "2024-03-15")).isEqualTo(1_710_460_800L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-03-15 14:30:00 UTC", "2024-03-15T14:30:00+2", "14:30:00",
        "2024-03-15T14:30:00ZZ", "2024-03-15  14:30:00", "1710513000.5", "2024-03-15T24:00:00",
        "2024-03-15T14:30:00[Mars/Olympus]"})
    void rejectsMalformedText(String text) {
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, text, '"' + text + '"',
          "is not a valid date or date-time");
    }

    @Test
    void rejectsOtherKinds() {
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, 1.5, "1.5", "cannot convert DOUBLE to DateTime");
      rejects(Conv.TO_EPOCH_SECOND, berlin, true, "true",
          "cannot convert BOOLEAN to DateTime('Europe/Berlin')");
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, null, "null", "null into a non-Nullable column");
      rejects(Conv.TO_EPOCH_SECOND, DATETIME, LegacyDates.sqlTime(), "12:00:00",
          "which has no date");
    }
  }

  @Nested
  class DateTime64s {

    final ClickHouseType ms = ClickHouseType.dateTime64(3, null);
    final ClickHouseType ns = ClickHouseType.dateTime64(9, null);
    final ClickHouseType s0 = ClickHouseType.dateTime64(0, null);

    @Test
    void pinsTheFormatsDocTicks() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, Instant.parse("2024-03-15T14:30:00.123Z")))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, Instant.parse("1969-12-31T23:59:59.999Z")))
          .isEqualTo(-1L);
    }

    @Test
    void floorsFinerTemporalsToATick() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms,
          Instant.parse("1969-12-31T23:59:59.999999Z"))).isEqualTo(-1L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms,
          Instant.parse("1969-12-31T23:59:59.000001Z"))).isEqualTo(-1000L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, s0, Instant.parse("1969-12-31T23:59:59.5Z")))
          .isEqualTo(-1L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, "2024-03-15T14:30:00.123999Z"))
          .isEqualTo(1_710_513_000_123L);
    }

    @Test
    void takesEveryTemporalKind() {
      long expected = 1_710_513_000_123L;
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms,
          LocalDateTime.of(2024, 3, 15, 14, 30, 0, 123_000_000))).isEqualTo(expected);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ClickHouseType.dateTime64(3, "Europe/Berlin"),
          LocalDateTime.of(2024, 3, 15, 15, 30, 0, 123_000_000))).isEqualTo(expected);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms,
          OffsetDateTime.parse("2024-03-15T16:30:00.123+02:00"))).isEqualTo(expected);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms,
          ZonedDateTime.parse("2024-03-15T15:30:00.123+01:00[Europe/Berlin]")))
          .isEqualTo(expected);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, LocalDate.of(2024, 3, 15)))
          .isEqualTo(1_710_460_800_000L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ns, LegacyDates.timestamp(
          Instant.parse("2024-03-15T14:30:00.123456789Z")))).isEqualTo(1_710_513_000_123_456_789L);
    }

    @Test
    void takesLongsAsTicks() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, 1_710_513_000_123L))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ns, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
      rejects(Conv.TO_DATETIME64_TICKS, ns, Long.MIN_VALUE, "-9223372036854775808",
          "is out of range 1900-01-01 00:00:00..2262-04-11 23:47:16.854775807 UTC");
    }

    @Test
    void takesDoublesAsSecondsFlooredToATick() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, 1_710_513_000.123))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ns, 1_710_513_000.123))
          .isEqualTo(1_710_513_000_123_000_000L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, 1_710_513_000.1239))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, -0.0015)).isEqualTo(-2L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, 0.0005)).isZero();
      assertThat(conv(Conv.TO_DATETIME64_TICKS, s0, -0.5)).isEqualTo(-1L);
      rejects(Conv.TO_DATETIME64_TICKS, ms, Double.NaN, "NaN", "is not finite");
      rejects(Conv.TO_DATETIME64_TICKS, ms, 1e300, "1.0E300", "is out of range");
    }

    @Test
    void takesBigDecimalsAndNumericTextAsExactSeconds() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, new BigDecimal("1710513000.123")))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, new BigDecimal("1710513000.1230000")))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, new BigDecimal("-0.001"))).isEqualTo(-1L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, "1710513000.123"))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, "1710513000")).isEqualTo(1_710_513_000_000L);
      rejects(Conv.TO_DATETIME64_TICKS, ms, new BigDecimal("1710513000.1234"), "1710513000.1234",
          "has a fraction of a second finer than DateTime64(3) holds");
      rejects(Conv.TO_DATETIME64_TICKS, ms, new BigDecimal("1E-999999999"), "1E-999999999",
          "finer than DateTime64(3)");
      rejects(Conv.TO_DATETIME64_TICKS, ms, new BigDecimal("1E+999999999"), "1E+999999999",
          "is out of range");
    }

    @Test
    void parsesIsoText() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, "2024-03-15T14:30:00.123Z"))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, "2024-03-15 14:30:00.123"))
          .isEqualTo(1_710_513_000_123L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ns, "2024-03-15 14:30:00.123456789"))
          .isEqualTo(1_710_513_000_123_456_789L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, "1969-12-31T23:59:59.999Z")).isEqualTo(-1L);
      rejects(Conv.TO_DATETIME64_TICKS, ms, "2024-03-15T14:30:00.1234567891Z",
          "\"2024-03-15T14:30:00.1234567891Z\"", "is not a valid date or date-time");
    }

    @Test
    void enforcesTheRange() {
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, Instant.parse("1900-01-01T00:00:00Z")))
          .isEqualTo(-2_208_988_800_000L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ms, Instant.parse("2299-12-31T23:59:59.999Z")))
          .isEqualTo(10_413_791_999_999L);
      assertThat(conv(Conv.TO_DATETIME64_TICKS, ns,
          Instant.parse("2262-04-11T23:47:16.854775807Z"))).isEqualTo(Long.MAX_VALUE);
      rejects(Conv.TO_DATETIME64_TICKS, ms, Instant.parse("1899-12-31T23:59:59.999Z"),
          "1899-12-31T23:59:59.999Z",
          "is out of range 1900-01-01 00:00:00..2299-12-31 23:59:59.999999999 (UTC or the"
              + " column's zone)");
      rejects(Conv.TO_DATETIME64_TICKS, ms, Instant.parse("2300-01-01T00:00:00Z"),
          "2300-01-01T00:00:00Z", "is out of range");
      rejects(Conv.TO_DATETIME64_TICKS, ns, Instant.parse("2262-04-11T23:47:16.854775808Z"),
          "2262-04-11T23:47:16.854775808Z", "is out of range");
      rejects(Conv.TO_DATETIME64_TICKS, ms, -2_208_988_800_001L, "-2208988800001",
          "is out of range");
      rejects(Conv.TO_DATETIME64_TICKS, ms, 10_413_792_000_000L, "10413792000000",
          "is out of range");
      rejects(Conv.TO_DATETIME64_TICKS, ms, Instant.MAX, "+1000000000-12-31T23:59:59.999999999Z",
          "is out of range");
    }

    @Test
    void rejectsOtherKinds() {
      rejects(Conv.TO_DATETIME64_TICKS, ms, true, "true",
          "cannot convert BOOLEAN to DateTime64(3)");
      rejects(Conv.TO_DATETIME64_TICKS, ms, null, "null", "null into a non-Nullable column");
      rejects(Conv.TO_DATETIME64_TICKS, ms, "soon", "\"soon\"", "is not a valid date");
      assertThatThrownBy(() -> conv(Conv.TO_DATETIME64_TICKS, DATETIME, 1L))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class ExtremeTemporals {

    @Test
    void areOutOfRangeInEveryTemporalTypeAndZone() {
      List<Object> extremes = List.of(Instant.MIN, Instant.MAX, LocalDate.MIN, LocalDate.MAX,
          LocalDateTime.MIN, LocalDateTime.MAX, OffsetDateTime.MIN, OffsetDateTime.MAX,
          ZonedDateTime.of(LocalDateTime.MAX, ZoneId.of("Europe/Berlin")),
          ZonedDateTime.of(LocalDateTime.MIN, ZoneId.of("America/New_York")),
          "+999999999-12-31T23:59:59.999999999-18:00", "-999999999-01-01");
      List<ClickHouseType> types = List.of(DATE, DATE32, DATETIME,
          ClickHouseType.dateTime("Asia/Kathmandu"), ClickHouseType.dateTime64(0, null),
          ClickHouseType.dateTime64(9, "Europe/Berlin"));
      for (Object v : extremes) {
        for (ClickHouseType type : types) {
          Conv<?> c = type.kind() == TypeKind.DATETIME ? Conv.TO_EPOCH_SECOND
              : type.kind() == TypeKind.DATETIME64 ? Conv.TO_DATETIME64_TICKS : Conv.TO_EPOCH_DAY;
          rejects(c, type, v, v instanceof String ? '"' + v.toString() + '"' : v.toString(),
              "is out of range");
        }
      }
    }

    @Test
    void refusesOverlongTextBeforeParsingIt() {
      String text = "2024-03-15" + " ".repeat(10_000);
      rejects(Conv.TO_EPOCH_DAY, DATE, text, '"' + cut(text) + '"', "is not a valid date");
    }
  }

  /* ================================================================== UUID, IPs, Enums */

  @Nested
  class Uuids {

    @Test
    void takesUuidsTextAndBytes() {
      UUID u = UUID.fromString("550e8400-e29b-41d4-a716-446655440000");
      assertThat(conv(Conv.TO_UUID, UUID_TYPE, u)).isSameAs(u);
      assertThat(conv(Conv.TO_UUID, UUID_TYPE, "550e8400-e29b-41d4-a716-446655440000"))
          .isEqualTo(u);
      assertThat(conv(Conv.TO_UUID, UUID_TYPE, "550E8400-E29B-41D4-A716-446655440000"))
          .isEqualTo(u);
      byte[] canonical = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
      assertThat(conv(Conv.TO_UUID, UUID_TYPE, canonical))
          .isEqualTo(UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"));
      assertThat(conv(Conv.TO_UUID, UUID_TYPE, "ffffffff-ffff-ffff-ffff-ffffffffffff"))
          .isEqualTo(new UUID(-1, -1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1-1-1-1-1", "550e8400e29b41d4a716446655440000",
        "550e8400-e29b-41d4-a716-44665544000g", "{550e8400-e29b-41d4-a716-446655440000}",
        "550e8400-e29b-41d4-a716-4466554400001", "550e8400-e29b-41d4-a716_446655440000",
        "550e8400-e29b-41d4-a716-44665544000", "+50e8400-e29b-41d4-a716-446655440000", ""})
    void rejectsMalformedText(String text) {
      rejects(Conv.TO_UUID, UUID_TYPE, text, '"' + text + '"', "is not a UUID");
    }

    @Test
    void rejectsOtherKinds() {
      rejects(Conv.TO_UUID, UUID_TYPE, new byte[15], "0x" + "00".repeat(15) + " (15 bytes)",
          "has 15 bytes; a UUID has 16");
      rejects(Conv.TO_UUID, UUID_TYPE, 1L, "1", "cannot convert LONG to UUID");
      rejects(Conv.TO_UUID, UUID_TYPE, null, "null", "null into a non-Nullable column");
      rejects(ArrayRows.lying(ValueKind.UUID), Conv.TO_UUID, UUID_TYPE, "x", "x",
          "is not a java.util.UUID");
    }
  }

  @Nested
  class IPv4s {

    @Test
    void takesAddressesTextAndNumbers() throws UnknownHostException {
      InetAddress a = InetAddress.getByAddress(new byte[] {(byte) 192, (byte) 168, 1, 10});
      assertThat(conv(Conv.TO_IPV4, IPV4, a)).isEqualTo(0xC0A8010A);
      assertThat(conv(Conv.TO_IPV4, IPV4, "192.168.1.10")).isEqualTo(0xC0A8010A);
      assertThat(conv(Conv.TO_IPV4, IPV4, "127.0.0.1")).isEqualTo(0x7F000001);
      assertThat(conv(Conv.TO_IPV4, IPV4, "0.0.0.0")).isZero();
      assertThat(conv(Conv.TO_IPV4, IPV4, "255.255.255.255")).isEqualTo(-1);
      assertThat(conv(Conv.TO_IPV4, IPV4, 3_232_235_786L)).isEqualTo(0xC0A8010A);
      assertThat(conv(Conv.TO_IPV4, IPV4, 0xFFFF_FFFFL)).isEqualTo(-1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.04", "localhost",
        "example.com", "1..2.3", "1.2.3.4 ", ".1.2.3", "1.2.3.", "1.2.3.4.", "1234.1.1.1", "",
        "::1", "1.2.3.-4", "0x7f.0.0.1"})
    void rejectsMalformedTextWithoutLookingItUp(String text) {
      rejects(Conv.TO_IPV4, IPV4, text, '"' + text + '"',
          "is not an IPv4 address (expected a.b.c.d with parts 0..255; host names are not"
              + " resolved)");
    }

    @Test
    void rejectsOtherValues() throws UnknownHostException {
      rejects(Conv.TO_IPV4, IPV4, 0x1_0000_0000L, "4294967296", "is out of range 0..4294967295");
      rejects(Conv.TO_IPV4, IPV4, -1L, "-1", "is out of range");
      InetAddress v6 = InetAddress.getByAddress(new byte[16]);
      rejects(Conv.TO_IPV4, IPV4, v6, "/0:0:0:0:0:0:0:0", "is an IPv6 address");
      rejects(Conv.TO_IPV4, IPV4, new byte[4], "0x00000000 (4 bytes)",
          "cannot convert BYTES to IPv4");
      rejects(Conv.TO_IPV4, IPV4, null, "null", "null into a non-Nullable column");
    }
  }

  @Nested
  class IPv6s {

    byte[] hex(String h) {
      return HexFormat.of().parseHex(h);
    }

    @Test
    void pinsTheFormatsDocBytes() {
      assertThat(conv(Conv.TO_IPV6, IPV6, "2001:db8::1"))
          .isEqualTo(hex("20010db8000000000000000000000001"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "::ffff:192.168.1.10"))
          .isEqualTo(hex("00000000000000000000ffffc0a8010a"));
    }

    @Test
    void parsesEveryTextForm() {
      assertThat(conv(Conv.TO_IPV6, IPV6, "::")).isEqualTo(new byte[16]);
      assertThat(conv(Conv.TO_IPV6, IPV6, "::1"))
          .isEqualTo(hex("00000000000000000000000000000001"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "1::"))
          .isEqualTo(hex("00010000000000000000000000000000"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "1:2:3:4:5:6:7:8"))
          .isEqualTo(hex("00010002000300040005000600070008"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "1:2:3:4:5:6:7::"))
          .isEqualTo(hex("00010002000300040005000600070000"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "::2:3:4:5:6:7:8"))
          .isEqualTo(hex("00000002000300040005000600070008"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "fe80::1:2"))
          .isEqualTo(hex("fe800000000000000000000000010002"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "FFFF:ABCD::0db8"))
          .isEqualTo(hex("ffffabcd000000000000000000000db8"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "1:2:3:4:5:6:1.2.3.4"))
          .isEqualTo(hex("00010002000300040005000601020304"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "::1.2.3.4"))
          .isEqualTo(hex("00000000000000000000000001020304"));
      assertThat(conv(Conv.TO_IPV6, IPV6, "192.168.1.10"))
          .isEqualTo(hex("00000000000000000000ffffc0a8010a"));
    }

    @Test
    void takesAddressesAndBytes() throws UnknownHostException {
      byte[] raw = hex("20010db8000000000000000000000001");
      assertThat(conv(Conv.TO_IPV6, IPV6, InetAddress.getByAddress(raw))).isEqualTo(raw);
      assertThat(conv(Conv.TO_IPV6, IPV6, InetAddress.getByAddress(hex("c0a8010a"))))
          .isEqualTo(hex("00000000000000000000ffffc0a8010a"));
      assertThat(conv(Conv.TO_IPV6, IPV6, raw.clone())).isEqualTo(raw);
    }

    @ParameterizedTest
    @ValueSource(strings = {":::", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "::g",
        "1:2:3:4:5:6:7", "::1%eth0", "[::1]", "localhost", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3",
        "1:", ":1", "1::2:3:4:5:6:7:8", "", ":", "1.2.3.4::", "::1.2.3.4:5", "::256.1.1.1",
        "1:2:3:4:5:6:7:8::",
        "::ffff:01.2.3.4", "fe80:::1", "1 ::", "１::"})
    void rejectsMalformedTextWithoutLookingItUp(String text) {
      rejects(Conv.TO_IPV6, IPV6, text, '"' + text + '"', "is not an IPv6 or IPv4 address");
    }

    @Test
    void rejectsOtherValues() {
      rejects(Conv.TO_IPV6, IPV6, new byte[4], "0x00000000 (4 bytes)",
          "has 4 bytes; an IPv6 address has 16");
      rejects(Conv.TO_IPV6, IPV6, 1L, "1", "cannot convert LONG to IPv6");
      rejects(Conv.TO_IPV6, IPV6, null, "null", "null into a non-Nullable column");
      assertThatThrownBy(() -> Conversions.toIPv6(ACC, new Object[] {"::"}, 0, IPV6, "c",
          new byte[15])).isInstanceOf(IllegalArgumentException.class);
    }
  }

  enum Color { neg, a, RED }

  @Nested
  class Enums {

    final ClickHouseType enum8 = ClickHouseType.enumType(TypeKind.ENUM8,
        new String[] {"neg", "a", "ü"}, new int[] {-128, 1, 100});
    final ClickHouseType enum16 = ClickHouseType.enumType(TypeKind.ENUM16,
        new String[] {"lo", "ü"}, new int[] {-32768, 1000});

    @Test
    void takesNamesAndDeclaredValues() {
      assertThat(conv(Conv.TO_ENUM, enum8, "neg")).isEqualTo(-128);
      assertThat(conv(Conv.TO_ENUM, enum8, new StringBuilder("ü"))).isEqualTo(100);
      assertThat(conv(Conv.TO_ENUM, enum8, 1L)).isEqualTo(1);
      assertThat(conv(Conv.TO_ENUM, enum16, "lo")).isEqualTo(-32768);
      assertThat(conv(Conv.TO_ENUM, enum16, "ü")).isEqualTo(1000);
      assertThat(conv(Conv.TO_ENUM, enum16, 1000)).isEqualTo(1000);
      assertThat(conv(Conv.TO_ENUM, enum8, Color.a)).isEqualTo(1);
    }

    @Test
    void rejectsUnknownNamesAndUndeclaredValues() {
      rejects(Conv.TO_ENUM, enum8, "b", "\"b\"", "is not a declared enum name");
      rejects(Conv.TO_ENUM, enum8, "A", "\"A\"", "is not a declared enum name");
      rejects(Conv.TO_ENUM, enum8, "1", "\"1\"", "is not a declared enum name");
      rejects(Conv.TO_ENUM, enum8, 2L, "2", "is not a declared enum value");
      rejects(Conv.TO_ENUM, enum8, 0x1_0000_0001L, "4294967297", "is not a declared enum value");
      rejects(Conv.TO_ENUM, enum8, pow2(70), pow2(70).toString(), "is not a declared enum value");
      rejects(Conv.TO_ENUM, enum8, Color.RED, "RED", "is not a declared enum name");
      rejects(Conv.TO_ENUM, enum8, 1.0, "1.0", "cannot convert DOUBLE to Enum8");
      rejects(Conv.TO_ENUM, enum16, null, "null", "null into a non-Nullable column");
    }
  }

  /* ================================================================== strings */

  @Nested
  class Texts {

    @Test
    void returnsTextAsItIs() {
      String s = "héllo";
      StringBuilder sb = new StringBuilder("x");
      assertThat(conv(Conv.TO_TEXT, STRING, s)).isSameAs(s);
      assertThat(conv(Conv.TO_TEXT, ClickHouseType.fixedString(4), sb)).isSameAs(sb);
    }

    @Test
    void rendersOtherScalars() throws UnknownHostException {
      assertThat(conv(Conv.TO_TEXT, STRING, 42L)).hasToString("42");
      assertThat(conv(Conv.TO_TEXT, STRING, -1.5)).hasToString("-1.5");
      assertThat(conv(Conv.TO_TEXT, STRING, Double.NaN)).hasToString("NaN");
      assertThat(conv(Conv.TO_TEXT, STRING, true)).hasToString("true");
      assertThat(conv(Conv.TO_TEXT, STRING, pow2(70))).hasToString(pow2(70).toString());
      assertThat(conv(Conv.TO_TEXT, STRING, new BigDecimal("1.50"))).hasToString("1.50");
      assertThat(conv(Conv.TO_TEXT, STRING, new UUID(0, 1)))
          .hasToString("00000000-0000-0000-0000-000000000001");
      assertThat(conv(Conv.TO_TEXT, STRING, Instant.parse("2024-03-15T14:30:00Z")))
          .hasToString("2024-03-15T14:30:00Z");
      assertThat(conv(Conv.TO_TEXT, STRING, LocalDate.of(2024, 3, 15))).hasToString("2024-03-15");
      assertThat(conv(Conv.TO_TEXT, STRING,
          InetAddress.getByAddress("host", new byte[] {(byte) 192, (byte) 168, 1, 10})))
          .hasToString("192.168.1.10");
    }

    @Test
    void rejectsBytesContainersAndNull() {
      rejects(Conv.TO_TEXT, STRING, new byte[] {(byte) 0xAB}, "0xab (1 bytes)",
          "cannot convert BYTES to text");
      rejects(Conv.TO_TEXT, STRING, List.of("a"), "[a]", "cannot convert SEQUENCE to String");
      rejects(Conv.TO_TEXT, STRING, Map.of(), "{}", "cannot convert MAP to String");
      rejects(Conv.TO_TEXT, STRING, new Object() {
        @Override
        public String toString() {
          return "thing";
        }
      }, "thing", "cannot convert OTHER to String");
      rejects(Conv.TO_TEXT, STRING, null, "null", "null into a non-Nullable column");
    }
  }

  /* ================================================================== the error itself */

  @Nested
  class Errors {

    @Test
    void readsAsTheClassCommentSays() {
      HandoffException e = (HandoffException) catchThrowable(() ->
          Conversions.toLong(ACC, new Object[] {0L, 300L}, 1, UINT8, "age"));
      assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
      assertThat(e).hasMessage("column \"age\" (UInt8): value 300 (LONG) is out of range 0..255");
      assertThat(e.getCause()).isNull();
    }

    @Test
    void errorBuildsTheMessageForCallersToo() {
      HandoffException e = Conversions.error(ACC, new Object[] {"abcde"}, 0,
          ClickHouseType.fixedString(4), "code", "is 5 bytes long; FixedString(4) holds 4");
      assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
      assertThat(e).hasMessage("column \"code\" (FixedString(4)): value \"abcde\" (TEXT) is 5 bytes"
          + " long; FixedString(4) holds 4");
      // A reason that does not continue the sentence follows a colon.
      e = Conversions.error(ACC, new Object[] {Map.of()}, 0,
          ClickHouseType.map(STRING, STRING), "m", "a map key is null");
      assertThat(e).hasMessage("column \"m\" (Map(String, String)): value {} (MAP): a map key is"
          + " null");
    }

    @Test
    void wrongKindsAndNullsReadLikeThis() {
      assertThat(catchThrowable(() -> conv(Conv.TO_LONG, INT32, List.of(1, 2)))).hasMessage(
          "column \"c\" (Int32): value [1, 2] (SEQUENCE): cannot convert SEQUENCE to Int32");
      assertThat(catchThrowable(() -> conv(Conv.TO_LONG, INT32, null))).hasMessage(
          "column \"c\" (Int32): value null (NULL): null into a non-Nullable column");
    }

    @Test
    void shortensLongValuesTo64Characters() {
      String text = "x".repeat(1000);
      HandoffException e = rejects(Conv.TO_LONG, INT32, text, '"' + "x".repeat(64) + "...\"",
          "is not a number");
      assertThat(e.getMessage()).doesNotContain("x".repeat(65));
      byte[] bytes = new byte[1000];
      e = rejects(Conv.TO_LONG, INT32, bytes, "0x" + "00".repeat(24) + "... (1000 bytes)",
          "cannot convert BYTES");
      assertThat(e.getMessage().length()).isLessThan(200);
    }

    @Test
    void namesTheFullTypeIncludingZoneAndEnumElements() {
      ClickHouseType enum8 = ClickHouseType.enumType(TypeKind.ENUM8, new String[] {"it's"},
          new int[] {1});
      rejects(Conv.TO_ENUM, enum8, "x", "\"x\"", "is not a declared enum name");
      assertThat(rejects(Conv.TO_ENUM, enum8, "x", "\"x\"", "").getMessage())
          .contains("(Enum8('it\\'s' = 1))");
    }

    @Test
    void turnsAnAdapterThatLiesAboutTheKindIntoADataError() {
      for (Conv.Target t : Conv.ALL) {
        for (ValueKind kind : ValueKind.values()) {
          Throwable thrown = catchThrowable(() -> t.conv().apply(ArrayRows.lying(kind),
              new Object[] {new Object() { }}, 0, t.type(), "c"));
          assertThat(thrown).as("%s with a lying %s accessor", t, kind)
              .isInstanceOf(HandoffException.class);
          assertThat(((HandoffException) thrown).errorClass()).isEqualTo(ErrorClass.DATA);
          assertThat(thrown.getMessage()).startsWith("column \"c\" (" + t.type() + "): value ");
        }
      }
      HandoffException e = rejects(ArrayRows.lying(ValueKind.LONG), Conv.TO_LONG, INT32, "abc",
          "abc", "could not be read: java.lang.ClassCastException");
      assertThat(e.getCause()).isInstanceOf(ClassCastException.class);
    }

    @Test
    void unreadable_isADataErrorNamingColumnValueAndCauseWithTheCauseKept() {
      IllegalStateException cause = new IllegalStateException("x".repeat(500));
      HandoffException e =
          Conversions.unreadable(ACC, new Object[] {42L}, 0, INT32, "n", cause);
      assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
      assertThat(e.getCause()).isSameAs(cause);
      assertThat(e.getMessage())
          .startsWith("column \"n\" (Int32): value 42 (LONG): could not be read: "
              + "java.lang.IllegalStateException: xxx")
          .hasSizeLessThan(200); // the cause's message is shortened
    }

    @Test
    void turnsAThrowingAdapterIntoADataError() {
      IllegalStateException boom = new IllegalStateException("boom");
      RowAccessor<Object[]> failing = ArrayRows.failingGetters(boom);
      for (Conv.Target t : Conv.ALL) {
        for (RowAccessor<Object[]> acc : List.of(ArrayRows.throwing(boom), failing)) {
          for (Object v : new Object[] {1L, 1.5, "x", Instant.EPOCH, new UUID(0, 0)}) {
            Throwable thrown = catchThrowable(() -> t.conv().apply(acc, new Object[] {v}, 0,
                t.type(), "c"));
            assertThat(thrown).as("%s of %s", t, v).isInstanceOf(HandoffException.class);
            assertThat(((HandoffException) thrown).errorClass()).isEqualTo(ErrorClass.DATA);
            // Kinds a method does not take fail before any getter is called.
            if (thrown.getCause() != null || acc != failing) {
              assertThat(thrown.getCause()).isSameAs(boom);
              assertThat(thrown.getMessage()).contains("could not be read: "
                  + "java.lang.IllegalStateException: boom");
            }
          }
        }
      }
      assertThat(rejects(ArrayRows.throwing(boom), Conv.TO_LONG, INT32, 1L, "<unreadable: "
          + "IllegalStateException>", "could not be read").getMessage())
          .contains("(unknown kind)");
    }

    @Test
    void everyMethodRejectsNullAndContainers() {
      for (Conv.Target t : Conv.ALL) {
        rejects(t.conv(), t.type(), null, "null", "null into a non-Nullable column");
        String name = t.type().kind() == TypeKind.ENUM8 ? "Enum8" : t.type().toString();
        rejects(t.conv(), t.type(), List.of(1), "[1]", "cannot convert SEQUENCE to " + name);
        rejects(t.conv(), t.type(), Map.of(1, 2), "{1=2}", "cannot convert MAP to " + name);
      }
    }
  }

  /** Legacy date values for the OTHER kind. */
  static final class LegacyDates {
    private LegacyDates() {}

    static Date date(long epochSecond) {
      return new Date(epochSecond * 1000);
    }

    /** A java.sql.Timestamp-like Date with nanoseconds: a subclass whose toInstant keeps them. */
    static Date timestamp(Instant instant) {
      return new Date(instant.toEpochMilli()) {
        @Override
        public Instant toInstant() {
          return instant;
        }
      };
    }

    /** A java.sql.Time-like Date: toInstant is unsupported. */
    static Date sqlTime() {
      return new Date(12 * 3600 * 1000L) {
        @Override
        public Instant toInstant() {
          throw new UnsupportedOperationException();
        }

        @Override
        public String toString() {
          return "12:00:00";
        }
      };
    }
  }
}
