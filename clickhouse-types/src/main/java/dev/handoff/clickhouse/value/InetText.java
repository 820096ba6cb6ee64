package dev.handoff.clickhouse.value;

import java.util.Arrays;

/**
 * Parsers for IP address literals. They read text only and never resolve a host name (unlike
 * {@link java.net.InetAddress#getByName}), and they allocate nothing.
 */
final class InetText {
  private InetText() {}

  /** The longest IPv6 literal: eight groups written as six groups and a dotted quad. */
  private static final int MAX_IPV6_LENGTH = 45;

  /**
   * Returns the IPv4 dotted quad in {@code s[from, to)} as the number {@code a<<24 | b<<16 | c<<8
   * | d}, or {@code -1} when it is not one. Exactly four decimal parts of 1 to 3 digits, each at
   * most 255 and without leading zeros (which some parsers read as octal, so they are refused
   * rather than guessed).
   */
  static long parseIPv4(CharSequence s, int from, int to) {
    long value = 0;
    int parts = 0;
    int i = from;
    while (true) {
      int start = i;
      int part = 0;
      while (i < to && i - start < 4 && NumberText.isDigit(s.charAt(i))) {
        part = part * 10 + (s.charAt(i) - '0');
        i++;
      }
      int length = i - start;
      if (length == 0 || length > 3 || part > 255 || (length > 1 && s.charAt(start) == '0')) {
        return -1;
      }
      value = value << 8 | part;
      parts++;
      if (i == to) {
        return parts == 4 ? value : -1;
      }
      if (parts == 4 || s.charAt(i) != '.') {
        return -1;
      }
      i++;
    }
  }

  /**
   * Parses an IPv6 literal into {@code dest[0..15]} (network order) and returns whether it is
   * one: eight groups of 1 to 4 hex digits separated by {@code :}, at most one {@code ::} standing
   * for one or more zero groups, and optionally a dotted quad as the last 32 bits ({@code
   * ::ffff:192.168.1.10}). No zone index ({@code %eth0}), no brackets. On {@code false} the
   * contents of {@code dest} are unspecified.
   */
  static boolean parseIPv6(CharSequence s, byte[] dest) {
    int n = s.length();
    if (n < 2 || n > MAX_IPV6_LENGTH) {
      return false;
    }
    int groups = 0;
    int gap = -1; // the group index where '::' stands, if any
    int i = 0;
    if (s.charAt(0) == ':') {
      if (s.charAt(1) != ':') {
        return false;
      }
      gap = 0;
      i = 2;
      if (n == 2) {
        Arrays.fill(dest, 0, 16, (byte) 0);
        return true;
      }
    }
    while (true) {
      int start = i;
      int group = 0;
      while (i < n && i - start < 5) {
        int h = hexDigit(s.charAt(i));
        if (h < 0) {
          break;
        }
        group = group << 4 | h;
        i++;
      }
      if (i < n && s.charAt(i) == '.') {
        // A dotted quad: it must be the rest of the text and fill the last two groups.
        if (groups > 6) {
          return false;
        }
        long v4 = parseIPv4(s, start, n);
        if (v4 < 0) {
          return false;
        }
        dest[groups * 2] = (byte) (v4 >>> 24);
        dest[groups * 2 + 1] = (byte) (v4 >>> 16);
        dest[groups * 2 + 2] = (byte) (v4 >>> 8);
        dest[groups * 2 + 3] = (byte) v4;
        groups += 2;
        break;
      }
      int length = i - start;
      if (length == 0 || length > 4 || groups == 8) {
        return false;
      }
      dest[groups * 2] = (byte) (group >>> 8);
      dest[groups * 2 + 1] = (byte) group;
      groups++;
      if (i == n) {
        break;
      }
      if (s.charAt(i) != ':') {
        return false;
      }
      i++;
      if (i == n) {
        return false; // a single trailing ':'
      }
      if (s.charAt(i) == ':') {
        if (gap >= 0) {
          return false; // a second '::'
        }
        gap = groups;
        i++;
        if (i == n) {
          break;
        }
      }
    }
    if (gap < 0) {
      return groups == 8;
    }
    if (groups == 8) {
      return false; // '::' must stand for at least one group
    }
    // Move the groups after '::' to the end and zero the groups it stands for.
    int tailBytes = (groups - gap) * 2;
    System.arraycopy(dest, gap * 2, dest, 16 - tailBytes, tailBytes);
    Arrays.fill(dest, gap * 2, 16 - tailBytes, (byte) 0);
    return true;
  }

  /** Returns the value of an ASCII hex digit, or {@code -1}. */
  static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
