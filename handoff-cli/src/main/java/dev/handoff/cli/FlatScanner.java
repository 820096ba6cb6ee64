package dev.handoff.cli;

import com.fasterxml.jackson.core.io.NumberInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the common JSON line straight from its bytes into a block's flat row: one object whose
 * names and strings are plain ASCII without escapes and whose values are strings, integers that
 * fit a {@code long}, doubles, booleans or nulls, on one line with only blanks after it.
 *
 * <p>It takes only what it can read exactly as Jackson does and declines everything else (an
 * escape, a byte beyond ASCII, a nested value, a big or malformed number, an exact decimal, any
 * syntax it does not expect): the caller then reads the line with Jackson, which also words any
 * error. Doubles go through Jackson's own number parser, so they round the same.
 *
 * <p>One scanner per thread (it keeps a scratch buffer).
 */
final class FlatScanner {

  /** Longer strings and numbers are left to Jackson (and its length limits). */
  private static final int MAX_TEXT = 1 << 20;
  private static final int MAX_NUMBER = 64;

  /** The column names as bytes, in schema order. */
  private final byte[][] names;
  private final boolean exactDecimals;
  private final char[] digits = new char[MAX_NUMBER];
  /** The unknown field names of the row just read, or {@code null}. */
  List<String> unknown;

  /**
   * Creates a scanner.
   *
   * @param columns the table's column names, in schema order
   * @param exactDecimals whether numbers with a fraction are exact decimals (then declined)
   */
  FlatScanner(String[] columns, boolean exactDecimals) {
    names = new byte[columns.length][];
    for (int i = 0; i < columns.length; i++) {
      names[i] = columns[i].getBytes(StandardCharsets.UTF_8);
    }
    this.exactDecimals = exactDecimals;
  }

  /**
   * Reads the line {@code buf[off, end)} into the row at {@code base} of the flat arrays; returns
   * {@code false} when it declines the line (the row's slots may then hold partial values: the
   * caller clears them). The row's unknown fields are left in {@link #unknown}.
   */
  boolean scan(byte[] buf, int off, int end, byte[] kinds, long[] values, Object[] objects,
      int base) {
    unknown = null;
    int i = blanks(buf, off, end);
    if (i >= end || buf[i] != '{') {
      return false;
    }
    i = blanks(buf, i + 1, end);
    if (i < end && buf[i] == '}') {
      return BlockReader.blank(buf, i + 1, end);
    }
    int expect = 0;
    while (true) {
      if (i >= end || buf[i] != '"') {
        return false;
      }
      int ns = i + 1;
      int ne = ns;
      boolean ascii = true;
      while (ne < end && buf[ne] != '"') {
        byte c = buf[ne];
        if (c == '\\' || (c >= 0 && c < 0x20)) {
          return false;
        }
        ascii &= c >= 0;
        ne++;
      }
      if (ne >= end) {
        return false;
      }
      int col = column(buf, ns, ne, expect);
      if (col < 0) {
        if (!ascii) {
          return false; // Jackson decodes (and checks) names beyond ASCII
        }
        String name = new String(buf, ns, ne - ns, StandardCharsets.ISO_8859_1);
        if (unknown == null) {
          unknown = new ArrayList<>(2);
        }
        if (!unknown.contains(name)) {
          unknown.add(name);
        }
      } else {
        expect = col + 1 == names.length ? 0 : col + 1;
      }
      i = blanks(buf, ne + 1, end);
      if (i >= end || buf[i] != ':') {
        return false;
      }
      i = blanks(buf, i + 1, end);
      i = value(buf, i, end, col < 0 ? -1 : base + col, kinds, values, objects);
      if (i < 0) {
        return false;
      }
      i = blanks(buf, i, end);
      if (i >= end) {
        return false;
      }
      if (buf[i] == '}') {
        return BlockReader.blank(buf, i + 1, end);
      }
      if (buf[i] != ',') {
        return false;
      }
      i = blanks(buf, i + 1, end);
    }
  }

  /** Reads one value into slot {@code s} (-1: an unknown field's, dropped); returns the index
   * after it, or -1 to decline. */
  private int value(byte[] buf, int i, int end, int s, byte[] kinds, long[] values,
      Object[] objects) {
    if (i >= end) {
      return -1;
    }
    byte c = buf[i];
    if (c == '"') {
      int from = i + 1;
      int j = from;
      while (j < end) {
        byte b = buf[j];
        if (b == '"') {
          break;
        }
        if (b < 0x20 || b == '\\') {
          return -1; // escapes, control bytes and bytes beyond ASCII (negative) go to Jackson
        }
        j++;
      }
      if (j >= end || j - from > MAX_TEXT) {
        return -1;
      }
      if (s >= 0) {
        kinds[s] = BlockRows.TEXT;
        objects[s] = new String(buf, from, j - from, StandardCharsets.ISO_8859_1);
      }
      return j + 1;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number(buf, i, end, s, kinds, values);
    }
    if (c == 't' && literal(buf, i, end, "true")) {
      set(s, kinds, values, BlockRows.BOOLEAN, 1);
      return i + 4;
    }
    if (c == 'f' && literal(buf, i, end, "false")) {
      set(s, kinds, values, BlockRows.BOOLEAN, 0);
      return i + 5;
    }
    if (c == 'n' && literal(buf, i, end, "null")) {
      if (s >= 0) {
        kinds[s] = BlockRows.NULL;
        objects[s] = null;
      }
      return i + 4;
    }
    return -1; // a nested value, or not JSON
  }

  /** Reads a number as JSON writes it; declines a big integer, an exact decimal, bad syntax. */
  private int number(byte[] buf, int i, int end, int s, byte[] kinds, long[] values) {
    int start = i;
    boolean negative = buf[i] == '-';
    if (negative) {
      i++;
    }
    int intStart = i;
    long v = 0;
    while (i < end && buf[i] >= '0' && buf[i] <= '9') {
      v = v * 10 + (buf[i] - '0');
      i++;
    }
    int intDigits = i - intStart;
    if (intDigits == 0 || (buf[intStart] == '0' && intDigits > 1)) {
      return -1; // no digit, or a leading zero: Jackson words the error
    }
    boolean fraction = false;
    if (i < end && buf[i] == '.') {
      fraction = true;
      int f = ++i;
      while (i < end && buf[i] >= '0' && buf[i] <= '9') {
        i++;
      }
      if (i == f) {
        return -1;
      }
    }
    if (i < end && (buf[i] == 'e' || buf[i] == 'E')) {
      fraction = true;
      i++;
      if (i < end && (buf[i] == '+' || buf[i] == '-')) {
        i++;
      }
      int e = i;
      while (i < end && buf[i] >= '0' && buf[i] <= '9') {
        i++;
      }
      if (i == e) {
        return -1;
      }
    }
    if (!fraction) {
      if (intDigits > 18) {
        return -1; // may not fit a long: Jackson decides LONG or BIG_INTEGER
      }
      long n = negative ? -v : v;
      set(s, kinds, values, n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE
          ? BlockRows.INT : BlockRows.LONG, n);
      return i;
    }
    int len = i - start;
    if (exactDecimals || len > MAX_NUMBER) {
      return -1;
    }
    if (s >= 0) {
      for (int k = 0; k < len; k++) {
        digits[k] = (char) buf[start + k];
      }
      kinds[s] = BlockRows.DOUBLE;
      values[s] = Double.doubleToRawLongBits(NumberInput.parseDouble(digits, 0, len, true));
    }
    return i;
  }

  private static void set(int s, byte[] kinds, long[] values, byte kind, long v) {
    if (s >= 0) {
      kinds[s] = kind;
      values[s] = v;
    }
  }

  private static boolean literal(byte[] buf, int i, int end, String word) {
    if (end - i < word.length()) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      if (buf[i + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /** Skips JSON blanks (a line holds no newline). */
  private static int blanks(byte[] buf, int i, int end) {
    while (i < end && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')) {
      i++;
    }
    return i;
  }

  /** Returns the column whose name is {@code buf[from, to)}, trying {@code expect} first. */
  private int column(byte[] buf, int from, int to, int expect) {
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
