package dev.handoff.clickhouse.value;

import static dev.handoff.clickhouse.value.ConversionErrors.failure;
import static dev.handoff.clickhouse.value.ConversionErrors.notAccepted;
import static dev.handoff.clickhouse.value.IntegerConversions.longOrOutOfRange;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.Arrays;
import java.util.UUID;

/**
 * Converts to UUID, IPv4 and IPv6: {@link Conversions#toUuid}, {@link Conversions#toIPv4} and
 * {@link Conversions#toIPv6}. Text is parsed as a literal ({@link InetText} for addresses),
 * never looked up.
 */
final class UuidAndIpConversions {
  private UuidAndIpConversions() {}

  /** Implements {@link Conversions#toUuid}. */
  static <R> UUID toUuid(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case UUID: {
          Object o = acc.getObject(row, field);
          if (o instanceof UUID u) {
            return u;
          }
          throw new Rejected("is not a java.util.UUID although its kind is UUID");
        }
        case TEXT:
          return uuidOfText(acc.getText(row, field));
        case BYTES: {
          byte[] b = acc.getBytes(row, field);
          if (b.length != 16) {
            throw new Rejected("has " + b.length + " bytes; a UUID has 16");
          }
          return new UUID(bigEndianLong(b, 0), bigEndianLong(b, 8));
        }
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  private static UUID uuidOfText(CharSequence s) {
    if (s.length() == 36 && s.charAt(8) == '-' && s.charAt(13) == '-' && s.charAt(18) == '-'
        && s.charAt(23) == '-') {
      long a = hex(s, 0, 8);
      long b = hex(s, 9, 13);
      long c = hex(s, 14, 18);
      long d = hex(s, 19, 23);
      long e = hex(s, 24, 36);
      if ((a | b | c | d | e) >= 0) {
        return new UUID(a << 32 | b << 16 | c, d << 48 | e);
      }
    }
    throw new Rejected("is not a UUID (expected 8-4-4-4-12 hex digits, like"
        + " 550e8400-e29b-41d4-a716-446655440000)");
  }

  /** Returns the hex digits {@code s[from, to)} (at most 15) as a number, or -1. */
  private static long hex(CharSequence s, int from, int to) {
    long v = 0;
    for (int i = from; i < to; i++) {
      int h = InetText.hexDigit(s.charAt(i));
      if (h < 0) {
        return -1;
      }
      v = v << 4 | h;
    }
    return v;
  }

  private static long bigEndianLong(byte[] b, int from) {
    long v = 0;
    for (int i = from; i < from + 8; i++) {
      v = v << 8 | (b[i] & 0xFF);
    }
    return v;
  }

  /** Implements {@link Conversions#toIPv4}. */
  static <R> int toIPv4(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column) {
    try {
      ValueKind kind = acc.kind(row, field);
      long v;
      switch (kind) {
        case INET: {
          Object o = acc.getObject(row, field);
          if (o instanceof Inet4Address a) {
            byte[] b = a.getAddress();
            return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
          }
          throw new Rejected(o instanceof Inet6Address
              ? "is an IPv6 address" : "is not a java.net.InetAddress although its kind is INET");
        }
        case TEXT: {
          CharSequence s = acc.getText(row, field);
          v = InetText.parseIPv4(s, 0, s.length());
          if (v < 0) {
            throw new Rejected("is not an IPv4 address (expected a.b.c.d with parts 0..255;"
                + " host names are not resolved)");
          }
          return (int) v;
        }
        case LONG:
          v = acc.getLong(row, field);
          break;
        case BIG_INTEGER:
          v = longOrOutOfRange(acc.getBigInteger(row, field), type);
          break;
        default:
          throw notAccepted(kind, type);
      }
      if (v >= 0 && v <= 0xFFFF_FFFFL) {
        return (int) v;
      }
      throw new Rejected("is out of range 0..4294967295 for an IPv4 address");
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  /** Implements {@link Conversions#toIPv6}. */
  static <R> void toIPv6(RowAccessor<R> acc, R row, int field, ClickHouseType type,
      String column, byte[] dest) {
    if (dest.length < 16) {
      throw new IllegalArgumentException("dest has " + dest.length + " bytes (expected: >= 16)");
    }
    try {
      ValueKind kind = acc.kind(row, field);
      switch (kind) {
        case INET: {
          Object o = acc.getObject(row, field);
          if (o instanceof Inet6Address a) {
            System.arraycopy(a.getAddress(), 0, dest, 0, 16);
            return;
          }
          if (o instanceof Inet4Address a) {
            writeMapped(a.getAddress(), dest);
            return;
          }
          throw new Rejected("is not a java.net.InetAddress although its kind is INET");
        }
        case TEXT: {
          CharSequence s = acc.getText(row, field);
          if (!hasColon(s)) {
            long v4 = InetText.parseIPv4(s, 0, s.length());
            if (v4 >= 0) {
              Arrays.fill(dest, 0, 10, (byte) 0);
              dest[10] = (byte) 0xFF;
              dest[11] = (byte) 0xFF;
              dest[12] = (byte) (v4 >>> 24);
              dest[13] = (byte) (v4 >>> 16);
              dest[14] = (byte) (v4 >>> 8);
              dest[15] = (byte) v4;
              return;
            }
          } else if (InetText.parseIPv6(s, dest)) {
            return;
          }
          throw new Rejected("is not an IPv6 or IPv4 address (expected a literal like"
              + " 2001:db8::1 or ::ffff:192.168.1.10; host names are not resolved)");
        }
        case BYTES: {
          byte[] b = acc.getBytes(row, field);
          if (b.length != 16) {
            throw new Rejected("has " + b.length + " bytes; an IPv6 address has 16");
          }
          System.arraycopy(b, 0, dest, 0, 16);
          return;
        }
        default:
          throw notAccepted(kind, type);
      }
    } catch (RuntimeException e) {
      throw failure(acc, row, field, type, column, e);
    }
  }

  private static boolean hasColon(CharSequence s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) == ':') {
        return true;
      }
    }
    return false;
  }

  private static void writeMapped(byte[] v4, byte[] dest) {
    Arrays.fill(dest, 0, 10, (byte) 0);
    dest[10] = (byte) 0xFF;
    dest[11] = (byte) 0xFF;
    System.arraycopy(v4, 0, dest, 12, 4);
  }
}
