package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.math.BigInteger;

/**
 * Converts to Enum8 and Enum16: {@link Conversions#toEnum}, by an element's name or value,
 * which the type must declare.
 */
final class EnumConversions {
  private EnumConversions() {}

  /** Implements {@link Conversions#toEnum}. */
  static <R> int toEnum(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      long v;
      switch (kind) {
        case TEXT: {
          CharSequence s = acc.getText(row, field);
          return enumByName(s instanceof String str ? str : s.toString(), type);
        }
        case OTHER: {
          Object o = acc.getObject(row, field);
          if (o instanceof Enum<?> e) {
            return enumByName(e.name(), type);
          }
          throw notAccepted(kind, type);
        }
        case LONG:
          v = acc.getLong(row, field);
          break;
        case BIG_INTEGER: {
          BigInteger b = acc.getBigInteger(row, field);
          v = b.bitLength() <= 63 ? b.longValue() : Long.MAX_VALUE;
          break;
        }
        default:
          throw notAccepted(kind, type);
      }
      if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE && type.hasEnumValue((int) v)) {
        return (int) v;
      }
      throw new Rejected("is not a declared enum value");
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  private static int enumByName(String name, ClickHouseType type) {
    Integer v = type.enumValueOf(name);
    if (v == null) {
      throw new Rejected("is not a declared enum name");
    }
    return v;
  }
}
