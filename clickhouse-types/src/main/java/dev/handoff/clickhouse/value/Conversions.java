package dev.handoff.clickhouse.value;

import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.math.BigInteger;
import java.util.UUID;

/**
 * Converts one field, read through a {@link RowAccessor}, to the canonical value of a ClickHouse
 * type. Every encoder calls these, so RowBinary and Native accept and reject the same input.
 *
 * <p>Each method reads {@code acc.kind(row, field)} and the matching getter, converts, and
 * range-checks. On bad input it throws a {@link HandoffException} of class {@code DATA} whose
 * message names the column, its type, the value and the reason, for example {@code column "age"
 * (UInt8): value 300 (LONG) is out of range 0..255}. Nothing else escapes. On the success path
 * no method allocates for primitive input (LONG, DOUBLE, BOOLEAN); text input is parsed without
 * allocating where the JDK allows.
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
 */
public final class Conversions {
  private Conversions() {}

  /**
   * Returns an Int8..Int64, UInt8..UInt64 (or Enum-free integer) value as a {@code long}; for
   * UInt64 the unsigned bits.
   */
  public static <R> long toLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns an Int128/256 or UInt128/256 value, range-checked for the type's width and sign. */
  public static <R> BigInteger toBigInteger(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a Float64 value. */
  public static <R> double toDouble(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a Float32 value (a finite double beyond the float range is an error). */
  public static <R> float toFloat(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a Bool value. */
  public static <R> boolean toBool(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns the unscaled value of a Decimal whose width is 4 or 8 bytes (P &lt;= 18). */
  public static <R> long toDecimalLong(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns the unscaled value of a Decimal of any precision. */
  public static <R> BigInteger toDecimalBig(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a Date (0..65535) or Date32 (1900-01-01..2299-12-31) as days since 1970-01-01. */
  public static <R> int toEpochDay(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a DateTime as seconds since the epoch, 0..2^32-1. */
  public static <R> long toEpochSecond(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a DateTime64(P) as ticks of 10^-P seconds since the epoch. */
  public static <R> long toDateTime64Ticks(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns a UUID. */
  public static <R> UUID toUuid(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns an IPv4 address as the 32-bit number a&lt;&lt;24|b&lt;&lt;16|c&lt;&lt;8|d. */
  public static <R> int toIPv4(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Writes an IPv6 address's 16 bytes, in network order, into {@code dest} (an IPv4 address
   * becomes {@code ::ffff:a.b.c.d}).
   */
  public static <R> void toIPv6(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, byte[] dest) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Returns the value of an Enum8/Enum16 element, given by name or by value. */
  public static <R> int toEnum(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Returns the text of a String or FixedString value when it is TEXT, or the bytes when it is
   * BYTES (the caller checks {@link ValueKind}); numbers, booleans, UUIDs, temporals and IPs are
   * rendered as text (their {@code toString()}, ISO for temporals). Other kinds are an error.
   */
  public static <R> CharSequence toText(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Returns the error for a value that cannot go into a column: {@code DATA} class, naming the
   * column, its type, the value (shortened to 64 characters) with its kind, and the reason.
   */
  public static <R> HandoffException error(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, String reason) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
