package dev.handoff.flink.table;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.flink.table.ValueRead.Source;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Decides, once per column, whether a Flink logical type can be written to a ClickHouse column
 * type and how its values are read ({@link ValueRead}). {@code Nullable} and {@code
 * LowCardinality} are looked through: they change how the encoder writes a value, not which
 * values it takes. Nullability is not checked here: a NULL into a non-Nullable column is a bad
 * row, which the sink's {@code on-bad-row} policy handles.
 *
 * <p>Only pairs whose every value converts exactly or fails with a per-row error are allowed; a
 * pair that would need parsing or formatting (INT into String, STRING into UInt32) is refused,
 * since it would hide a mistake in the table definitions.
 */
final class TypeMapping {
  private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L,
      10_000_000L, 100_000_000L, 1_000_000_000L};

  private TypeMapping() {}

  /**
   * Returns how to read a Flink value of type {@code flink} for a column {@code column} of
   * ClickHouse type {@code clickHouse} (as the server prints it).
   *
   * @throws IllegalArgumentException if the types cannot map; the message names the column and
   *     both types, and the nested pair that fails inside an ARRAY, MAP or ROW
   */
  static ValueRead read(String column, LogicalType flink, String clickHouse) {
    ClickHouseType type;
    try {
      type = ClickHouseType.parse(clickHouse);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(cannot(column, flink, clickHouse) + ": "
          + e.getMessage(), e);
    }
    try {
      return read(flink, type, column);
    } catch (Mismatch m) {
      String message = cannot(column, flink, clickHouse);
      if (!m.path.equals(column)) {
        message += " (at " + m.path + ": Flink type " + m.flink.asSummaryString()
            + " cannot be written to ClickHouse " + m.clickHouse + ")";
      }
      throw new IllegalArgumentException(message);
    }
  }

  /** The message of a pair that does not map. */
  static String cannot(String column, LogicalType flink, String clickHouse) {
    return "column \"" + column + "\": Flink type " + flink.asSummaryString()
        + " cannot be written to ClickHouse " + clickHouse;
  }

  private static ValueRead read(LogicalType flink, ClickHouseType type, String path) {
    ClickHouseType t = type;
    while (t.kind() == TypeKind.NULLABLE || t.kind() == TypeKind.LOW_CARDINALITY) {
      t = t.element();
    }
    TypeKind k = t.kind();
    switch (flink.getTypeRoot()) {
      case BOOLEAN:
        if (integer(k) || k == TypeKind.BOOL) {
          return ValueRead.of(Source.BOOLEAN);
        }
        break;
      case TINYINT:
        return exactNumber(k, Source.TINYINT, flink, type, path);
      case SMALLINT:
        return exactNumber(k, Source.SMALLINT, flink, type, path);
      case INTEGER:
        return exactNumber(k, Source.INT, flink, type, path);
      case BIGINT:
        return exactNumber(k, Source.BIGINT, flink, type, path);
      case FLOAT:
      case DOUBLE:
        if (k == TypeKind.FLOAT32 || k == TypeKind.FLOAT64) {
          return ValueRead.of(
              flink.getTypeRoot() == LogicalTypeRoot.FLOAT ? Source.FLOAT : Source.DOUBLE);
        }
        break;
      case DECIMAL:
        if (k == TypeKind.DECIMAL) {
          DecimalType d = (DecimalType) flink;
          return ValueRead.decimal(d.getPrecision(), d.getScale());
        }
        break;
      case CHAR:
      case VARCHAR:
        if (k == TypeKind.STRING || k == TypeKind.FIXED_STRING) {
          return ValueRead.of(Source.STRING_BYTES);
        }
        if (k == TypeKind.UUID || k == TypeKind.ENUM8 || k == TypeKind.ENUM16
            || k == TypeKind.IPV4 || k == TypeKind.IPV6) {
          return ValueRead.of(Source.STRING_TEXT);
        }
        break;
      case BINARY:
      case VARBINARY:
        if (k == TypeKind.STRING || k == TypeKind.FIXED_STRING || k == TypeKind.UUID) {
          return ValueRead.of(Source.BINARY);
        }
        break;
      case DATE:
        if (k == TypeKind.DATE || k == TypeKind.DATE32) {
          return ValueRead.of(Source.DATE);
        }
        break;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        if (k == TypeKind.DATETIME || k == TypeKind.DATETIME64) {
          int p = ((TimestampType) flink).getPrecision();
          // A wall-clock time is in the column's zone; in a UTC column that is the epoch value.
          boolean utc = t.zone().normalized().equals(ZoneOffset.UTC);
          return utc ? epoch(t, p, Source.TS_LOCAL) : ValueRead.timestamp(Source.TS_LOCAL, p, 1, 1);
        }
        break;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        if (k == TypeKind.DATETIME || k == TypeKind.DATETIME64) {
          return epoch(t, ((LocalZonedTimestampType) flink).getPrecision(), Source.TS_INSTANT);
        }
        break;
      case ARRAY:
        if (k == TypeKind.ARRAY) {
          ValueRead element = read(((ArrayType) flink).getElementType(), t.element(),
              path + "[]");
          return ValueRead.container(Source.ARRAY, 0, new ArrayDataAccessor(element));
        }
        break;
      case MAP:
        if (k == TypeKind.MAP) {
          MapType m = (MapType) flink;
          ValueRead key = read(m.getKeyType(), t.elements().get(0), path + ".key");
          ValueRead value = read(m.getValueType(), t.elements().get(1), path + ".value");
          return ValueRead.container(Source.MAP, 0, new MapDataAccessor(key, value));
        }
        break;
      case ROW:
        if (k == TypeKind.TUPLE && t.elements().size() == ((RowType) flink).getFieldCount()) {
          return tuple((RowType) flink, t, path);
        }
        break;
      default:
        break;
    }
    throw new Mismatch(flink, type, path);
  }

  /** Integers go into any integer, float, Decimal or Bool column: the encoder checks range. */
  private static ValueRead exactNumber(TypeKind k, Source source, LogicalType flink,
      ClickHouseType type, String path) {
    if (integer(k) || k == TypeKind.FLOAT32 || k == TypeKind.FLOAT64 || k == TypeKind.DECIMAL
        || k == TypeKind.BOOL) {
      return ValueRead.of(source);
    }
    throw new Mismatch(flink, type, path);
  }

  /**
   * An epoch-based read of a timestamp of Flink precision {@code p} for DateTime or DateTime64:
   * the exact integer of the column's unit where it fits a long for every Flink timestamp
   * (years 0..9999), else {@code wide}, an object the encoder converts exactly.
   */
  private static ValueRead epoch(ClickHouseType t, int p, Source wide) {
    if (t.kind() == TypeKind.DATETIME) {
      return ValueRead.timestamp(Source.TS_MILLIS_DOWN, p, 1, 1_000L); // seconds, floored
    }
    int scale = t.precision();
    if (scale <= 3) {
      return ValueRead.timestamp(Source.TS_MILLIS_DOWN, p, 1, POW10[3 - scale]);
    }
    if (scale <= 7) { // 10^4 * millis of year 9999 is below 2^63; 10^5 * millis is not
      return ValueRead.timestamp(Source.TS_TICKS_UP, p, POW10[scale - 3], POW10[9 - scale]);
    }
    return ValueRead.timestamp(wide, p, 1, 1);
  }

  @SuppressWarnings("unchecked")
  private static ValueRead tuple(RowType flink, ClickHouseType t, String path) {
    List<ClickHouseType> elements = t.elements();
    int n = elements.size();
    int[] positions = new int[n];
    ValueRead[] reads = new ValueRead[n];
    for (int i = 0; i < n; i++) {
      positions[i] = i;
      reads[i] = read(flink.getTypeAt(i), elements.get(i), path + "." + (i + 1));
    }
    RowAccessor<?> fields = new RowDataAccessor(positions, reads);
    return ValueRead.container(Source.ROW, n, (RowAccessor<Object>) fields);
  }

  private static boolean integer(TypeKind k) {
    switch (k) {
      case INT8:
      case INT16:
      case INT32:
      case INT64:
      case INT128:
      case INT256:
      case UINT8:
      case UINT16:
      case UINT32:
      case UINT64:
      case UINT128:
      case UINT256:
        return true;
      default:
        return false;
    }
  }

  /** A pair that does not map, somewhere inside the column's types. */
  private static final class Mismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient LogicalType flink;
    final transient ClickHouseType clickHouse;
    final String path;

    Mismatch(LogicalType flink, ClickHouseType clickHouse, String path) {
      super(null, null, false, false); // control flow: no stack trace
      this.flink = flink;
      this.clickHouse = clickHouse;
      this.path = path;
    }
  }
}
