package dev.handoff.clickhouse.value;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.Locale;

/**
 * Reads dates and times: {@code java.time} values, legacy {@link java.util.Date}s and ISO 8601
 * text, as days, seconds and nanoseconds since the epoch.
 *
 * <p>A value without a zone ({@link LocalDate}, {@link LocalDateTime}) is read in the column's
 * zone. In a zone with daylight saving time, a local time in a gap moves forward by the gap's
 * length and one in an overlap takes the earlier offset ({@link LocalDateTime#atZone}). A value
 * with an offset or a zone is an instant; its date is the date in the column's zone.
 */
final class Temporals {
  private Temporals() {}

  static final long SECONDS_PER_DAY = 86_400;

  /**
   * ISO 8601 as people write it: a date, optionally {@code T} and a time ({@code HH:mm},
   * {@code HH:mm:ss}, with a fraction of up to 9 digits), optionally an offset ({@code Z}, {@code
   * +hh:mm}) and a zone in brackets. {@link #parse} lets a space stand for the {@code T}. Strict:
   * February 30 and hour 24 fail.
   */
  private static final DateTimeFormatter ISO = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart()
      .appendLiteral('T')
      .append(DateTimeFormatter.ISO_LOCAL_TIME)
      .optionalStart()
      .appendOffsetId()
      .optionalEnd()
      .optionalStart()
      .appendLiteral('[')
      .parseCaseSensitive()
      .appendZoneRegionId()
      .appendLiteral(']')
      .optionalEnd()
      .optionalEnd()
      .toFormatter(Locale.ROOT)
      .withResolverStyle(ResolverStyle.STRICT)
      .withChronology(IsoChronology.INSTANCE);

  /** Longer than any ISO date-time with a zone name. */
  private static final int MAX_TEXT_LENGTH = 100;

  /** What a bad date text gets told. */
  static final String EXPECTED_TEXT =
      "expected ISO 8601 like 2024-03-15, 2024-03-15 14:30:00 or 2024-03-15T14:30:00.123Z";

  /** 10^(9-k) for a fraction of k digits, k = 0..9. */
  private static final int[] FRACTION_SCALE = {
      1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

  /**
   * Parses ISO text into a {@link LocalDate}, {@link LocalDateTime}, {@link OffsetDateTime} or
   * {@link ZonedDateTime}.
   *
   * @throws Rejected if it is not such a text
   */
  static Object parse(CharSequence text) {
    Object common = parseCommon(text);
    return common != null ? common : parseIso(text);
  }

  /**
   * Parses the shapes almost every input has, by hand: {@code yyyy-MM-dd}, then optionally
   * {@code T} or a space, {@code HH:mm}, {@code :ss}, a fraction of 1 to 9 digits, and {@code Z}
   * or {@code +hh:mm}/{@code -hh:mm}. Returns null for any other text and for any value it
   * cannot build, so that {@link #parseIso} gives every verdict and every other shape; where
   * this returns a value it is the value {@code parseIso} returns (a test compares them). The
   * formatter's optional sections copy its parse state at each one (a map per copy), which made
   * it most of the {@code ingest} command's time on date-time columns.
   */
  static Object parseCommon(CharSequence s) {
    int n = s.length();
    if (n < 10 || n > 35) {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    if (year < 0 || month < 0 || day < 0 || s.charAt(4) != '-' || s.charAt(7) != '-') {
      return null;
    }
    try {
      if (n == 10) {
        return LocalDate.of(year, month, day);
      }
      char sep = s.charAt(10);
      if (n < 16 || (sep != 'T' && sep != ' ') || s.charAt(13) != ':') {
        return null;
      }
      int hour = digits(s, 11, 2);
      int minute = digits(s, 14, 2);
      if (hour < 0 || minute < 0) {
        return null;
      }
      int i = 16;
      int second = 0;
      int nano = 0;
      if (i < n && s.charAt(i) == ':') {
        second = i + 3 <= n ? digits(s, i + 1, 2) : -1;
        if (second < 0) {
          return null;
        }
        i += 3;
        if (i < n && s.charAt(i) == '.') {
          int start = ++i;
          int fraction = 0;
          while (i < n && i - start < 9 && isDigit(s.charAt(i))) {
            fraction = fraction * 10 + (s.charAt(i++) - '0');
          }
          if (i == start || (i < n && isDigit(s.charAt(i)))) {
            return null;
          }
          nano = fraction * FRACTION_SCALE[i - start];
        }
      }
      LocalDateTime local = LocalDateTime.of(year, month, day, hour, minute, second, nano);
      if (i == n) {
        return local;
      }
      char c = s.charAt(i);
      if (c == 'Z' && i + 1 == n) {
        return OffsetDateTime.of(local, ZoneOffset.UTC);
      }
      if ((c == '+' || c == '-') && i + 6 == n && s.charAt(i + 3) == ':') {
        int oh = digits(s, i + 1, 2);
        int om = digits(s, i + 4, 2);
        if (oh < 0 || om < 0 || (c == '-' && oh == 0 && om == 0)) {
          return null; // "-00:00" is left to the formatter
        }
        int sign = c == '-' ? -1 : 1;
        return OffsetDateTime.of(local, ZoneOffset.ofHoursMinutes(sign * oh, sign * om));
      }
      return null;
    } catch (DateTimeException e) {
      return null; // February 30, hour 24, offset +19:00, ...: the formatter's verdict
    }
  }

  /** Returns the number written by {@code count} ASCII digits at {@code at}, or -1. */
  private static int digits(CharSequence s, int at, int count) {
    int v = 0;
    for (int i = at; i < at + count; i++) {
      char c = s.charAt(i);
      if (!isDigit(c)) {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Parses ISO text with the formatter {@link #ISO}: every shape {@link #parse} accepts, and the
   * verdict on every text.
   *
   * @throws Rejected if it is not such a text
   */
  static Object parseIso(CharSequence text) {
    if (text.length() > MAX_TEXT_LENGTH) {
      // Refused unread: the parser's exception would copy all of it into its message.
      throw new Rejected("is not a valid date or date-time (" + EXPECTED_TEXT + ")");
    }
    String s = text.toString();
    if (s.length() > 10 && s.charAt(10) == ' ') {
      // ClickHouse and SQL write a space where ISO has 'T'.
      s = s.substring(0, 10) + 'T' + s.substring(11);
    }
    try {
      // What parseBest(OffsetDateTime, ZonedDateTime, LocalDateTime, LocalDate) returns, chosen
      // by the fields the text has: parseBest tries each in turn and pays for a thrown exception
      // per miss (three for a plain date), whose cost grows with the caller's stack depth.
      TemporalAccessor t = ISO.parse(s);
      if (t.query(TemporalQueries.offset()) != null) {
        return OffsetDateTime.from(t);
      }
      if (t.query(TemporalQueries.zoneId()) != null) {
        return ZonedDateTime.from(t);
      }
      if (t.query(TemporalQueries.localTime()) != null) {
        return LocalDateTime.from(t);
      }
      return LocalDate.from(t);
    } catch (DateTimeException e) {
      throw new Rejected("is not a valid date or date-time (" + EXPECTED_TEXT + ")");
    }
  }

  /**
   * Returns a {@code java.time} value for a legacy {@link java.util.Date} (kind OTHER), or {@code
   * null} when {@code o} is none. A {@code java.sql.Date} is a local date; a {@code
   * java.sql.Timestamp} or plain {@code Date} is an instant (the timestamp with its nanoseconds).
   *
   * @throws Rejected for a {@code java.sql.Time}, which has no date
   */
  static Object fromLegacy(Object o) {
    if (!(o instanceof java.util.Date)) {
      return null;
    }
    // java.sql is not a dependency of this module, so the class is matched by name.
    if (o.getClass().getName().equals("java.sql.Date")) {
      return LocalDate.parse(o.toString()); // its toString() is its local date, yyyy-mm-dd
    }
    try {
      return ((java.util.Date) o).toInstant();
    } catch (UnsupportedOperationException e) {
      throw new Rejected("is a " + o.getClass().getName() + ", which has no date");
    }
  }

  /** Returns the epoch day of {@code t} (see the class comment for the zone rules). */
  static long epochDay(Object t, ZoneId zone) {
    if (t instanceof LocalDate d) {
      return d.toEpochDay();
    }
    if (t instanceof LocalDateTime ldt) {
      return ldt.toLocalDate().toEpochDay();
    }
    if (t instanceof Instant i) {
      return Math.floorDiv(i.getEpochSecond() + offsetSeconds(zone, i), SECONDS_PER_DAY);
    }
    if (t instanceof OffsetDateTime || t instanceof ZonedDateTime) {
      Instant i = t instanceof OffsetDateTime o ? o.toInstant() : ((ZonedDateTime) t).toInstant();
      return Math.floorDiv(i.getEpochSecond() + offsetSeconds(zone, i), SECONDS_PER_DAY);
    }
    throw unsupported(t);
  }

  /** Returns the epoch second of {@code t}, dropping any fraction (floor, as time runs forward). */
  static long epochSecond(Object t, ZoneId zone) {
    if (t instanceof Instant i) {
      return i.getEpochSecond();
    }
    if (t instanceof OffsetDateTime o) {
      return o.toEpochSecond();
    }
    if (t instanceof ZonedDateTime z) {
      return z.toEpochSecond();
    }
    if (t instanceof LocalDateTime ldt) {
      return zone instanceof ZoneOffset o ? ldt.toEpochSecond(o) : ldt.atZone(zone).toEpochSecond();
    }
    if (t instanceof LocalDate d) {
      return zone instanceof ZoneOffset o
          ? d.toEpochDay() * SECONDS_PER_DAY - o.getTotalSeconds()
          : d.atStartOfDay(zone).toEpochSecond();
    }
    throw unsupported(t);
  }

  /** Returns the nanosecond of the second of {@code t}, {@code 0..999_999_999}. */
  static int nanoOfSecond(Object t) {
    if (t instanceof Instant i) {
      return i.getNano();
    }
    if (t instanceof OffsetDateTime o) {
      return o.getNano();
    }
    if (t instanceof ZonedDateTime z) {
      return z.getNano();
    }
    if (t instanceof LocalDateTime ldt) {
      return ldt.getNano();
    }
    if (t instanceof LocalDate) {
      return 0;
    }
    throw unsupported(t);
  }

  private static int offsetSeconds(ZoneId zone, Instant at) {
    return zone instanceof ZoneOffset o
        ? o.getTotalSeconds()
        : zone.getRules().getOffset(at).getTotalSeconds();
  }

  static Rejected unsupported(Object t) {
    String name = t == null ? "null" : t.getClass().getSimpleName();
    return new Rejected("is a " + name + ", not a date or date-time (accepted: Instant, LocalDate,"
        + " LocalDateTime, OffsetDateTime, ZonedDateTime, java.util.Date)");
  }
}
