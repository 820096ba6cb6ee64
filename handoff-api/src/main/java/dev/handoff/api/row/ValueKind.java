package dev.handoff.api.row;

/**
 * The Java shape of one value, as an accessor sees it. Encoders use it to pick a conversion
 * without {@code instanceof} chains; the column type then decides whether that conversion is
 * allowed.
 */
public enum ValueKind {
  /** No value: {@code null} or a JSON null. */
  NULL,
  /** A boolean: read with {@link RowAccessor#getBoolean}. */
  BOOLEAN,
  /** An integer that fits a {@code long}: read with {@link RowAccessor#getLong}. */
  LONG,
  /** A floating-point number: read with {@link RowAccessor#getDouble}. */
  DOUBLE,
  /** An integer beyond {@code long}: read with {@link RowAccessor#getBigInteger}. */
  BIG_INTEGER,
  /** A decimal number: read with {@link RowAccessor#getBigDecimal}. */
  BIG_DECIMAL,
  /** Text: read with {@link RowAccessor#getText}. */
  TEXT,
  /** Raw bytes: read with {@link RowAccessor#getBytes}. */
  BYTES,
  /** A {@link java.util.UUID}: read with {@link RowAccessor#getObject}. */
  UUID,
  /**
   * A date or time ({@link java.time.Instant}, {@link java.time.LocalDate}, {@link
   * java.time.LocalDateTime}, {@link java.time.OffsetDateTime}, {@link java.time.ZonedDateTime}):
   * read with {@link RowAccessor#getObject}.
   */
  TEMPORAL,
  /** An {@link java.net.InetAddress}: read with {@link RowAccessor#getObject}. */
  INET,
  /**
   * An ordered sequence (list, array, JSON array, tuple values): read its elements through
   * {@link RowAccessor#nested} as fields {@code 0..size-1}.
   */
  SEQUENCE,
  /**
   * A map: read through {@link RowAccessor#nested} as fields {@code 2i} (key {@code i}) and
   * {@code 2i+1} (value {@code i}).
   */
  MAP,
  /** Any other object: read with {@link RowAccessor#getObject}. */
  OTHER
}
