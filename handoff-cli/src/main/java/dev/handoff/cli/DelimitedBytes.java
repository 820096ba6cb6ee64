package dev.handoff.cli;

import com.fasterxml.jackson.core.io.NumberInput;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a CSV or TSV row straight from its bytes into a block's flat row, as {@link
 * DelimitedText#fields} and the text conversions read it: each field as a range of the line, and
 * where the column's {@link ColumnPlan} says so, as its value (a String's UTF-8 bytes, a date's
 * day, a date-time's second, a UUID, an integer, a Float64's double, a Float32's float, a
 * Decimal's exact value), else as text. It declines
 * (returns {@code false} before it writes a slot) a line that is not well-formed UTF-8, a quote
 * not closed or followed by text, a TSV field with an escape, and a row of another width than the
 * header, for the text path to read or word.
 *
 * <p>One per parser thread (it keeps the field ranges of the row just read).
 */
final class DelimitedBytes {

  private static final byte PLAIN = 0;
  private static final byte NULL = 1;
  /** A quoted CSV field holding a doubled quote (the quote in {@link #quote}). */
  private static final byte DOUBLED = 2;

  private final boolean tsv;
  /** Per header field, its column, or -1. */
  private final int[] headerColumn;
  private final byte[] plan;
  private final long[] min;
  private final long[] max;
  private final boolean[] float64;
  /** The plan (for its enum names). */
  private final ColumnPlan columnPlan;
  /** The fields of the row just read: start, end, {@link #PLAIN} or another flag, quote. */
  private int[] start = new int[16];
  private int[] end = new int[16];
  private byte[] flag = new byte[16];
  private byte[] quote = new byte[16];
  private int fields;
  private final char[] digits = new char[64];

  DelimitedBytes(DelimitedText.Kind kind, int[] headerColumn, ColumnPlan plan) {
    this.tsv = kind == DelimitedText.Kind.TSV;
    this.headerColumn = headerColumn.clone();
    this.plan = plan.kind.clone();
    this.min = plan.min.clone();
    this.max = plan.max.clone();
    this.float64 = plan.float64.clone();
    this.columnPlan = plan;
  }

  /** Returns the number of fields of the row just read. */
  int fields() {
    return fields;
  }

  /** Returns whether field {@code i} of the row just read is NULL (or missing). */
  boolean isNull(int i) {
    return flag[i] == NULL;
  }

  /**
   * Reads the row {@code buf[off, off + len)} into the flat slots at {@code base}; returns
   * {@code false}, slots untouched, when it declines the line.
   */
  boolean read(byte[] buf, int off, int len, byte[] kinds, long[] values, Object[] objects,
      int base) {
    int to = off + len;
    if (!wellFormed(buf, off, to) || !(tsv ? splitTsv(buf, off, to) : splitCsv(buf, off, to))
        || fields != headerColumn.length) {
      return false;
    }
    for (int i = 0; i < fields; i++) {
      int c = headerColumn[i];
      if (c >= 0 && flag[i] != NULL) {
        field(buf, i, c, base + c, kinds, values, objects);
      }
    }
    return true;
  }

  private void field(byte[] buf, int i, int c, int s, byte[] kinds, long[] values,
      Object[] objects) {
    int from = start[i];
    int to = end[i];
    if (flag[i] == DOUBLED) {
      byte[] v = collapse(buf, from, to, quote[i]);
      if (plan[c] == ColumnPlan.STRING || (plan[c] == ColumnPlan.FIXED && v.length <= max[c])) {
        set(s, BlockRows.UTF8, 0, v, kinds, values, objects);
      } else {
        set(s, BlockRows.TEXT, 0, new String(v, StandardCharsets.UTF_8), kinds, values, objects);
      }
      return;
    }
    switch (plan[c]) {
      case ColumnPlan.STRING:
        set(s, BlockRows.SLICE, BlockRows.slice(from, to), null, kinds, values, objects);
        return;
      case ColumnPlan.FIXED:
        if (to - from <= max[c]) {
          set(s, BlockRows.UTF8, 0, Arrays.copyOfRange(buf, from, to), kinds, values, objects);
          return;
        }
        break;
      case ColumnPlan.DATETIME:
        if (number(ByteFields.epochSecond(buf, from, to, (int) min[c]), 0,
            dev.handoff.clickhouse.value.Conversions.DATETIME_MAX, s, kinds, values, objects)) {
          return;
        }
        break;
      case ColumnPlan.DATE:
        if (number(ByteFields.epochDay(buf, from, to), min[c], max[c], s, kinds, values,
            objects)) {
          return;
        }
        break;
      case ColumnPlan.ENUM:
        if (number(columnPlan.enumValue(c, buf, from, to), Long.MIN_VALUE, Long.MAX_VALUE, s,
            kinds, values, objects)) {
          return;
        }
        break;
      case ColumnPlan.UUID: {
        java.util.UUID u = ByteFields.uuid(buf, from, to);
        if (u != null) {
          set(s, BlockRows.UUID, 0, u, kinds, values, objects);
          return;
        }
        break;
      }
      case ColumnPlan.INTEGER:
        if (integer(buf, from, to, c, s, kinds, values, objects)) {
          return;
        }
        break;
      case ColumnPlan.DECIMAL:
        if (decimal(buf, from, to, c, s, kinds, values, objects)) {
          return;
        }
        break;
      case ColumnPlan.FLOAT32:
        if (floating(buf, from, to, true, s, kinds, values, objects)) {
          return;
        }
        break;
      default:
        if (float64[c] && floating(buf, from, to, false, s, kinds, values, objects)) {
          return;
        }
        break;
    }
    set(s, BlockRows.TEXT, 0, new String(buf, from, to - from, StandardCharsets.UTF_8), kinds,
        values, objects);
  }

  /** An integer column's field: a number within the column's range, else {@code false}. */
  private boolean integer(byte[] buf, int from, int to, int c, int s, byte[] kinds,
      long[] values, Object[] objects) {
    long v = ByteFields.smallInteger(buf, from, to);
    if (v != ByteFields.NONE) {
      return number(v, min[c], max[c], s, kinds, values, objects);
    }
    boolean negative = from < to && buf[from] == '-';
    int digitsFrom = negative ? from + 1 : from;
    if (to - digitsFrom < 19 || to - digitsFrom > 20) {
      return false;
    }
    long u = 0;
    for (int k = digitsFrom; k < to; k++) {
      if (buf[k] < '0' || buf[k] > '9') {
        return false;
      }
      u = u * 10 + (buf[k] - '0');
    }
    // 19 digits are below 2^64: u holds them exactly, unsigned. One that fits a long is the
    // long the BigInteger below would give, without making it.
    if (to - digitsFrom == 19 && (u >= 0 || (negative && u == Long.MIN_VALUE))) {
      return number(negative ? -u : u, min[c], max[c], s, kinds, values, objects);
    }
    BigInteger big = ByteFields.bigInteger(buf, from, to);
    if (big == null) {
      return false;
    }
    if (big.bitLength() < 64) {
      return number(big.longValue(), min[c], max[c], s, kinds, values, objects);
    }
    // Past Long.MAX_VALUE: only a UInt64 holds it, as the text conversion reads it.
    if (min[c] == 0 && max[c] == Long.MAX_VALUE && big.signum() > 0) {
      set(s, BlockRows.BIG_INTEGER, 0, big, kinds, values, objects);
      return true;
    }
    return false;
  }

  /** {@link #floatSyntax}: not {@code -?digits[.digits][e[+-]digits]}, or a leading zero. */
  private static final int NOT_SIMPLE = -1;
  /** {@link #floatSyntax}: digits with a fraction and no exponent. */
  private static final int FRACTION = 0;
  /** {@link #floatSyntax}: digits with an exponent. */
  private static final int EXPONENT = -2;

  /**
   * The syntax of a float field {@code buf[from, to)}: {@link #NOT_SIMPLE}, {@link #FRACTION},
   * {@link #EXPONENT}, or for an integer {@code -?digits} its count of digits.
   */
  private static int floatSyntax(byte[] buf, int from, int to) {
    int i = from < to && buf[from] == '-' ? from + 1 : from;
    int intDigits = 0;
    while (i < to && buf[i] >= '0' && buf[i] <= '9') {
      i++;
      intDigits++;
    }
    if (intDigits == 0 || (intDigits > 1 && buf[i - intDigits] == '0')) {
      return NOT_SIMPLE; // no digit, or a leading zero: the conversion reads those
    }
    if (i == to) {
      return intDigits;
    }
    if (buf[i] == '.') {
      int f = ++i;
      while (i < to && buf[i] >= '0' && buf[i] <= '9') {
        i++;
      }
      if (i == f) {
        return NOT_SIMPLE;
      }
    }
    boolean exponent = i < to && (buf[i] == 'e' || buf[i] == 'E');
    if (exponent && (i = ByteFields.exponentEnd(buf, i, to)) < 0) {
      return NOT_SIMPLE;
    }
    return i != to ? NOT_SIMPLE : exponent ? EXPONENT : FRACTION;
  }

  /**
   * A Float64 or Float32 column's field {@code -?digits} (at most 15 digits for a Float64, 7 for
   * a Float32: integers the type holds exactly) or {@code -?digits[.digits][e[+-]digits]} with a
   * fraction or an exponent (at most 64 bytes): its correctly rounded double, as the text
   * conversion's {@code Double.parseDouble} gives it, or float, as its {@code Float.parseFloat}
   * gives it (no rounding through a double) and widened, when finite and not zero (zeros,
   * infinities and the rest stay text, for the conversion's rules), else {@code false}.
   */
  private boolean floating(byte[] buf, int from, int to, boolean float32, int s, byte[] kinds,
      long[] values, Object[] objects) {
    int syntax = floatSyntax(buf, from, to);
    double d;
    if (syntax > 0) {
      if (syntax > (float32 ? 7 : 15)) {
        return false;
      }
      d = ByteFields.smallInteger(buf, from, to);
    } else if (syntax == NOT_SIMPLE || to - from > digits.length) {
      return false;
    } else if (float32) {
      d = NumberInput.parseFloat(chars(buf, from, to), 0, to - from, true);
    } else {
      d = syntax == EXPONENT ? Double.NaN : ByteFields.simpleDouble(buf, from, to);
      if (d != d) {
        d = NumberInput.parseDouble(chars(buf, from, to), 0, to - from, true);
      }
    }
    if (d == 0 || Double.isInfinite(d)) {
      return false;
    }
    set(s, BlockRows.DOUBLE, Double.doubleToRawLongBits(d), null, kinds, values, objects);
    return true;
  }

  /**
   * A {@code Decimal(P, S)} column's field {@code -?digits[.digits]} without a leading zero, of
   * at most 18 digits, that the column holds exactly (at most P - S digits before the point and S
   * after it once trailing zeros go): an integer as a number, else its value as an exact {@code
   * BigDecimal} (which the conversion turns into the same unscaled value as the text); anything
   * else stays text, for the conversion to read or word as written.
   */
  private boolean decimal(byte[] buf, int from, int to, int c, int s, byte[] kinds,
      long[] values, Object[] objects) {
    int scale = (int) min[c];
    int intDigitsMax = (int) max[c] - scale;
    int syntax = floatSyntax(buf, from, to);
    if (syntax > 0) {
      return syntax <= intDigitsMax && number(ByteFields.smallInteger(buf, from, to),
          Long.MIN_VALUE, Long.MAX_VALUE, s, kinds, values, objects);
    }
    if (syntax != FRACTION) {
      return false;
    }
    java.math.BigDecimal d = ByteFields.decimal(buf, from, to);
    if (d == null || d.scale() > scale || (long) d.precision() - d.scale() > intDigitsMax) {
      return false;
    }
    set(s, BlockRows.BIG_DECIMAL, 0, d, kinds, values, objects);
    return true;
  }

  /** The ASCII field {@code buf[from, to)} as chars, in {@link #digits} (at most its length). */
  private char[] chars(byte[] buf, int from, int to) {
    for (int k = from; k < to; k++) {
      digits[k - from] = (char) buf[k];
    }
    return digits;
  }

  private static boolean number(long v, long lo, long hi, int s, byte[] kinds, long[] values,
      Object[] objects) {
    if (v == ByteFields.NONE || v < lo || v > hi) {
      return false;
    }
    set(s, BlockRows.LONG, v, null, kinds, values, objects);
    return true;
  }

  private static void set(int s, byte kind, long value, Object object, byte[] kinds,
      long[] values, Object[] objects) {
    kinds[s] = kind;
    values[s] = value;
    objects[s] = object;
  }

  /** The field {@code buf[from, to)} with each doubled {@code q} made one. */
  private static byte[] collapse(byte[] buf, int from, int to, byte q) {
    byte[] out = new byte[to - from];
    int n = 0;
    for (int k = from; k < to; k++) {
      out[n++] = buf[k];
      if (buf[k] == q) {
        k++; // the second of the pair
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Splits as {@code DelimitedText}'s CSV reading does; {@code false} where it would throw. */
  private boolean splitCsv(byte[] buf, int off, int to) {
    fields = 0;
    int i = off;
    while (true) {
      int n = fields;
      if (n == flag.length) {
        grow();
      }
      if (i < to && (buf[i] == '"' || buf[i] == '\'')) {
        byte q = buf[i];
        int from = ++i;
        boolean doubled = false;
        while (true) {
          int close = ByteWords.indexOf(buf, q, i, to);
          if (close < 0) {
            return false;
          }
          if (close + 1 < to && buf[close + 1] == q) {
            doubled = true;
            i = close + 2;
            continue;
          }
          start[n] = from;
          end[n] = close;
          flag[n] = doubled ? DOUBLED : PLAIN;
          quote[n] = q;
          i = close + 1;
          break;
        }
        fields++;
        if (i < to && buf[i] != ',') {
          return false;
        }
      } else {
        int comma = ByteWords.indexOf(buf, (byte) ',', i, to);
        int e = comma < 0 ? to : comma;
        start[n] = i;
        end[n] = e;
        flag[n] = e == i || (e - i == 2 && buf[i] == '\\' && buf[i + 1] == 'N') ? NULL : PLAIN;
        fields++;
        i = e;
      }
      if (i >= to) {
        return true;
      }
      i++; // the comma
      if (i == to) {
        if (fields == flag.length) {
          grow();
        }
        flag[fields++] = NULL; // a trailing comma: one more, empty field
        return true;
      }
    }
  }

  /** Splits at tabs; {@code false} for a field with an escape (the text path unescapes it). */
  private boolean splitTsv(byte[] buf, int off, int to) {
    fields = 0;
    int i = off;
    while (true) {
      if (fields == flag.length) {
        grow();
      }
      int tab = ByteWords.indexOf(buf, (byte) '\t', i, to);
      int e = tab < 0 ? to : tab;
      boolean isNull = e - i == 2 && buf[i] == '\\' && buf[i + 1] == 'N';
      if (!isNull && ByteWords.indexOf(buf, (byte) '\\', i, e) >= 0) {
        return false;
      }
      start[fields] = i;
      end[fields] = e;
      flag[fields++] = isNull ? NULL : PLAIN;
      if (tab < 0) {
        return true;
      }
      i = tab + 1;
    }
  }

  private void grow() {
    int n = flag.length * 2;
    start = Arrays.copyOf(start, n);
    end = Arrays.copyOf(end, n);
    flag = Arrays.copyOf(flag, n);
    quote = Arrays.copyOf(quote, n);
  }

  /**
   * Whether {@code buf[from, to)} is well-formed UTF-8 (what decodes without a replacement
   * character): then splitting its bytes at ASCII separators is splitting its text.
   */
  static boolean wellFormed(byte[] buf, int from, int to) {
    int i = from;
    while (i < to) {
      // Skip ASCII 8 bytes at a time: no byte of the word has its high bit set.
      while (i + 8 <= to && ((long) ByteWords.LONGS.get(buf, i) & ByteWords.HIGHS) == 0) {
        i += 8;
      }
      if (i >= to) {
        break;
      }
      int b = buf[i];
      if (b >= 0) {
        i++;
        continue;
      }
      int len = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
      if (len == 0 || i + len > to || JsonStrings.codePoint(buf, i, len) < 0) {
        return false;
      }
      i += len;
    }
    return true;
  }
}
