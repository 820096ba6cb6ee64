package dev.handoff.flink.table;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.TimestampData;

/**
 * How one Flink value (a field of a row, an element of an array, a key or value of a map) is
 * read for one ClickHouse column type: which Flink getter, which {@link ValueKind} the encoder
 * sees, and which getter of {@link RowAccessor} it then calls. {@link TypeMapping} picks it once
 * per column; the per-row work is a switch and the Flink getter.
 *
 * <p>Immutable, so every shard shares it.
 */
final class ValueRead {

  /** Where the value comes from and how it becomes the kind's Java shape. */
  enum Source {
    BOOLEAN(ValueKind.BOOLEAN),
    TINYINT(ValueKind.LONG),
    SMALLINT(ValueKind.LONG),
    INT(ValueKind.LONG),
    BIGINT(ValueKind.LONG),
    FLOAT(ValueKind.DOUBLE),
    DOUBLE(ValueKind.DOUBLE),
    DECIMAL(ValueKind.BIG_DECIMAL),
    /** STRING as its UTF-8 bytes: a String or FixedString column takes them as they are. */
    STRING_BYTES(ValueKind.BYTES),
    /** STRING as text: for columns that parse it (UUID, Enum, IP). */
    STRING_TEXT(ValueKind.TEXT),
    BINARY(ValueKind.BYTES),
    /** DATE as its int of days since the epoch, which Date and Date32 take as days. */
    DATE(ValueKind.LONG),
    /** A timestamp as {@code floor(epochMillis / divisor)}: DateTime seconds, DateTime64(P<=3). */
    TS_MILLIS_DOWN(ValueKind.LONG),
    /** A timestamp as {@code epochMillis * multiplier + nanoOfMilli / divisor}: P in 4..7. */
    TS_TICKS_UP(ValueKind.LONG),
    /** TIMESTAMP as a LocalDateTime, which the encoder puts in the column's zone. */
    TS_LOCAL(ValueKind.TEMPORAL),
    /** A timestamp as an Instant, when ticks could overflow a long. */
    TS_INSTANT(ValueKind.TEMPORAL),
    ARRAY(ValueKind.SEQUENCE),
    MAP(ValueKind.MAP),
    ROW(ValueKind.SEQUENCE);

    final ValueKind kind;

    Source(ValueKind kind) {
      this.kind = kind;
    }
  }

  final Source source;
  final ValueKind kind;
  /** DECIMAL and timestamp precision, as Flink stores the value. */
  private final int precision;
  private final int scale;
  private final long multiplier;
  private final long divisor;
  /** ROW: the number of fields. */
  private final int arity;
  /** ARRAY, MAP, ROW: the accessor of the container's elements. */
  private final RowAccessor<Object> nested;

  private ValueRead(Source source, int precision, int scale, long multiplier, long divisor,
      int arity, RowAccessor<Object> nested) {
    this.source = source;
    this.kind = source.kind;
    this.precision = precision;
    this.scale = scale;
    this.multiplier = multiplier;
    this.divisor = divisor;
    this.arity = arity;
    this.nested = nested;
  }

  static ValueRead of(Source source) {
    return new ValueRead(source, 0, 0, 1, 1, 0, null);
  }

  static ValueRead decimal(int precision, int scale) {
    return new ValueRead(Source.DECIMAL, precision, scale, 1, 1, 0, null);
  }

  /** A timestamp of Flink precision {@code precision} read as {@code source}. */
  static ValueRead timestamp(Source source, int precision, long multiplier, long divisor) {
    return new ValueRead(source, precision, 0, multiplier, divisor, 0, null);
  }

  static ValueRead container(Source source, int arity, RowAccessor<Object> nested) {
    return new ValueRead(source, 0, 0, 1, 1, arity, nested);
  }

  <C> ValueKind kind(Slots<C> s, C c, int pos) {
    return s.isNullAt(c, pos) ? ValueKind.NULL : kind;
  }

  <C> boolean getBoolean(Slots<C> s, C c, int pos) {
    if (source != Source.BOOLEAN) {
      throw wrongGetter("getBoolean");
    }
    return s.getBoolean(c, pos);
  }

  <C> long getLong(Slots<C> s, C c, int pos) {
    switch (source) {
      case TINYINT:
        return s.getByte(c, pos);
      case SMALLINT:
        return s.getShort(c, pos);
      case INT:
      case DATE:
        return s.getInt(c, pos);
      case BIGINT:
        return s.getLong(c, pos);
      case TS_MILLIS_DOWN:
        return Math.floorDiv(s.getTimestamp(c, pos, precision).getMillisecond(), divisor);
      case TS_TICKS_UP: {
        // Exact and floored: millis are floored, nanoOfMilli is in 0..999,999.
        TimestampData t = s.getTimestamp(c, pos, precision);
        return t.getMillisecond() * multiplier + t.getNanoOfMillisecond() / divisor;
      }
      default:
        throw wrongGetter("getLong");
    }
  }

  <C> double getDouble(Slots<C> s, C c, int pos) {
    switch (source) {
      case FLOAT:
        return s.getFloat(c, pos); // widening is exact
      case DOUBLE:
        return s.getDouble(c, pos);
      default:
        throw wrongGetter("getDouble");
    }
  }

  <C> BigDecimal getBigDecimal(Slots<C> s, C c, int pos) {
    if (source != Source.DECIMAL) {
      throw wrongGetter("getBigDecimal");
    }
    return s.getDecimal(c, pos, precision, scale).toBigDecimal();
  }

  <C> CharSequence getText(Slots<C> s, C c, int pos) {
    if (source != Source.STRING_TEXT) {
      throw wrongGetter("getText");
    }
    return s.getString(c, pos).toString();
  }

  <C> byte[] getBytes(Slots<C> s, C c, int pos) {
    switch (source) {
      case STRING_BYTES:
        return s.getString(c, pos).toBytes();
      case BINARY:
        return s.getBinary(c, pos);
      default:
        throw wrongGetter("getBytes");
    }
  }

  /**
   * Returns the value as a Java object: boxed primitives, the kinds' objects, the container for
   * SEQUENCE and MAP. Encoders call it for TEMPORAL and containers, error messages for any kind.
   */
  <C> Object getObject(Slots<C> s, C c, int pos) {
    if (s.isNullAt(c, pos)) {
      return null;
    }
    switch (source) {
      case BOOLEAN:
        return s.getBoolean(c, pos);
      case FLOAT:
      case DOUBLE:
        return getDouble(s, c, pos);
      case DECIMAL:
        return getBigDecimal(s, c, pos);
      case STRING_BYTES:
      case BINARY:
        return getBytes(s, c, pos);
      case STRING_TEXT:
        return getText(s, c, pos);
      case TS_LOCAL:
        return s.getTimestamp(c, pos, precision).toLocalDateTime();
      case TS_INSTANT:
        return s.getTimestamp(c, pos, precision).toInstant();
      case ARRAY:
        return s.getArray(c, pos);
      case MAP: {
        MapData m = s.getMap(c, pos);
        return new MapEntries(m.keyArray(), m.valueArray());
      }
      case ROW:
        return s.getRow(c, pos, arity);
      default:
        return getLong(s, c, pos);
    }
  }

  RowAccessor<Object> nested() {
    if (nested == null) {
      throw new UnsupportedOperationException("a " + source + " value has no nested values");
    }
    return nested;
  }

  private IllegalStateException wrongGetter(String getter) {
    return new IllegalStateException(getter + " called on a " + kind + " value read from "
        + source);
  }

  /**
   * A map read as its key and value arrays: the one object a MAP value allocates per read, since
   * {@link MapData#keyArray()} of a generic map builds a new array at every call.
   */
  record MapEntries(ArrayData keys, ArrayData values) {
    @Override
    public String toString() {
      return "a map of " + keys.size() + " entries";
    }
  }
}
