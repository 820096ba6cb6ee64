package dev.handoff.cli;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The table's column names as {@link FlatScanner} matches them in a line's bytes: the expected
 * column's name and closing quote compared as one or two 8-byte words ({@link #at}), any other
 * name looked up byte for byte ({@link #column}). Immutable.
 */
final class ColumnNames {

  /** The column names as UTF-8, in schema order. */
  private final byte[][] names;
  /** Per column, whether its name has no quote, backslash or control byte (read verbatim). */
  private final boolean[] verbatim;
  /** Per column, its name and closing quote as little-endian 8-byte words. */
  private final long[][] pattern;
  /** Per column, which bytes of each {@link #pattern} word are the name's. */
  private final long[][] mask;

  /** Prepares the names {@code columns}, in schema order. */
  ColumnNames(String[] columns) {
    names = new byte[columns.length][];
    verbatim = new boolean[columns.length];
    pattern = new long[columns.length][];
    mask = new long[columns.length][];
    for (int i = 0; i < columns.length; i++) {
      names[i] = columns[i].getBytes(StandardCharsets.UTF_8);
      verbatim[i] = true;
      for (byte c : names[i]) {
        verbatim[i] &= c != '"' && c != '\\' && (c < 0 || c >= 0x20);
      }
      // The name and its closing quote as little-endian words, the last one masked.
      int n = names[i].length + 1;
      pattern[i] = new long[(n + 7) / 8];
      mask[i] = new long[(n + 7) / 8];
      for (int k = 0; k < n; k++) {
        long b = k < n - 1 ? names[i][k] & 0xFF : '"';
        pattern[i][k / 8] |= b << (8 * (k % 8));
        mask[i][k / 8] |= 0xFFL << (8 * (k % 8));
      }
    }
  }

  /** Returns the number of columns. */
  int size() {
    return names.length;
  }

  /** Returns the length in bytes of column {@code c}'s name. */
  int length(int c) {
    return names[c].length;
  }

  /**
   * Whether {@code buf[ns, end)} starts with column {@code c}'s name, written verbatim (a name
   * with a quote, backslash or control byte never is), and a quote: a word or two compared at a
   * time where the line has the bytes, else byte by byte.
   */
  boolean at(byte[] buf, int ns, int end, int c) {
    if (!verbatim[c]) {
      return false;
    }
    long[] p = pattern[c];
    if (ns + 8 * p.length > end) {
      byte[] name = names[c];
      return startsWith(buf, ns, end, name) && ns + name.length < end
          && buf[ns + name.length] == '"';
    }
    long[] m = mask[c];
    for (int k = 0; k < p.length; k++) {
      if ((((long) ByteWords.LONGS.get(buf, ns + 8 * k)) & m[k]) != p[k]) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code buf[at, end)} starts with {@code name}. */
  private static boolean startsWith(byte[] buf, int at, int end, byte[] name) {
    if (end - at < name.length) {
      return false;
    }
    for (int k = 0; k < name.length; k++) {
      if (buf[at + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  /** Returns the column whose name is {@code buf[from, to)}, trying {@code expect} first. */
  int column(byte[] buf, int from, int to, int expect) {
    if (expect < names.length && same(names[expect], buf, from, to)) {
      return expect;
    }
    for (int c = 0; c < names.length; c++) {
      if (same(names[c], buf, from, to)) {
        return c;
      }
    }
    return -1;
  }

  private static boolean same(byte[] name, byte[] buf, int from, int to) {
    return name.length == to - from && Arrays.equals(name, 0, name.length, buf, from, to);
  }
}
