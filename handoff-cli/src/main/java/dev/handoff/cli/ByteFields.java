package dev.handoff.cli;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;

/**
 * Reads typed values straight from a line's bytes, on the parser threads, for the shapes almost
 * every input writes: a date ({@code 2024-03-15}), a date-time ({@code 2024-03-15 14:30:00},
 * {@code T} for the space, an optional {@code Z}), a UUID in its canonical form, an integer of up
 * to 20 digits, a decimal of up to 18 digits. Each method returns a marker ({@link #NONE} or
 * {@code null}) for any other text, so that the caller keeps the text and the conversions of
 * {@code clickhouse-types} give their usual verdict and message; where a method returns a value,
 * it is the value those conversions give for the same text (the tests compare them).
 *
 * <p>No method allocates, except the UUID, the {@code BigInteger} of an integer past {@code
 * long} and the {@code BigDecimal} they return.
 */
final class ByteFields {
  private ByteFields() {}

  /** What a method returns for text it does not read. */
  static final long NONE = Long.MIN_VALUE;

  private static final long SECONDS_PER_DAY = 86_400;
  /** 2^64 - 1 divided by 10, the largest value that can take one more digit (up to 5). */
  private static final long UNSIGNED_TENTH = 1_844_674_407_370_955_161L;

  /**
   * Returns the day since 1970-01-01 of a date {@code yyyy-MM-dd} in {@code b[from, to)}, or
   * {@link #NONE} (another shape, or a day the calendar does not have).
   */
  static long epochDay(byte[] b, int from, int to) {
    return to - from == 10 ? date(b, from) : NONE;
  }

  /**
   * Returns the epoch second of a date-time {@code yyyy-MM-dd HH:mm:ss} (or with {@code T}) in
   * {@code b[from, to)}, read at {@code offsetSeconds} east of UTC, or with a trailing {@code Z}
   * in UTC; {@link #NONE} for anything else (a fraction, another offset, a bad field).
   */
  static long epochSecond(byte[] b, int from, int to, int offsetSeconds) {
    int n = to - from;
    boolean utc = n == 20 && b[from + 19] == 'Z';
    if (n != 19 && !utc) {
      return NONE;
    }
    long day = date(b, from);
    byte sep = b[from + 10];
    if (day == NONE || (sep != ' ' && sep != 'T') || b[from + 13] != ':'
        || b[from + 16] != ':') {
      return NONE;
    }
    int hour = digits2(b, from + 11);
    int minute = digits2(b, from + 14);
    int second = digits2(b, from + 17);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return NONE;
    }
    return day * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second
        - (utc ? 0 : offsetSeconds);
  }

  /** The day of {@code yyyy-MM-dd} at {@code i}, or {@link #NONE}. */
  private static long date(byte[] b, int i) {
    int year = digits2(b, i) * 100 + digits2(b, i + 2);
    int month = digits2(b, i + 5);
    int day = digits2(b, i + 8);
    if (year < 0 || month < 1 || month > 12 || day < 1 || b[i + 4] != '-'
        || b[i + 7] != '-' || day > monthLength(year, month)) {
      return NONE;
    }
    return daysFromCivil(year, month, day);
  }

  /** The two ASCII digits at {@code i} as a number, or a negative number. */
  private static int digits2(byte[] b, int i) {
    int h = b[i] - '0';
    int l = b[i + 1] - '0';
    if (h < 0 || h > 9 || l < 0 || l > 9) {
      return -1_000_000;
    }
    return h * 10 + l;
  }

  private static int monthLength(int year, int month) {
    switch (month) {
      case 2:
        return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4:
      case 6:
      case 9:
      case 11:
        return 30;
      default:
        return 31;
    }
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (year 0 to 9999). */
  private static long daysFromCivil(int year, int month, int day) {
    int y = month <= 2 ? year - 1 : year;
    int era = Math.floorDiv(y, 400);
    int yearOfEra = y - era * 400;
    int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097L + dayOfEra - 719_468;
  }

  /**
   * Returns the UUID written as 8-4-4-4-12 hex digits (either case) in {@code b[from, to)}, or
   * {@code null}.
   */
  static UUID uuid(byte[] b, int from, int to) {
    if (to - from != 36 || b[from + 8] != '-' || b[from + 13] != '-' || b[from + 18] != '-'
        || b[from + 23] != '-') {
      return null;
    }
    long a = hex(b, from, from + 8);
    long c = hex(b, from + 9, from + 13);
    long d = hex(b, from + 14, from + 18);
    long e = hex(b, from + 19, from + 23);
    long f = hex(b, from + 24, from + 36);
    if ((a | c | d | e | f) < 0) {
      return null;
    }
    return new UUID(a << 32 | c << 16 | d, e << 48 | f);
  }

  /** The hex digits {@code b[from, to)} (at most 15) as a number, or -1. */
  private static long hex(byte[] b, int from, int to) {
    byte[] hex = JsonStrings.HEX;
    long v = 0;
    int bad = 0;
    for (int i = from; i < to; i++) {
      int h = hex[b[i] & 0xFF];
      bad |= h; // -1 marks a byte that is no hex digit
      v = v << 4 | (h & 0xF);
    }
    return bad < 0 ? -1 : v;
  }

  /**
   * Returns the integer {@code -?[0-9]{1,18}} in {@code b[from, to)} (leading zeros allowed), or
   * {@link #NONE}.
   */
  static long smallInteger(byte[] b, int from, int to) {
    boolean negative = from < to && b[from] == '-';
    int i = negative ? from + 1 : from;
    int n = to - i;
    if (n < 1 || n > 18) {
      return NONE;
    }
    long v = 0;
    for (; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return NONE;
      }
      v = v * 10 + d;
    }
    return negative ? -v : v;
  }

  /**
   * Returns the integer of 19 or 20 digits {@code -?[0-9]+} in {@code b[from, to)} (its syntax
   * checked by the caller) whose magnitude fits 64 unsigned bits, as a {@code BigInteger} made
   * without text, or {@code null} (a longer one, or one past 2^64 - 1).
   */
  static BigInteger bigInteger(byte[] b, int from, int to) {
    boolean negative = b[from] == '-';
    int i = negative ? from + 1 : from;
    if (to - i > 20) {
      return null;
    }
    long v = 0;
    for (; i < to; i++) {
      int d = b[i] - '0';
      if (Long.compareUnsigned(v, UNSIGNED_TENTH) > 0 || (v == UNSIGNED_TENTH && d > 5)) {
        return null;
      }
      v = v * 10 + d;
    }
    byte[] magnitude = new byte[8];
    for (int k = 7; k >= 0; k--) {
      magnitude[k] = (byte) v;
      v >>>= 8;
    }
    return new BigInteger(negative ? -1 : 1, magnitude);
  }

  /** Powers of ten that a double holds exactly. */
  static final double[] POW10 = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

  /**
   * Returns the double of {@code -?digits[.digits]} in {@code b[from, to)} when it has at most
   * 15 digits (no exponent), else {@code NaN}. Such a number is an integer below 2^53 divided by
   * an exact power of ten, and one IEEE division of two exact values is correctly rounded: the
   * double every correct parser gives (the fast path of Clinger's algorithm).
   */
  static double simpleDouble(byte[] b, int from, int to) {
    boolean negative = from < to && b[from] == '-';
    int i = negative ? from + 1 : from;
    long v = 0;
    int digits = 0;
    int scale = -1;
    for (; i < to; i++) {
      int c = b[i];
      if (c == '.' && scale < 0 && digits > 0) {
        scale = 0;
        continue;
      }
      int d = c - '0';
      if (d < 0 || d > 9 || ++digits > 15) {
        return Double.NaN;
      }
      v = v * 10 + d;
      if (scale >= 0) {
        scale++;
      }
    }
    if (digits == 0 || scale == 0) {
      return Double.NaN; // no digit, or nothing after the point
    }
    double q = scale < 0 ? v : v / POW10[scale];
    return negative ? -q : q;
  }

  /**
   * Returns the index after the exponent that starts at {@code b[i]} (an {@code e} or {@code E},
   * checked by the caller), an optional sign and at least one digit, all before {@code to}; -1
   * when it has no digit.
   */
  static int exponentEnd(byte[] b, int i, int to) {
    i++;
    if (i < to && (b[i] == '+' || b[i] == '-')) {
      i++;
    }
    int digits = i;
    while (i < to && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i == digits ? -1 : i;
  }

  /**
   * Returns the number {@code -?int.frac} in {@code b[from, to)} (JSON's syntax, checked by the
   * caller; no exponent) as the {@code BigDecimal} Jackson's tree holds for it, when it has at
   * most 18 digits: its digits and scale, trailing zeros stripped; else {@code null}.
   */
  static BigDecimal decimal(byte[] b, int from, int to) {
    boolean negative = b[from] == '-';
    int i = negative ? from + 1 : from;
    long unscaled = 0;
    int digits = 0;
    int scale = -1;
    for (; i < to; i++) {
      int c = b[i];
      if (c == '.') {
        if (scale >= 0) {
          return null;
        }
        scale = 0;
        continue;
      }
      int d = c - '0';
      if (d < 0 || d > 9 || ++digits > 18) {
        return null;
      }
      unscaled = unscaled * 10 + d;
      if (scale >= 0) {
        scale++;
      }
    }
    if (scale <= 0) {
      return null;
    }
    BigDecimal d = BigDecimal.valueOf(negative ? -unscaled : unscaled, scale);
    // The tree's node strips trailing zeros (Jackson's STRIP_TRAILING_BIGDECIMAL_ZEROES, on by
    // default; 0.0 becomes 0), and so does this.
    return b[to - 1] == '0' ? d.stripTrailingZeros() : d;
  }
}
