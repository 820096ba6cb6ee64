package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.time.Duration;
import java.time.LocalTime;

/**
 * Conversions for the scalar types of ClickHouse 24-26 that both encoders share: {@code
 * BFloat16}, {@code Time} and {@code Time64(P)}. Like {@link Conversions}, every failure is a
 * {@code DATA} error naming the column, the value and the reason, and primitive and {@code
 * java.time} input allocates nothing.
 */
public final class ModernConversions {
  private ModernConversions() {}

  /** The largest Time magnitude, 999:59:59, in seconds. */
  public static final int TIME_MAX_SECONDS = 999 * 3600 + 59 * 60 + 59;

  private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L,
      10_000_000L, 100_000_000L, 1_000_000_000L};

  /**
   * Returns a BFloat16 value: its 16 bits, the upper half of the value's Float32 bits.
   *
   * <p>Rounding, as ClickHouse 26.7's {@code CAST(x AS BFloat16)}: the value is first rounded to
   * the nearest Float32 (a double is; a float is taken as it is), then its low 16 bits are
   * dropped, which rounds toward zero ({@code 0.1} becomes {@code 0.099609375}, {@code 3.4e38}
   * stays finite). Accepts what {@link Conversions#toFloat} accepts for DOUBLE, and for LONG,
   * BIG_INTEGER, BIG_DECIMAL and TEXT what {@link Conversions#toDouble} accepts, rounded to a
   * float. A finite value that would become infinite or (non-zero) zero is an error. A NaN stays
   * a NaN with its sign: one whose payload lies only in the dropped bits becomes the quiet NaN
   * (the server's truncation would turn it into an infinity). Allocates nothing.
   */
  public static <R> int toBFloat16(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    float f;
    ValueKind kind;
    try {
      kind = acc.kind(row, field);
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
    if (kind == ValueKind.DOUBLE) {
      f = Conversions.toFloat(acc, row, field, type, column);
    } else {
      double d = Conversions.toDouble(acc, row, field, type, column);
      f = (float) d;
      if (Float.isInfinite(f) && !Double.isInfinite(d)) {
        throw Conversions.error(acc, row, field, type, column, "is out of range for a BFloat16");
      }
      if (f == 0 && d != 0) {
        throw Conversions.error(acc, row, field, type, column,
            "is too small for a BFloat16 (it would become 0)");
      }
    }
    int bits = Float.floatToRawIntBits(f) >>> 16;
    if (f != f) {
      if ((bits & 0x7F) == 0) {
        bits |= 0x40; // the payload was in the dropped half: keep it a NaN
      }
    } else if ((bits & 0x7FFF) == 0 && f != 0) {
      throw Conversions.error(acc, row, field, type, column,
          "is too small for a BFloat16 (it would become 0)");
    }
    return bits;
  }

  /**
   * Returns a Time value in seconds, -999:59:59..999:59:59 (-3599999..3599999).
   *
   * <p>Accepts {@link LocalTime} (its second of the day; the fraction dropped), {@link Duration}
   * (negative too; floored to whole seconds), LONG as seconds, and TEXT {@code [-]H:MM:SS[.f]}
   * (1 to 3 hour digits, minutes and seconds below 60; the fraction floored). Out of range is an
   * error, never the server's saturation. Allocates nothing but for TEXT.
   */
  public static <R> int toTimeSeconds(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return (int) ticks(acc, row, field, type, column, 0);
  }

  /**
   * Returns a Time64(P) value in ticks of 10^-P s, within +-999:59:59.(P nines).
   *
   * <p>Accepts what {@link #toTimeSeconds} accepts, with the fraction kept to P digits (floored,
   * as DateTime64 does); LONG is ticks. Allocates nothing but for TEXT.
   *
   * @throws IllegalArgumentException if {@code type} is not Time64
   */
  public static <R> long toTime64Ticks(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    if (type.kind() != TypeKind.TIME64) {
      throw new IllegalArgumentException(type + " is not Time64");
    }
    return ticks(acc, row, field, type, column, type.precision());
  }

  private static <R> long ticks(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, int precision) {
    long perSecond = POW10[precision];
    long max = TIME_MAX_SECONDS * perSecond + perSecond - 1;
    long ticks;
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case LONG:
          ticks = acc.getLong(row, field);
          break;
        case TEXT:
          ticks = ofText(acc.getText(row, field), precision);
          break;
        case OTHER: {
          Object o = acc.getObject(row, field);
          if (o instanceof LocalTime t) {
            ticks = t.toSecondOfDay() * perSecond + t.getNano() / POW10[9 - precision];
          } else if (o instanceof Duration d) {
            long seconds = d.getSeconds(); // floored; the nanos are never negative
            if (seconds > TIME_MAX_SECONDS || seconds < -TIME_MAX_SECONDS - 1) {
              throw outOfRange(precision);
            }
            ticks = seconds * perSecond + d.getNano() / POW10[9 - precision];
          } else {
            throw notAccepted(kind, type);
          }
          break;
        }
        default:
          throw notAccepted(kind, type);
      }
      if (ticks > max || ticks < -max) {
        throw outOfRange(precision);
      }
      return ticks;
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  private static Rejected outOfRange(int precision) {
    String nines = precision == 0 ? "" : "." + "9".repeat(precision);
    return new Rejected("is out of range -999:59:59" + nines + "..999:59:59" + nines);
  }

  /** Parses {@code [-]H:MM:SS[.f]} into ticks of 10^-precision s, the fraction floored. */
  private static long ofText(CharSequence s, int precision) {
    int n = s.length();
    int i = 0;
    boolean negative = n > 0 && s.charAt(0) == '-';
    if (negative) {
      i++;
    }
    int hoursAt = i;
    long hours = 0;
    while (i < n && isDigit(s.charAt(i)) && i - hoursAt < 4) {
      hours = hours * 10 + (s.charAt(i++) - '0');
    }
    if (i == hoursAt || i - hoursAt > 3 || i + 6 > n || s.charAt(i) != ':'
        || s.charAt(i + 3) != ':' || !twoDigits(s, i + 1) || !twoDigits(s, i + 4)) {
      throw notATime();
    }
    long minutes = (s.charAt(i + 1) - '0') * 10 + (s.charAt(i + 2) - '0');
    long seconds = (s.charAt(i + 4) - '0') * 10 + (s.charAt(i + 5) - '0');
    if (minutes > 59 || seconds > 59) {
      throw notATime();
    }
    i += 6;
    long fraction = 0; // in ticks
    boolean finer = false; // digits beyond the precision that are not all zero
    if (i < n) {
      if (s.charAt(i) != '.' || i + 1 == n) {
        throw notATime();
      }
      for (int d = 0, j = i + 1; j < n; j++, d++) {
        char c = s.charAt(j);
        if (!isDigit(c) || d >= 9) {
          throw notATime();
        }
        if (d < precision) {
          fraction = fraction * 10 + (c - '0');
        } else if (c != '0') {
          finer = true;
        }
        if (j == n - 1) {
          for (int k = d + 1; k < precision; k++) {
            fraction *= 10;
          }
        }
      }
    }
    long magnitude = ((hours * 60 + minutes) * 60 + seconds) * POW10[precision] + fraction;
    // Floor: a negative value with dropped digits goes one tick further from zero.
    return negative ? -magnitude - (finer ? 1 : 0) : magnitude;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean twoDigits(CharSequence s, int at) {
    return isDigit(s.charAt(at)) && isDigit(s.charAt(at + 1));
  }

  private static Rejected notATime() {
    return new Rejected("is not a time ([-]H:MM:SS[.fraction], up to 999 hours)");
  }
}
