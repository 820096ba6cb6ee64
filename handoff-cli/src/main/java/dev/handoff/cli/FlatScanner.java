package dev.handoff.cli;

import com.fasterxml.jackson.core.io.NumberInput;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.clickhouse.value.Conversions;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the common JSON line straight from its bytes into a block's flat row: one object whose
 * names are plain ASCII without escapes and whose values are strings (UTF-8, with JSON's
 * escapes), integers, numbers with a fraction, booleans or nulls, on one line with only blanks
 * after it.
 *
 * <p>It takes only what it can read exactly as Jackson does and declines everything else (a name
 * beyond ASCII or with an escape, a nested value, a malformed number or string, UTF-8 that is not
 * well formed, an escaped lone surrogate, any syntax it does not expect): the caller then reads
 * the line with Jackson, which also words any error. Doubles go through Jackson's own number
 * parser, so they round the same; an exact decimal's node comes from the same mapper the tree
 * path uses.
 *
 * <p>One scanner per thread (it keeps a scratch buffer).
 */
final class FlatScanner {

  /** Longer strings and numbers are left to Jackson (and its length limits). */
  private static final int MAX_TEXT = JsonStrings.MAX_TEXT;
  private static final int MAX_NUMBER = 64;

  /** The column names, as the line's bytes are matched against them. */
  private final ColumnNames names;
  private final boolean exactDecimals;
  /** Columns whose exact decimals are read as doubles all the same (see {@link LineParser}). */
  private final boolean[] float64;
  /** Per column, what a string is read as ({@link ColumnPlan}'s kinds). */
  private final byte[] plan;
  /** Per column, {@link ColumnPlan#min}. */
  private final long[] min;
  /** Per column, {@link ColumnPlan#max}. */
  private final long[] max;
  /** The plan (for its enum names). */
  private final ColumnPlan columnPlan;
  /** Makes exact decimals' nodes as the tree path does (its features decide the node). */
  private final TreeMapper json;
  private final char[] digits = new char[MAX_NUMBER];
  /** Decodes strings with escapes or bytes beyond ASCII. */
  private final JsonStrings strings = new JsonStrings();
  /** The unknown field names of the row just read, or {@code null}. */
  List<String> unknown;

  /**
   * Creates a scanner.
   *
   * @param columns the table's column names, in schema order
   * @param exactDecimals whether numbers with a fraction are exact decimals
   * @param plan per column, what a string is read as: a String column's (and a FixedString's
   *     that fits) as its UTF-8 bytes ({@link BlockRows#UTF8}), a date's, date-time's, UUID's or
   *     integer's as its value where {@link ByteFields} reads it; and which columns are Float64,
   *     whose exact decimals are read as doubles
   * @param json the tree path's mapper, which makes exact decimals' nodes
   */
  FlatScanner(String[] columns, boolean exactDecimals, ColumnPlan plan, TreeMapper json) {
    names = new ColumnNames(columns);
    this.exactDecimals = exactDecimals;
    this.float64 = plan.float64.clone();
    this.plan = plan.kind.clone();
    this.min = plan.min.clone();
    this.max = plan.max.clone();
    this.json = json;
    this.columnPlan = plan;
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
      int col;
      int ne;
      if (expect < names.size() && names.at(buf, ns, end, expect)) {
        // The usual case, the next column's name verbatim: what the loop below would find.
        col = expect;
        ne = ns + names.length(expect);
      } else {
        ne = name(buf, ns, end);
        if (ne < 0) {
          return false;
        }
        col = names.column(buf, ns, ne, expect);
      }
      if (col < 0) {
        if (!ascii(buf, ns, ne)) {
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
        expect = col + 1 == names.size() ? 0 : col + 1;
      }
      i = ne + 1 < end && buf[ne + 1] > ' ' ? ne + 1 : blanks(buf, ne + 1, end);
      if (i >= end || buf[i] != ':') {
        return false;
      }
      i = i + 1 < end && buf[i + 1] > ' ' ? i + 1 : blanks(buf, i + 1, end);
      i = value(buf, i, end, col < 0 ? -1 : base + col, kinds, values, objects);
      if (i < 0) {
        return false;
      }
      i = i < end && buf[i] > ' ' ? i : blanks(buf, i, end);
      if (i >= end) {
        return false;
      }
      if (buf[i] == '}') {
        return BlockReader.blank(buf, i + 1, end);
      }
      if (buf[i] != ',') {
        return false;
      }
      i = i + 1 < end && buf[i + 1] > ' ' ? i + 1 : blanks(buf, i + 1, end);
    }
  }

  /**
   * Returns the index of the quote that ends the name starting at {@code ns}, or -1 where the
   * scanner declines it (an escape or a control byte in it, no closing quote).
   */
  private static int name(byte[] buf, int ns, int end) {
    int ne = ns;
    while (ne < end && buf[ne] != '"') {
      byte c = buf[ne];
      if (c == '\\' || (c >= 0 && c < 0x20)) {
        return -1;
      }
      ne++;
    }
    return ne < end ? ne : -1;
  }

  private static boolean ascii(byte[] buf, int from, int to) {
    for (int k = from; k < to; k++) {
      if (buf[k] < 0) {
        return false;
      }
    }
    return true;
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
      int j = JsonStrings.plainEnd(buf, from, end);
      if (j >= end || j - from > MAX_TEXT) {
        return -1;
      }
      if (buf[j] != '"') {
        byte p = s >= 0 ? plan[s % plan.length] : ColumnPlan.TEXT;
        if (p == ColumnPlan.STRING || p == ColumnPlan.FIXED) {
          long width = p == ColumnPlan.STRING ? Long.MAX_VALUE : max[s % plan.length];
          if (buf[j] < 0) {
            // UTF-8 text without escapes (the common case beyond ASCII): checked and copied
            // as it is, with no decoding loop.
            int r = JsonStrings.rawUtf8(buf, from, JsonStrings.rawEnd(buf, j, end), end, s,
                kinds, objects, width);
            if (r >= 0) {
              return r;
            }
          }
          return strings.decodedUtf8(buf, from, j, end, s, kinds, objects, width);
        }
        return strings.decoded(buf, from, j, end, s, kinds, objects);
      }
      if (s >= 0 && !typed(buf, from, j, s, kinds, values, objects)) {
        kinds[s] = BlockRows.TEXT;
        objects[s] = new String(buf, from, j - from, StandardCharsets.ISO_8859_1);
      }
      return j + 1;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number(buf, i, end, s, kinds, values, objects);
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

  /**
   * Reads the plain ASCII string {@code buf[from, to)} into slot {@code s} as its column's plan
   * says; returns {@code false}, slot untouched, where it stays text.
   */
  private boolean typed(byte[] buf, int from, int to, int s, byte[] kinds, long[] values,
      Object[] objects) {
    int c = s % plan.length;
    switch (plan[c]) {
      case ColumnPlan.STRING:
        // Left in the block's bytes, which live until the row is encoded.
        kinds[s] = BlockRows.SLICE;
        values[s] = BlockRows.slice(from, to);
        objects[s] = null;
        return true;
      case ColumnPlan.FIXED:
        if (to - from > max[c]) {
          return false;
        }
        kinds[s] = BlockRows.UTF8;
        objects[s] = Arrays.copyOfRange(buf, from, to);
        return true;
      case ColumnPlan.DATETIME:
        return number(ByteFields.epochSecond(buf, from, to, (int) min[c]), 0,
            Conversions.DATETIME_MAX, s, kinds, values, objects);
      case ColumnPlan.DATE:
        return number(ByteFields.epochDay(buf, from, to), min[c], max[c], s, kinds, values,
            objects);
      case ColumnPlan.ENUM:
        return number(columnPlan.enumValue(c, buf, from, to), Long.MIN_VALUE, Long.MAX_VALUE, s,
            kinds, values, objects);
      case ColumnPlan.UUID: {
        java.util.UUID u = ByteFields.uuid(buf, from, to);
        if (u == null) {
          return false;
        }
        kinds[s] = BlockRows.UUID;
        objects[s] = u;
        return true;
      }
      default:
        return false;
    }
  }

  /** Sets slot {@code s} to the number {@code v} if it is within {@code lo..hi}. */
  private static boolean number(long v, long lo, long hi, int s, byte[] kinds, long[] values,
      Object[] objects) {
    if (v == ByteFields.NONE || v < lo || v > hi) {
      return false;
    }
    kinds[s] = BlockRows.LONG;
    values[s] = v;
    objects[s] = null;
    return true;
  }

  /** Reads a number as JSON writes it; declines bad syntax and numbers past 64 characters. */
  private int number(byte[] buf, int i, int end, int s, byte[] kinds, long[] values,
      Object[] objects) {
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
    // The digits as one unscaled number (exact up to 18 digits) and the fraction's length, so
    // the common decimals need no second pass over their text.
    long unscaled = v;
    int fractionDigits = 0;
    boolean exponent = false;
    if (i < end && buf[i] == '.') {
      fraction = true;
      int f = ++i;
      while (i < end && buf[i] >= '0' && buf[i] <= '9') {
        unscaled = unscaled * 10 + (buf[i] - '0');
        i++;
      }
      if (i == f) {
        return -1;
      }
      fractionDigits = i - f;
    }
    if (i < end && (buf[i] == 'e' || buf[i] == 'E')) {
      fraction = true;
      exponent = true;
      if ((i = ByteFields.exponentEnd(buf, i, end)) < 0) {
        return -1;
      }
    }
    int len = i - start;
    if (len > MAX_NUMBER) {
      return -1; // Jackson's limits and wording for long numbers
    }
    if (!fraction) {
      if (intDigits > 18) {
        // 19 digits are below 2^64, so v holds them exactly as an unsigned number: one that fits
        // a long is read as big() would read it, without a BigInteger.
        if (intDigits == 19 && (v >= 0 || (negative && v == Long.MIN_VALUE))) {
          set(s, kinds, values, BlockRows.LONG, negative ? -v : v);
          return i;
        }
        return big(buf, start, len, i, s, kinds, values, objects);
      }
      long n = negative ? -v : v;
      set(s, kinds, values, n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE
          ? BlockRows.INT : BlockRows.LONG, n);
      return i;
    }
    if (s < 0) {
      return i;
    }
    int digits = intDigits + fractionDigits;
    boolean asDouble = !exactDecimals || float64[s % float64.length];
    double d = 0;
    if (asDouble) {
      if (!exponent && digits <= 15) {
        // What ByteFields.simpleDouble gives: an integer below 2^53 over an exact power of ten.
        double q = (double) unscaled / ByteFields.POW10[fractionDigits];
        d = negative ? -q : q;
      } else {
        d = parseDouble(buf, start, len);
      }
    }
    if (exactDecimals && !(asDouble && d != 0 && !Double.isInfinite(d))) {
      java.math.BigDecimal exact = null;
      if (!exponent && digits <= 18) {
        // What ByteFields.decimal gives: the digits and scale, trailing zeros stripped.
        exact = java.math.BigDecimal.valueOf(negative ? -unscaled : unscaled, fractionDigits);
        if (buf[i - 1] == '0') {
          exact = exact.stripTrailingZeros();
        }
      }
      if (exact != null) {
        // The tree's decimal: the text's own digits and scale, trailing zeros stripped as the
        // tree strips them.
        kinds[s] = BlockRows.BIG_DECIMAL;
        objects[s] = exact;
        return i;
      }
      try {
        // The node the tree would hold (same mapper, same normalization), kept in a
        // one-element array that BlockRows reads through the tree's nested accessor.
        ObjectMapper mapper = json.get();
        objects[s] = mapper.createArrayNode().add(mapper.readTree(buf, start, len));
      } catch (IOException e) {
        return -1;
      }
      kinds[s] = BlockRows.DECIMAL;
      return i;
    }
    kinds[s] = BlockRows.DOUBLE;
    values[s] = Double.doubleToRawLongBits(d);
    return i;
  }

  /** Jackson's double of the number {@code buf[start, start + len)}. */
  private double parseDouble(byte[] buf, int start, int len) {
    double d = ByteFields.simpleDouble(buf, start, start + len);
    if (d == d) {
      return d; // not NaN: read exactly as Jackson would
    }
    for (int k = 0; k < len; k++) {
      digits[k] = (char) buf[start + k];
    }
    return NumberInput.parseDouble(digits, 0, len, true);
  }

  /** An integer of 19 digits or more: a {@code long} if it fits one, as Jackson decides. */
  private int big(byte[] buf, int start, int len, int next, int s, byte[] kinds, long[] values,
      Object[] objects) {
    if (s >= 0) {
      BigInteger v = ByteFields.bigInteger(buf, start, next);
      if (v == null) {
        v = new BigInteger(new String(buf, start, len, StandardCharsets.ISO_8859_1));
      }
      if (v.bitLength() < 64) {
        kinds[s] = BlockRows.LONG;
        values[s] = v.longValue();
      } else {
        kinds[s] = BlockRows.BIG_INTEGER;
        objects[s] = v;
      }
    }
    return next;
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

  /**
   * Skips JSON blanks (a line holds no newline). The scanner's calls test the first byte
   * themselves ({@code > ' '} is no blank), since C1 does not inline this method.
   */
  private static int blanks(byte[] buf, int i, int end) {
    while (i < end && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')) {
      i++;
    }
    return i;
  }
}
