package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.nonNull;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;
import static dev.handoff.clickhouse.value.ConversionErrors.outOfRange;
import static dev.handoff.clickhouse.value.DecimalConversions.FAST_DECIMAL_LIMIT;
import static dev.handoff.clickhouse.value.DecimalConversions.POW10;
import static dev.handoff.clickhouse.value.DecimalConversions.POW10_DOUBLE;
import static dev.handoff.clickhouse.value.IntegerConversions.longOrOutOfRange;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.temporal.TemporalAccessor;

/**
 * Converts to Date, Date32, DateTime and DateTime64: {@link Conversions#toEpochDay}, {@link
 * Conversions#toEpochSecond} and {@link Conversions#toDateTime64Ticks}, with each type's range.
 * {@link Temporals} reads the java.time values and the ISO text; this class picks the reading
 * for each value kind and checks the range.
 */
final class TemporalConversions {
  private TemporalConversions() {}

  /** The largest {@code Date}: day 65535 since 1970-01-01, that is 2149-06-06. */
  static final int DATE_MAX = 65_535;
  private static final int DATE32_MIN = -25_567; // 1900-01-01
  private static final int DATE32_MAX = 120_529; // 2299-12-31
  /** The largest {@code DateTime}: 2^32-1 seconds, that is 2106-02-07 06:28:15 UTC. */
  static final long DATETIME_MAX = 0xFFFF_FFFFL;
  /** 1900-01-01 00:00:00 UTC. */
  private static final long DATETIME64_MIN_SECOND = -2_208_988_800L;
  /** 2300-01-01 00:00:00 UTC, the first second after the DateTime64 range. */
  private static final long DATETIME64_END_SECOND = 10_413_792_000L;
  private static final BigDecimal DATETIME64_MIN_SECOND_BIG =
      BigDecimal.valueOf(DATETIME64_MIN_SECOND);
  private static final BigDecimal DATETIME64_END_SECOND_BIG =
      BigDecimal.valueOf(DATETIME64_END_SECOND);
  /** The first and last tick of DateTime64(P), by P; P = 9 ends at the Int64 limit (2262). */
  private static final long[] MIN_TICKS = new long[10];
  private static final long[] MAX_TICKS = new long[10];

  static {
    for (int p = 0; p <= 9; p++) {
      MIN_TICKS[p] = DATETIME64_MIN_SECOND * POW10[p];
      MAX_TICKS[p] = p == 9 ? Long.MAX_VALUE : DATETIME64_END_SECOND * POW10[p] - 1;
    }
  }

  /** Implements {@link Conversions#toEpochDay}. */
  static <R> int toEpochDay(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    TypeKind tk = type.kind();
    if (tk != TypeKind.DATE && tk != TypeKind.DATE32) {
      throw new IllegalArgumentException("toEpochDay does not read " + type);
    }
    try {
      ValueKind kind = acc.kind(row, field);
      long day;
      switch (kind) {
        case LONG:
          day = acc.getLong(row, field);
          break;
        case BIG_INTEGER:
          day = longOrOutOfRange(acc.getBigInteger(row, field), type);
          break;
        case TEMPORAL:
          day = Temporals.epochDay(acc.getObject(row, field), type.zone());
          break;
        case OTHER:
          day = Temporals.epochDay(legacy(acc.getObject(row, field), kind, type), type.zone());
          break;
        case TEXT:
          day = Temporals.epochDay(Temporals.parse(acc.getText(row, field)), type.zone());
          break;
        default:
          throw notAccepted(kind, type);
      }
      if (tk == TypeKind.DATE ? day >= 0 && day <= DATE_MAX
          : day >= DATE32_MIN && day <= DATE32_MAX) {
        return (int) day;
      }
      throw outOfRange(type);
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Implements {@link Conversions#toEpochSecond}. */
  static <R> long toEpochSecond(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    if (type.kind() != TypeKind.DATETIME) {
      throw new IllegalArgumentException("toEpochSecond does not read " + type);
    }
    try {
      ValueKind kind = acc.kind(row, field);
      long second;
      switch (kind) {
        case LONG:
          second = acc.getLong(row, field);
          break;
        case BIG_INTEGER:
          second = longOrOutOfRange(acc.getBigInteger(row, field), type);
          break;
        case TEMPORAL:
          second = Temporals.epochSecond(acc.getObject(row, field), type.zone());
          break;
        case OTHER:
          second = Temporals.epochSecond(legacy(acc.getObject(row, field), kind, type),
              type.zone());
          break;
        case TEXT: {
          CharSequence text = acc.getText(row, field);
          if (NumberText.classify(text) == NumberText.INTEGER) {
            second = NumberText.integerDigits(text) <= 18
                ? NumberText.parseSmallInteger(text)
                : longOrOutOfRange(NumberText.parseBigInteger(text), type);
          } else {
            second = Temporals.epochSecond(Temporals.parse(text), type.zone());
          }
          break;
        }
        default:
          throw notAccepted(kind, type);
      }
      if (second >= 0 && second <= DATETIME_MAX) {
        return second;
      }
      throw outOfRange(type);
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Implements {@link Conversions#toDateTime64Ticks}. */
  static <R> long toDateTime64Ticks(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    if (type.kind() != TypeKind.DATETIME64) {
      throw new IllegalArgumentException("toDateTime64Ticks does not read " + type);
    }
    int p = type.precision();
    try {
      ValueKind kind = acc.kind(row, field);
      long ticks;
      switch (kind) {
        case LONG:
          ticks = acc.getLong(row, field);
          break;
        case BIG_INTEGER:
          ticks = longOrOutOfRange(acc.getBigInteger(row, field), type);
          break;
        case DOUBLE:
          ticks = ticksOfDouble(acc.getDouble(row, field), type);
          break;
        case BIG_DECIMAL:
          ticks = ticksOfSeconds(nonNull(acc.getBigDecimal(row, field)), type);
          break;
        case TEMPORAL:
          ticks = ticksOfTemporal(acc.getObject(row, field), type);
          break;
        case OTHER:
          ticks = ticksOfTemporal(legacy(acc.getObject(row, field), kind, type), type);
          break;
        case TEXT: {
          CharSequence text = acc.getText(row, field);
          int syntax = NumberText.classify(text);
          ticks = syntax == NumberText.INTEGER || syntax == NumberText.DECIMAL
              ? ticksOfSeconds(NumberText.parseBigDecimal(text), type)
              : ticksOfTemporal(Temporals.parse(text), type);
          break;
        }
        default:
          throw notAccepted(kind, type);
      }
      if (ticks >= MIN_TICKS[p] && ticks <= MAX_TICKS[p]
          || inLocalRange(Math.floorDiv(ticks, POW10[p]), type)) {
        return ticks;
      }
      throw outOfRange(type);
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  private static long ticksOfTemporal(Object t, ClickHouseType type) {
    int p = type.precision();
    long second = Temporals.epochSecond(t, type.zone());
    if ((second < DATETIME64_MIN_SECOND || second >= DATETIME64_END_SECOND)
        && !inLocalRange(second, type)) {
      throw outOfRange(type);
    }
    // second >= 0 or not, the nanos count forward, so integer division floors the tick.
    long fraction = Temporals.nanoOfSecond(t) / POW10[9 - p];
    if (p == 9 && second > (Long.MAX_VALUE - fraction) / POW10[9]) {
      throw outOfRange(type); // past 2262-04-11, the Int64 limit of DateTime64(9)
    }
    return second * POW10[p] + fraction;
  }

  /**
   * Whether {@code second} falls in 1900-01-01 00:00:00..2299-12-31 23:59:59 on the calendar of
   * the column's zone: the server's DateTime64 range is in the column's zone (it stores 1900-01-01
   * 00:00 in Asia/Kolkata, before 1900-01-01 UTC). Only reached for values outside the UTC range,
   * so the common path never looks up an offset.
   */
  private static boolean inLocalRange(long second, ClickHouseType type) {
    if (second < DATETIME64_MIN_SECOND - 86_400 || second >= DATETIME64_END_SECOND + 86_400) {
      return false;
    }
    java.time.ZoneOffset offset =
        type.zone().getRules().getOffset(java.time.Instant.ofEpochSecond(second));
    int year = java.time.LocalDateTime.ofEpochSecond(second, 0, offset).getYear();
    // P = 9 ends at the Int64 limit whatever the zone; the ticks were checked against it.
    return year >= 1900 && year <= 2299
        && (type.precision() < 9 || second < DATETIME64_END_SECOND);
  }

  private static long ticksOfDouble(double d, ClickHouseType type) {
    if (!Double.isFinite(d)) {
      throw new Rejected("is not finite; a DateTime64 holds no NaN or Infinity");
    }
    if (!(d >= DATETIME64_MIN_SECOND && d < DATETIME64_END_SECOND)) {
      throw outOfRange(type);
    }
    int p = type.precision();
    double scaled = d * POW10_DOUBLE[p];
    if (Math.abs(scaled) < FAST_DECIMAL_LIMIT) {
      long u = Math.round(scaled);
      if ((double) u / POW10_DOUBLE[p] == d) {
        return u;
      }
    }
    BigInteger ticks = BigDecimal.valueOf(d).movePointRight(p).setScale(0, RoundingMode.FLOOR)
        .toBigInteger();
    return longOrOutOfRange(ticks, type);
  }

  private static long ticksOfSeconds(BigDecimal seconds, ClickHouseType type) {
    // Compared first, so a huge exponent costs nothing.
    if (seconds.compareTo(DATETIME64_MIN_SECOND_BIG) < 0
        || seconds.compareTo(DATETIME64_END_SECOND_BIG) >= 0) {
      throw outOfRange(type);
    }
    int p = type.precision();
    if (seconds.scale() > p) {
      seconds = seconds.stripTrailingZeros();
      if (seconds.scale() > p) {
        throw new Rejected("has a fraction of a second finer than DateTime64(" + p
            + ") holds (10^-" + p + " s)");
      }
    }
    return longOrOutOfRange(seconds.movePointRight(p).toBigIntegerExact(), type);
  }

  /**
   * Returns the java.time value of a legacy date (kind OTHER), else the reason: a clear one for
   * other java.time types (LocalTime, YearMonth, ...), which adapters report as OTHER.
   */
  private static Object legacy(Object o, ValueKind kind, ClickHouseType type) {
    Object t = Temporals.fromLegacy(o);
    if (t != null) {
      return t;
    }
    if (o instanceof TemporalAccessor) {
      throw Temporals.unsupported(o);
    }
    throw notAccepted(kind, type);
  }
}
