package dev.handoff.clickhouse.value;

import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import java.util.Arrays;

/**
 * Builds the {@code DATA} errors of {@link Conversions} and the reasons ({@link Rejected}) that
 * several conversion families give: a kind a type does not accept, text that is not a number,
 * a value out of a type's range, a null from a non-NULL kind.
 *
 * <p>A conversion method catches every RuntimeException and throws its {@link #failure}: a
 * {@link Rejected} turned into {@link #error}, an accessor's own exception into {@link
 * #unreadable}; the message is the one {@link Conversions#error} describes.
 */
final class ConversionErrors {
  private ConversionErrors() {}

  /** Returns the error {@link Conversions#error} describes. */
  static <R> HandoffException error(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, String reason) {
    return new HandoffException(ErrorClass.DATA, message(acc, row, field, type, column, reason));
  }

  /** The error for an accessor that threw or returned an object of the wrong class. */
  static <R> HandoffException unreadable(RowAccessor<R> acc, R row, int field,
      ClickHouseType type, String column, RuntimeException cause) {
    String reason = "could not be read: " + cause.getClass().getName()
        + (cause.getMessage() == null ? "" : ": " + shorten(cause.getMessage()));
    return new HandoffException(ErrorClass.DATA, message(acc, row, field, type, column, reason),
        cause);
  }

  /**
   * Returns what a conversion throws for {@code e}, the one tail every conversion method shares:
   * a {@link Rejected} becomes its {@link #error}, a HandoffException stays as it is, and any
   * other exception (from the accessor) becomes {@link #unreadable}.
   */
  static <R> HandoffException failure(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, RuntimeException e) {
    if (e instanceof Rejected) {
      return error(acc, row, field, type, column, e.getMessage());
    }
    if (e instanceof HandoffException) {
      return (HandoffException) e;
    }
    return unreadable(acc, row, field, type, column, e);
  }

  private static <R> String message(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, String reason) {
    ValueKind kind;
    try {
      kind = acc.kind(row, field);
    } catch (RuntimeException e) {
      kind = null;
    }
    String r = String.valueOf(reason);
    boolean continues = r.startsWith("is ") || r.startsWith("has ");
    return "column \"" + column + "\" (" + type + "): value " + render(acc, row, field, kind)
        + " (" + (kind == null ? "unknown kind" : kind) + ")" + (continues ? " " : ": ") + r;
  }

  /** How many characters of a value a message shows. */
  private static final int MAX_VALUE_CHARS = 64;
  /** How many bytes of a byte array a message shows (two hex digits each). */
  private static final int MAX_VALUE_BYTES = 24;

  private static <R> String render(RowAccessor<R> acc, R row, int field, ValueKind kind) {
    try {
      if (kind != null) {
        switch (kind) {
          case NULL:
            return "null";
          case LONG:
            return Long.toString(acc.getLong(row, field));
          case DOUBLE:
            return Double.toString(acc.getDouble(row, field));
          case BOOLEAN:
            return Boolean.toString(acc.getBoolean(row, field));
          case TEXT: {
            CharSequence s = acc.getText(row, field);
            return s == null ? "null" : '"' + shorten(s) + '"';
          }
          case BYTES:
            return hex(acc.getBytes(row, field));
          default:
            break;
        }
      }
    } catch (RuntimeException e) {
      // fall through to getObject: the typed getter is what failed
    }
    try {
      Object o = acc.getObject(row, field);
      if (o instanceof byte[] b) {
        return hex(b);
      }
      if (o != null && o.getClass().isArray()) {
        // Its elements, not its identity ([I@1b6d3586), for primitive and nested arrays too.
        String s = Arrays.deepToString(new Object[] {o}); // "[[1, 2]]"
        return shorten(s.substring(1, s.length() - 1));
      }
      return shorten(String.valueOf(o));
    } catch (RuntimeException e) {
      return "<unreadable: " + e.getClass().getSimpleName() + ">";
    }
  }

  private static String shorten(CharSequence s) {
    return s.length() <= MAX_VALUE_CHARS
        ? s.toString()
        : s.subSequence(0, MAX_VALUE_CHARS) + "...";
  }

  private static String hex(byte[] b) {
    if (b == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("0x");
    for (int i = 0; i < b.length && i < MAX_VALUE_BYTES; i++) {
      sb.append(Character.forDigit((b[i] >> 4) & 0xF, 16)).append(Character.forDigit(b[i] & 0xF,
          16));
    }
    return sb.append(b.length > MAX_VALUE_BYTES ? "..." : "").append(" (").append(b.length)
        .append(" bytes)").toString();
  }

  static Rejected notAccepted(ValueKind kind, ClickHouseType type) {
    if (kind == ValueKind.NULL) {
      return new Rejected("null into a non-Nullable column");
    }
    String name = type.kind() == TypeKind.ENUM8 ? "Enum8"
        : type.kind() == TypeKind.ENUM16 ? "Enum16" : type.toString();
    return new Rejected("cannot convert " + kind + " to " + name);
  }

  static Rejected notANumber() {
    return new Rejected("is not a number");
  }

  static Rejected outOfRange(ClickHouseType type) {
    return new Rejected("is out of range " + rangeOf(type.kind(), type.precision()));
  }

  private static String rangeOf(TypeKind tk, int precision) {
    switch (tk) {
      case INT8: return "-128..127";
      case INT16: return "-32768..32767";
      case INT32: return "-2147483648..2147483647";
      case INT64: return "-9223372036854775808..9223372036854775807";
      case INT128: return "-2^127..2^127-1";
      case INT256: return "-2^255..2^255-1";
      case UINT8: return "0..255";
      case UINT16: return "0..65535";
      case UINT32: return "0..4294967295";
      case UINT64: return "0..18446744073709551615";
      case UINT128: return "0..2^128-1";
      case UINT256: return "0..2^256-1";
      case DATE: return "1970-01-01..2149-06-06 (days 0..65535)";
      case DATE32: return "1900-01-01..2299-12-31 (days -25567..120529)";
      case DATETIME: return "1970-01-01 00:00:00..2106-02-07 06:28:15 UTC (seconds 0..4294967295)";
      case DATETIME64:
        return precision == 9
            ? "1900-01-01 00:00:00..2262-04-11 23:47:16.854775807 UTC (the Int64 limit at P = 9)"
            : "1900-01-01 00:00:00..2299-12-31 23:59:59.999999999 (UTC or the column's zone)";
      default: return "of " + tk;
    }
  }

  static <T> T nonNull(T value) {
    if (value == null) {
      throw new Rejected("is null although its kind is not NULL");
    }
    return value;
  }
}
