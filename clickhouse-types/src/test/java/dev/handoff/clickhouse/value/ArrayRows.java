package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * A minimal accessor over {@code Object[]} rows for the conversion tests, so they do not depend on
 * the real adapters of {@code dev.handoff.clickhouse.row}. Kinds by class, as the adapters'
 * documented table has them; typed getters are the interface defaults (casts of {@link
 * #getObject}).
 */
final class ArrayRows implements RowAccessor<Object[]> {

  static final ArrayRows ACC = new ArrayRows();

  @Override
  public ValueKind kind(Object[] row, int field) {
    return kindOf(row[field]);
  }

  @Override
  public Object getObject(Object[] row, int field) {
    return row[field];
  }

  static ValueKind kindOf(Object o) {
    if (o == null) {
      return ValueKind.NULL;
    }
    if (o instanceof Boolean) {
      return ValueKind.BOOLEAN;
    }
    if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
      return ValueKind.LONG;
    }
    if (o instanceof Double || o instanceof Float) {
      return ValueKind.DOUBLE;
    }
    if (o instanceof BigInteger) {
      return ValueKind.BIG_INTEGER;
    }
    if (o instanceof BigDecimal) {
      return ValueKind.BIG_DECIMAL;
    }
    if (o instanceof CharSequence) {
      return ValueKind.TEXT;
    }
    if (o instanceof byte[]) {
      return ValueKind.BYTES;
    }
    if (o instanceof UUID) {
      return ValueKind.UUID;
    }
    if (o instanceof Instant || o instanceof LocalDate || o instanceof LocalDateTime
        || o instanceof OffsetDateTime || o instanceof ZonedDateTime) {
      return ValueKind.TEMPORAL;
    }
    if (o instanceof InetAddress) {
      return ValueKind.INET;
    }
    if (o instanceof Collection || o instanceof Object[]) {
      return ValueKind.SEQUENCE;
    }
    if (o instanceof Map) {
      return ValueKind.MAP;
    }
    return ValueKind.OTHER;
  }

  /**
   * An accessor that reports a fixed kind whatever the value is, like a buggy adapter: its typed
   * getters then fail with the cast's ClassCastException, or return an object of the wrong class.
   */
  static RowAccessor<Object[]> lying(ValueKind kind) {
    return new RowAccessor<>() {
      @Override
      public ValueKind kind(Object[] row, int field) {
        return kind;
      }

      @Override
      public Object getObject(Object[] row, int field) {
        return row[field];
      }
    };
  }

  /** An accessor whose every method throws {@code failure}. */
  static RowAccessor<Object[]> throwing(RuntimeException failure) {
    return new RowAccessor<>() {
      @Override
      public ValueKind kind(Object[] row, int field) {
        throw failure;
      }

      @Override
      public Object getObject(Object[] row, int field) {
        throw failure;
      }
    };
  }

  /** An accessor that reports {@code kind} correctly but throws from every getter. */
  static RowAccessor<Object[]> failingGetters(RuntimeException failure) {
    return new RowAccessor<>() {
      @Override
      public ValueKind kind(Object[] row, int field) {
        return kindOf(row[field]);
      }

      @Override
      public Object getObject(Object[] row, int field) {
        throw failure;
      }
    };
  }
}
