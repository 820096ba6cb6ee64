package dev.handoff.clickhouse.value;

import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * Converts one field, read through a {@link RowAccessor}, to the canonical value of a ClickHouse
 * type. Every encoder calls these, so RowBinary and Native accept and reject the same input.
 *
 * <p>Each method reads {@code acc.kind(row, field)} and the matching getter, converts, and
 * range-checks. On bad input it throws a {@link HandoffException} of class {@code DATA} whose
 * message names the column, its type, the value and the reason, for example {@code column "age"
 * (UInt8): value 300 (LONG) is out of range 0..255}. Nothing else escapes: an adapter that throws
 * or returns an object of the wrong class for the kind it reported also gets a {@code DATA} error
 * (with the adapter's exception as the cause). On the success path no method allocates for
 * primitive input (LONG, DOUBLE, BOOLEAN) into integers up to 64 bits, floats, Bool, Decimal with
 * P &lt;= 18, Date, Date32, DateTime and DateTime64 (see each method for the rare exceptions);
 * text input is parsed without allocating where the JDK allows.
 *
 * <p>The caller handles {@code NULL}: these methods reject it ("null into a non-Nullable
 * column"), so an encoder tests {@link RowAccessor#isNull} first for Nullable types.
 *
 * <p>Accepted input per type family (the full table is in {@code docs/formats.md}):
 * <ul>
 *   <li>integers: LONG, BIG_INTEGER, integral DOUBLE/BIG_DECIMAL, BOOLEAN (0/1), numeric TEXT;
 *       out of range is an error, never a truncation;
 *   <li>floats: any number (an integer must be exactly representable), TEXT incl. {@code nan},
 *       {@code inf}, {@code -inf};
 *   <li>Decimal: BIG_DECIMAL, LONG, BIG_INTEGER, finite DOUBLE, TEXT; more digits than the
 *       precision, or a fraction finer than the scale, is an error (never rounded);
 *   <li>Date/Date32: LocalDate, any TEMPORAL (its date in the type's zone), LONG days, ISO TEXT;
 *   <li>DateTime: Instant/OffsetDateTime/ZonedDateTime, LocalDateTime/LocalDate (in the type's
 *       zone, UTC when it has none), LONG epoch seconds, ISO TEXT; the fraction of a second is
 *       dropped (floor);
 *   <li>DateTime64(P): as DateTime, LONG as ticks of 10^-P s, DOUBLE/BIG_DECIMAL as seconds;
 *   <li>UUID: UUID, TEXT, 16 BYTES; IPv4/IPv6: INET, TEXT literal (never a DNS lookup), IPv4 as
 *       LONG, IPv6 as 16 BYTES;
 *   <li>Enum: TEXT name or LONG value, which must be declared.
 * </ul>
 *
 * <p>Two general rules: BIG_INTEGER is accepted wherever LONG is, with the same meaning; a
 * legacy {@link java.util.Date} (kind OTHER) is accepted by the date and time methods. Numeric TEXT
 * follows a strict grammar: {@code [+-]digits[.digits][e[+-]digits]} or {@code nan}/{@code
 * inf}/{@code infinity} (any case, floats only), at most 400 characters, no whitespace.
 *
 * <p>This class is the entry point only: each method hands over to the package-private class of
 * its type family ({@code IntegerConversions}, {@code FloatAndBoolConversions}, {@code
 * DecimalConversions}, {@code TemporalConversions}, {@code UuidAndIpConversions}, {@code
 * EnumConversions}, {@code TextConversions}), and every family builds its errors with {@code
 * ConversionErrors}. The hand-over is one static call, which the JIT inlines; {@link #toDouble},
 * {@link #toEpochDay}, {@link #toEpochSecond} and the ranged {@link #toLong(RowAccessor, Object,
 * int, ClickHouseType, String, long, long)} first read their hot case (a DOUBLE, a LocalDate, an
 * Instant, a LONG in range) themselves, so that both encoders get it inlined.
 */
public final class Conversions {
  private Conversions() {}

  /** The largest {@code Date}: day 65535 since 1970-01-01, that is 2149-06-06. */
  public static final int DATE_MAX = TemporalConversions.DATE_MAX;
  /** The largest {@code DateTime}: 2^32-1 seconds, that is 2106-02-07 06:28:15 UTC. */
  public static final long DATETIME_MAX = TemporalConversions.DATETIME_MAX;

  /* ------------------------------------------------------------------ Integers */

  /**
   * Returns an Int8..Int64, UInt8..UInt64 (or Enum-free integer) value as a {@code long}; for
   * UInt64 the unsigned bits.
   *
   * <p>Accepts LONG (a negative value never goes into a UInt), BIG_INTEGER (the only way, with
   * TEXT, to give a UInt64 above {@code Long.MAX_VALUE}), BOOLEAN as 0/1, DOUBLE and BIG_DECIMAL
   * when they are integers, and numeric TEXT ({@code "42"}, {@code "-7"}, {@code "1e3"}, {@code
   * "2.0"}) that is an integer. Allocates nothing for LONG, BOOLEAN, DOUBLE and integer TEXT of
   * at most 18 digits.
   *
   * @throws IllegalArgumentException if {@code type} is not one of those eight integer types
   */
  public static <R> long toLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return IntegerConversions.toLong(acc, row, field, type, column);
  }

  /**
   * Returns what {@link #toLong(RowAccessor, Object, int, ClickHouseType, String)} returns,
   * reading a LONG within {@code min..max} straight from the accessor. {@code min} and {@code
   * max} are the type's {@link #minLong} and {@link #maxLong}, computed once by the caller; every
   * other input, and every error, takes the full conversion. This is the hot case of both
   * encoders' integer columns, small enough for the JIT to inline at their call sites.
   *
   * @throws IllegalArgumentException if {@code type} is not one of the integer types of up to
   *     64 bits
   */
  public static <R> long toLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, long min, long max) {
    try {
      if (acc.kind(row, field) == ValueKind.LONG) {
        long v = acc.getLong(row, field);
        if (v >= min && v <= max) {
          return v;
        }
      }
    } catch (RuntimeException e) {
      // The adapter failed: the full conversion below reads it again and reports a DATA error.
    }
    return IntegerConversions.toLong(acc, row, field, type, column);
  }

  /**
   * Returns the smallest LONG an integer type of up to 64 bits accepts (0 for the UInts).
   *
   * @throws IllegalArgumentException if {@code type} is not such a type
   */
  public static long minLong(ClickHouseType type) {
    return IntegerConversions.minLong(type);
  }

  /**
   * Returns the largest LONG an integer type of up to 64 bits accepts ({@code Long.MAX_VALUE}
   * for Int64 and UInt64: larger UInt64 values come as BIG_INTEGER or TEXT).
   *
   * @throws IllegalArgumentException if {@code type} is not such a type
   */
  public static long maxLong(ClickHouseType type) {
    return IntegerConversions.maxLong(type);
  }

  /**
   * Returns an Int128/256 or UInt128/256 value, range-checked for the type's width and sign.
   *
   * <p>Accepts what {@link #toLong} accepts, with the range of the type; the smaller integer
   * types are accepted too (their own ranges apply).
   *
   * @throws IllegalArgumentException if {@code type} is not an integer type
   */
  public static <R> BigInteger toBigInteger(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    return IntegerConversions.toBigInteger(acc, row, field, type, column);
  }

  /* ------------------------------------------------------------------ Floats, Bool */

  /**
   * Returns a Float64 value.
   *
   * <p>Accepts DOUBLE as it is (NaN and infinities included, bits untouched); LONG and
   * BIG_INTEGER only when exactly representable (an error beyond 2^53 unless the value happens to
   * be a double, never a silent rounding); BIG_DECIMAL and decimal TEXT rounded to the nearest
   * double, as any decimal fraction is; integer TEXT like LONG; {@code nan}, {@code inf}, {@code
   * -inf}. A finite value that would become infinite or (non-zero) zero is an error. Allocates
   * nothing for DOUBLE and LONG.
   */
  public static <R> double toDouble(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    // The hot case, a DOUBLE, read here so that it inlines at the encoders' call sites.
    try {
      if (acc.kind(row, field) == ValueKind.DOUBLE) {
        return acc.getDouble(row, field);
      }
    } catch (RuntimeException e) {
      // The adapter failed: the full conversion reads it again and reports a DATA error.
    }
    return FloatAndBoolConversions.toDouble(acc, row, field, type, column);
  }

  /**
   * Returns a Float32 value (a finite double beyond the float range is an error).
   *
   * <p>Accepts what {@link #toDouble} accepts. A DOUBLE is rounded to the nearest float (a float
   * column cannot hold more); one that would become infinite or (non-zero) zero is an error. LONG
   * and BIG_INTEGER must be exactly representable as a float (|x| &lt;= 2^24 or exact). Allocates
   * nothing for DOUBLE and LONG.
   */
  public static <R> float toFloat(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return FloatAndBoolConversions.toFloat(acc, row, field, type, column);
  }

  /**
   * Returns a Bool value.
   *
   * <p>Accepts BOOLEAN; LONG 0 or 1; TEXT {@code true}/{@code false} (any letter case), {@code 1}
   * or {@code 0}. Allocates nothing.
   */
  public static <R> boolean toBool(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return FloatAndBoolConversions.toBool(acc, row, field, type, column);
  }

  /* ------------------------------------------------------------------ Decimal */

  /**
   * Returns the unscaled value of a Decimal whose width is 4 or 8 bytes (P &lt;= 18).
   *
   * <p>Accepts:
   * <ul>
   *   <li>LONG and BIG_INTEGER: {@code v * 10^S}, an error when that has more than P digits;
   *   <li>BIG_DECIMAL and numeric TEXT: exact ({@code setScale(S, UNNECESSARY)}); a fraction
   *       finer than the scale or more than P digits is an error;
   *   <li>DOUBLE, finite: the decimal with at most S fraction digits that rounds to it. Fast path:
   *       {@code u = Math.round(d * 10^S)} when {@code |d * 10^S| < 2^50} (where at most one such
   *       decimal exists) and {@code u / 10^S == d}; otherwise the exact path on {@code
   *       BigDecimal.valueOf(d)} (the double's shortest decimal form) decides, so {@code 0.1}
   *       gives 10 in Decimal(9, 2) while {@code 0.125} is an error there. NaN and infinities
   *       are an error.
   * </ul>
   * Allocates nothing for LONG, for DOUBLE on the fast path and for integer TEXT of at most 18
   * digits.
   *
   * @throws IllegalArgumentException if {@code type} is not a Decimal with P &lt;= 18
   */
  public static <R> long toDecimalLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return DecimalConversions.toDecimalLong(acc, row, field, type, column);
  }

  /**
   * Returns 10^{@code e} for {@code 0 <= e <= 18} (exact as a long, and as a double too).
   *
   * @throws ArrayIndexOutOfBoundsException if {@code e} is outside 0..18
   */
  public static long pow10(int e) {
    return DecimalConversions.POW10[e];
  }

  /** What {@link #decimalUnscaledFast} returns for a value it leaves to {@link #toDecimalLong}. */
  public static final long NOT_FAST = Long.MIN_VALUE;

  /**
   * Returns the unscaled Decimal(P, S) value of {@code v} (P &lt;= 18) for the inputs that need
   * no allocation, or {@link #NOT_FAST} for everything else (another class, null, a value out of
   * range, a fraction finer than S, every error): those are for {@link #toDecimalLong}, whose
   * result this one equals wherever it gives one. Handled: a Long or Integer, a Double on
   * {@code toDecimalLong}'s fast path, a BigDecimal of at most 15 digits and scale 0..S. The
   * constants are arguments so that an encoder's compiled row code can hold them as constants.
   *
   * @param scale S
   * @param pow10Scale 10^S as a double
   * @param pow10ScaleLong 10^S
   * @param integerLimit 10^(P-S): an integer's absolute value must be below it
   * @param unscaledLimit 10^P: the unscaled value's absolute value must be below it
   */
  public static long decimalUnscaledFast(Object v, int scale, double pow10Scale,
      long pow10ScaleLong, long integerLimit, long unscaledLimit) {
    return DecimalConversions.unscaledFast(v, scale, pow10Scale, pow10ScaleLong, integerLimit,
        unscaledLimit);
  }

  /**
   * Returns the unscaled value of a Decimal of any precision.
   *
   * <p>Accepts what {@link #toDecimalLong} accepts, with the same results; for P &lt;= 18 it is
   * {@code toDecimalLong} as a BigInteger.
   *
   * @throws IllegalArgumentException if {@code type} is not a Decimal
   */
  public static <R> BigInteger toDecimalBig(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    return DecimalConversions.toDecimalBig(acc, row, field, type, column);
  }

  /* ------------------------------------------------------------------ Dates and times */

  /**
   * Returns a Date (0..65535) or Date32 (1900-01-01..2299-12-31) as days since 1970-01-01.
   *
   * <p>Accepts LONG (days since 1970-01-01), {@link java.time.LocalDate}, {@link
   * java.time.LocalDateTime} (its date), {@link java.time.Instant}, {@link
   * java.time.OffsetDateTime} and {@link java.time.ZonedDateTime} (the instant's date in the
   * type's zone, which for Date is UTC), a legacy {@link java.util.Date} (kind OTHER; a {@code
   * java.sql.Date} as its local date) and ISO TEXT ({@code 2024-03-15}; a date-time text gives
   * its date by the same rules). Integer text is refused for dates (is {@code 20240315} a day
   * number or a compact date?). Allocates nothing for LONG and LocalDate.
   *
   * @throws IllegalArgumentException if {@code type} is not Date or Date32
   */
  public static <R> int toEpochDay(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    // The hot case, a LocalDate within Date's range, read here so that it inlines at the
    // encoders' call sites (a LocalDate's day number does not depend on a zone).
    try {
      if (type.kind() == TypeKind.DATE && acc.kind(row, field) == ValueKind.TEMPORAL) {
        Object o = acc.getObject(row, field);
        if (o != null && o.getClass() == LocalDate.class) {
          long d = ((LocalDate) o).toEpochDay();
          if (d >= 0 && d <= DATE_MAX) {
            return (int) d;
          }
        }
      }
    } catch (RuntimeException e) {
      // The adapter failed: the full conversion reads it again and reports a DATA error.
    }
    return TemporalConversions.toEpochDay(acc, row, field, type, column);
  }

  /**
   * Returns a DateTime as seconds since the epoch, 0..2^32-1.
   *
   * <p>Accepts LONG (epoch seconds), Instant, OffsetDateTime, ZonedDateTime, LocalDateTime and
   * LocalDate (the start of the day) in the type's zone (UTC when it has none), a legacy {@link
   * java.util.Date} (kind OTHER), integer TEXT (epoch seconds, {@code "1710513000"}) and ISO
   * TEXT. A fraction of a second is dropped (floor: 1969-12-31T23:59:59.5Z is -1, before the
   * range). Allocates nothing for LONG, and for Instant, OffsetDateTime, ZonedDateTime and (in a
   * type without a region zone) LocalDateTime.
   *
   * @throws IllegalArgumentException if {@code type} is not DateTime
   */
  public static <R> long toEpochSecond(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    // The hot case, an Instant within DateTime's range, read here so that it inlines at the
    // encoders' call sites (an instant's epoch second does not depend on the type's zone).
    try {
      if (acc.kind(row, field) == ValueKind.TEMPORAL) {
        Object o = acc.getObject(row, field);
        if (o != null && o.getClass() == Instant.class) {
          long s = ((Instant) o).getEpochSecond();
          if (s >= 0 && s <= DATETIME_MAX) {
            return s;
          }
        }
      }
    } catch (RuntimeException e) {
      // The adapter failed: the full conversion reads it again and reports a DATA error.
    }
    return TemporalConversions.toEpochSecond(acc, row, field, type, column);
  }

  /**
   * Returns a DateTime64(P) as ticks of 10^-P seconds since the epoch.
   *
   * <p>Accepts:
   * <ul>
   *   <li>LONG: ticks, as they are;
   *   <li>BIG_DECIMAL and numeric TEXT ({@code "1710513000.123"}): seconds, exactly; a fraction
   *       finer than 10^-P s is an error (ClickHouse's text format reads a number as seconds,
   *       hence text differs from LONG here);
   *   <li>DOUBLE: seconds. When a decimal with at most P fraction digits rounds to the double
   *       (checked without allocating while {@code |d * 10^P| < 2^50}, i.e. P &lt;= 5 for
   *       present-day instants), those ticks; otherwise the double's shortest decimal form
   *       ({@code BigDecimal.valueOf}) floored to a tick. Never rounded half-even;
   *   <li>temporals as for {@link #toEpochSecond}, plus the fraction: ticks are floored
   *       ({@code floorDiv} semantics), so 1969-12-31T23:59:59.999999Z is -1 in DateTime64(3).
   *       ISO TEXT likewise.
   * </ul>
   * The range is 1900-01-01 00:00:00 to 2299-12-31 23:59:59.999999999 in UTC or, for ticks
   * and date-time values, on the calendar of the column's zone (the server's range is in the
   * column's zone); for P = 9 it ends at the Int64 limit, 2262-04-11 23:47:16.854775807 UTC.
   * Allocates nothing for LONG and for Instant, OffsetDateTime and ZonedDateTime inside the UTC
   * range.
   *
   * @throws IllegalArgumentException if {@code type} is not DateTime64
   */
  public static <R> long toDateTime64Ticks(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    return TemporalConversions.toDateTime64Ticks(acc, row, field, type, column);
  }

  /* ------------------------------------------------------------------ UUID, IPs, Enums */

  /**
   * Returns a UUID.
   *
   * <p>Accepts UUID; TEXT in the canonical form {@code 8-4-4-4-12} hex digits (either case;
   * stricter than {@link UUID#fromString}, which takes {@code 1-1-1-1-1}); 16 BYTES as the most
   * significant byte first. Allocates nothing for UUID.
   */
  public static <R> UUID toUuid(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return UuidAndIpConversions.toUuid(acc, row, field, type, column);
  }

  /**
   * Returns an IPv4 address as the 32-bit number a&lt;&lt;24|b&lt;&lt;16|c&lt;&lt;8|d.
   *
   * <p>Accepts an {@link Inet4Address} (INET); TEXT as a dotted quad {@code a.b.c.d} (each part
   * 0..255 without leading zeros; a host name is an error, never looked up); LONG 0..2^32-1.
   * Allocates nothing for LONG and TEXT.
   */
  public static <R> int toIPv4(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return UuidAndIpConversions.toIPv4(acc, row, field, type, column);
  }

  /**
   * Writes an IPv6 address's 16 bytes, in network order, into {@code dest} (an IPv4 address
   * becomes {@code ::ffff:a.b.c.d}).
   *
   * <p>Accepts an {@link InetAddress} (INET); TEXT as an IPv6 literal (hex groups, one {@code ::}
   * at most, an embedded dotted quad at the end; no zone index, no brackets) or an IPv4 dotted
   * quad; 16 BYTES. A host name is an error, never looked up. Allocates nothing for TEXT and
   * BYTES. On error the contents of {@code dest[0..15]} are unspecified.
   *
   * @throws IllegalArgumentException if {@code dest} is shorter than 16 bytes
   */
  public static <R> void toIPv6(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, byte[] dest) {
    UuidAndIpConversions.toIPv6(acc, row, field, type, column, dest);
  }

  /**
   * Returns the value of an Enum8/Enum16 element, given by name or by value.
   *
   * <p>Accepts TEXT, an element's exact name (case-sensitive); LONG, a declared value; a Java
   * {@code enum} constant of kind OTHER, by its {@code name()}. Allocates nothing for LONG and
   * for TEXT that is a {@code String}.
   */
  public static <R> int toEnum(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return EnumConversions.toEnum(acc, row, field, type, column);
  }

  /* ------------------------------------------------------------------ Strings */

  /**
   * Returns the text of a String or FixedString value when it is TEXT, or the bytes when it is
   * BYTES (the caller checks {@link ValueKind}); numbers, booleans, UUIDs, temporals and IPs are
   * rendered as text (their {@code toString()}, ISO for temporals). Other kinds are an error.
   *
   * <p>In detail: TEXT is returned as it is (no copy); LONG, DOUBLE ({@code NaN}, {@code
   * Infinity} as Java writes them), BIG_INTEGER, BIG_DECIMAL ({@code toString()}, which may use an
   * exponent), UUID and TEMPORAL by {@code toString()}; BOOLEAN as {@code true}/{@code false};
   * INET as its literal address ({@link InetAddress#getHostAddress}, without the host name that
   * {@code toString()} adds). BYTES is an error here: the encoder writes bytes as they are without
   * calling this method. NULL, SEQUENCE, MAP and OTHER are errors. Allocates nothing for TEXT and
   * BOOLEAN.
   */
  public static <R> CharSequence toText(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    return TextConversions.toText(acc, row, field, type, column);
  }

  /* ------------------------------------------------------------------ Errors */

  /**
   * Returns the error for a value that cannot go into a column: {@code DATA} class, naming the
   * column, its type, the value (shortened to 64 characters) with its kind, and the reason.
   *
   * <p>The message reads {@code column "<column>" (<type>): value <value> (<KIND>) <reason>} when
   * the reason continues the sentence about the value (it starts with {@code "is "} or {@code
   * "has "}, e.g. {@code is out of range 0..255}), else {@code ... (<KIND>): <reason>} (e.g.
   * {@code ... (SEQUENCE): cannot convert SEQUENCE to Int32}). Text values are quoted, byte
   * arrays are shown as a hex prefix and their length. Building the message never throws, even
   * when the accessor does.
   */
  public static <R> HandoffException error(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, String reason) {
    return ConversionErrors.error(acc, row, field, type, column, reason);
  }

  /**
   * Returns the error for a value whose reading threw {@code cause}, or that an adapter returned
   * as an object of the wrong class: the {@link #error} of reason {@code could not be read:
   * <exception class>: <message>} (the message shortened), with {@code cause} as its cause so
   * its stack trace is kept. Encoders use it for any RuntimeException that escapes a column's
   * conversion, so that a record error always has this one shape.
   */
  public static <R> HandoffException unreadable(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, RuntimeException cause) {
    return ConversionErrors.unreadable(acc, row, field, type, column, cause);
  }
}
