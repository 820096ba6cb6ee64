package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.nonNull;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.net.InetAddress;
import java.time.temporal.TemporalAccessor;
import java.util.UUID;

/**
 * Converts to the text of a String or FixedString: {@link Conversions#toText}, which renders
 * numbers, booleans, UUIDs, temporals and IPs as text and passes TEXT through.
 */
final class TextConversions {
  private TextConversions() {}

  /** Implements {@link Conversions#toText}. */
  static <R> CharSequence toText(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case TEXT: {
          CharSequence s = acc.getText(row, field);
          if (s == null) {
            throw new Rejected("is null although its kind is TEXT");
          }
          return s;
        }
        case LONG:
          return Long.toString(acc.getLong(row, field));
        case DOUBLE:
          return Double.toString(acc.getDouble(row, field));
        case BOOLEAN:
          return acc.getBoolean(row, field) ? "true" : "false";
        case BIG_INTEGER:
          return nonNull(acc.getBigInteger(row, field)).toString();
        case BIG_DECIMAL:
          return nonNull(acc.getBigDecimal(row, field)).toString();
        case UUID: {
          Object o = acc.getObject(row, field);
          if (o instanceof UUID u) {
            return u.toString();
          }
          throw new Rejected("is not a java.util.UUID although its kind is UUID");
        }
        case TEMPORAL: {
          Object o = acc.getObject(row, field);
          if (o instanceof TemporalAccessor) {
            return o.toString(); // ISO 8601 for every java.time type
          }
          throw new Rejected("is not a java.time value although its kind is TEMPORAL");
        }
        case INET: {
          Object o = acc.getObject(row, field);
          if (o instanceof InetAddress a) {
            return a.getHostAddress();
          }
          throw new Rejected("is not a java.net.InetAddress although its kind is INET");
        }
        case BYTES:
          throw new Rejected("cannot convert BYTES to text (the encoder writes bytes as they"
              + " are)");
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }
}
