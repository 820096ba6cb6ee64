package dev.handoff.cli;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes JSON strings with escapes or bytes beyond ASCII for {@link FlatScanner}: as text (a
 * {@code String}) for most columns, as UTF-8 bytes for String and FixedString columns. Declines
 * (returns -1) what Jackson reads its own way or words as an error: malformed UTF-8, a control
 * byte, an unknown escape, an escaped lone surrogate, a string past {@link #MAX_TEXT}.
 *
 * <p>One per scanner (it keeps scratch buffers).
 */
final class JsonStrings {

  /** Longer strings are left to Jackson (and its length limits). */
  static final int MAX_TEXT = 1 << 20;

  /** Decoded strings; grows up to {@link #MAX_TEXT}. */
  private char[] text = new char[256];
  /** The UTF-8 of strings for String columns ({@link #decodedUtf8}); grows up to MAX_TEXT. */
  private byte[] utf8 = new byte[256];

  /**
   * Reads a string with escapes or bytes beyond ASCII as text (for a column other than String or
   * FixedString), from {@code from} (its first byte after the quote) where {@code [from, plain)} is plain ASCII; returns the index after its closing
   * quote, or -1 to decline (malformed UTF-8, a control byte, an unknown escape, an escaped lone
   * surrogate, a string past {@link #MAX_TEXT}: Jackson words those or reads them its own way).
   */
  int decoded(byte[] buf, int from, int plain, int end, int s, byte[] kinds,
      Object[] objects) {
    char[] t = text;
    int n = 0;
    for (int k = from; k < plain; k++) {
      if (n == t.length) {
        t = grow(n + 1);
      }
      t[n++] = (char) buf[k];
    }
    int j = plain;
    while (true) {
      if (j >= end) {
        return -1;
      }
      int b = buf[j];
      if (n + 2 > t.length) {
        if (n + 2 > MAX_TEXT) {
          return -1;
        }
        t = grow(n + 2);
      }
      if (b == '"') {
        break;
      }
      if (b >= 0x20 && b != '\\') {
        t[n++] = (char) b;
        j++;
      } else if (b == '\\') {
        long r = escape(buf, j, end);
        if (r < 0) {
          return -1;
        }
        int cp = (int) (r >>> 32);
        j = (int) r;
        if (cp >= 0x10000) {
          t[n++] = Character.highSurrogate(cp);
          t[n++] = Character.lowSurrogate(cp);
        } else {
          t[n++] = (char) cp;
        }
      } else if (b >= 0) {
        return -1; // a control byte: Jackson refuses it unescaped
      } else {
        int len = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
        int cp = len == 0 || j + len > end ? -1 : codePoint(buf, j, len);
        if (cp < 0) {
          return -1;
        }
        j += len;
        if (cp >= 0x10000) {
          t[n++] = Character.highSurrogate(cp);
          t[n++] = Character.lowSurrogate(cp);
        } else {
          t[n++] = (char) cp;
        }
      }
    }
    if (s >= 0) {
      kinds[s] = BlockRows.TEXT;
      objects[s] = new String(t, 0, n);
    }
    return j + 1;
  }

  /**
   * Reads a string with escapes or bytes beyond ASCII for a String or FixedString column, as
   * {@link #decoded} reads it, into its UTF-8 bytes: the bytes beyond ASCII copied (once checked
   * well formed), each escape written as the UTF-8 of what it stands for, so that no chars are
   * made and encoded again; text where the bytes are more than {@code width} (a FixedString's,
   * whose conversion words that). Returns the index after the closing quote, or -1 to decline (what
   * {@link #decoded} declines, and a string of more than {@link #MAX_TEXT} bytes).
   */
  int decodedUtf8(byte[] buf, int from, int plain, int end, int s, byte[] kinds,
      Object[] objects, long width) {
    int limit = Math.min(end, from + MAX_TEXT);
    byte[] o = utf8;
    if (o.length < limit - from) {
      o = utf8 = new byte[Math.max(limit - from, Math.min(2 * o.length, MAX_TEXT))];
    }
    int n = plain - from;
    System.arraycopy(buf, from, o, 0, n);
    int j = plain;
    while (true) {
      if (j >= limit) {
        return -1;
      }
      int b = buf[j];
      if (b >= 0x20 && b != '\\') {
        if (b == '"') {
          break;
        }
        int run = plainEnd(buf, j + 1, limit);
        System.arraycopy(buf, j, o, n, run - j);
        n += run - j;
        j = run;
      } else if (b == '\\') {
        // At most 4 bytes out for the 2, 6 or 12 read: the output stays behind the input.
        if (j + 6 <= limit && buf[j + 1] == 'u') {
          // The usual escape, u and four hex digits of a char that is no surrogate, without a
          // call of escape().
          int u = hex4(buf, j + 2, limit);
          if (u >= 0 && (u < 0xD800 || u > 0xDFFF)) {
            n = putUtf8(o, n, u);
            j += 6;
            continue;
          }
        }
        long r = escape(buf, j, limit);
        if (r < 0) {
          return -1;
        }
        j = (int) r;
        n = putUtf8(o, n, (int) (r >>> 32));
      } else if (b >= 0) {
        return -1; // a control byte: Jackson refuses it unescaped
      } else {
        int len = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
        if (len == 0 || j + len > limit || codePoint(buf, j, len) < 0) {
          return -1;
        }
        System.arraycopy(buf, j, o, n, len);
        n += len;
        j += len;
      }
    }
    if (n <= width) {
      kinds[s] = BlockRows.UTF8;
      objects[s] = Arrays.copyOf(o, n);
    } else {
      kinds[s] = BlockRows.TEXT;
      objects[s] = new String(o, 0, n, StandardCharsets.UTF_8);
    }
    return j + 1;
  }

  /**
   * Reads the escape whose backslash is at {@code buf[j]} (before {@code end}): returns its code
   * point in the high 32 bits and the index after it in the low 32, or -1 for an escape Jackson
   * words as an error (an unknown one, bad hex digits, a lone surrogate). A surrogate pair
   * written as two escapes is one code point.
   */
  private static long escape(byte[] buf, int j, int end) {
    if (j + 1 >= end) {
      return -1;
    }
    int e = buf[j + 1];
    int cp;
    j += 2;
    switch (e) {
      case '"': case '\\': case '/': cp = e; break;
      case 'b': cp = '\b'; break;
      case 'f': cp = '\f'; break;
      case 'n': cp = '\n'; break;
      case 'r': cp = '\r'; break;
      case 't': cp = '\t'; break;
      case 'u': {
        int u = hex4(buf, j, end);
        if (u < 0) {
          return -1;
        }
        j += 4;
        cp = u;
        if (Character.isHighSurrogate((char) u)) {
          int low = j + 1 < end && buf[j] == '\\' && buf[j + 1] == 'u'
              ? hex4(buf, j + 2, end) : -1;
          if (low < 0 || !Character.isLowSurrogate((char) low)) {
            return -1;
          }
          j += 6;
          cp = Character.toCodePoint((char) u, (char) low);
        } else if (Character.isLowSurrogate((char) u)) {
          return -1;
        }
        break;
      }
      default:
        return -1;
    }
    return (long) cp << 32 | j;
  }

  /** Writes code point {@code cp}'s UTF-8 at {@code o[n]}; returns the index after it. */
  private static int putUtf8(byte[] o, int n, int cp) {
    if (cp < 0x80) {
      o[n++] = (byte) cp;
    } else if (cp < 0x800) {
      o[n++] = (byte) (0xC0 | cp >> 6);
      o[n++] = (byte) (0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      o[n++] = (byte) (0xE0 | cp >> 12);
      o[n++] = (byte) (0x80 | (cp >> 6 & 0x3F));
      o[n++] = (byte) (0x80 | (cp & 0x3F));
    } else {
      o[n++] = (byte) (0xF0 | cp >> 18);
      o[n++] = (byte) (0x80 | (cp >> 12 & 0x3F));
      o[n++] = (byte) (0x80 | (cp >> 6 & 0x3F));
      o[n++] = (byte) (0x80 | (cp & 0x3F));
    }
    return n;
  }

  /**
   * The code point of the well-formed UTF-8 sequence of {@code len} bytes at {@code i}, or -1 for
   * anything else (a bad continuation byte, an overlong form, a surrogate, past U+10FFFF).
   */
  static int codePoint(byte[] buf, int i, int len) {
    int cp = buf[i] & (0x7F >> len);
    for (int k = 1; k < len; k++) {
      int c = buf[i + k];
      if ((c & 0xC0) != 0x80) {
        return -1;
      }
      cp = cp << 6 | (c & 0x3F);
    }
    int min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return -1;
    }
    return cp;
  }

  /** The value of the four hex digits at {@code i}, or -1. */
  static int hex4(byte[] buf, int i, int end) {
    if (i + 4 > end) {
      return -1;
    }
    byte[] h = HEX;
    // Each digit is 0-15 or -1; an OR of the four shifted values is negative if any is.
    int v = h[buf[i] & 0xFF] << 12 | h[buf[i + 1] & 0xFF] << 8 | h[buf[i + 2] & 0xFF] << 4
        | h[buf[i + 3] & 0xFF];
    return v < 0 ? -1 : v;
  }

  /**
   * Returns the index of the first quote, backslash or control byte in {@code buf[from, end)}
   * (bytes beyond ASCII pass), or {@code end}: as {@link #plainEnd}, without the high-bit test.
   */
  static int rawEnd(byte[] buf, int from, int end) {
    return stopAt(buf, from, end, 0L);
  }

  /**
   * Reads a string without escapes that holds bytes beyond ASCII, {@code buf[from, q)} with its
   * closing quote at {@code q}, for a String or FixedString column as {@link #decodedUtf8} would:
   * its bytes as they are once checked well-formed UTF-8 (text where they are more than {@code
   * width}). Returns the index after the quote, or -1 where decodedUtf8 must decide (no quote at
   * {@code q}, malformed UTF-8, a string past {@link #MAX_TEXT}).
   */
  static int rawUtf8(byte[] buf, int from, int q, int end, int s, byte[] kinds, Object[] objects,
      long width) {
    if (q >= end || buf[q] != '"' || q - from >= MAX_TEXT
        || !DelimitedBytes.wellFormed(buf, from, q)) {
      return -1;
    }
    if (q - from <= width) {
      kinds[s] = BlockRows.UTF8;
      objects[s] = Arrays.copyOfRange(buf, from, q);
    } else {
      kinds[s] = BlockRows.TEXT;
      objects[s] = new String(buf, from, q - from, StandardCharsets.UTF_8);
    }
    return q + 1;
  }

  /** Each byte's value as a hex digit (either case), or -1. */
  static final byte[] HEX = new byte[256];

  static {
    java.util.Arrays.fill(HEX, (byte) -1);
    for (int c = 0; c < 10; c++) {
      HEX['0' + c] = (byte) c;
    }
    for (int c = 0; c < 6; c++) {
      HEX['a' + c] = (byte) (10 + c);
      HEX['A' + c] = (byte) (10 + c);
    }
  }

  /**
   * Returns the index of the first byte in {@code buf[from, end)} that ends a plain ASCII run of
   * a JSON string: a quote, a backslash, a control byte or a byte beyond ASCII; {@code end} if
   * none. Tests 8 bytes at a time ({@link ByteWords}): a zero byte of {@code x ^ c} marks a byte
   * {@code c}, a borrow out of {@code x - 0x20} one below 0x20, the high bit one beyond ASCII.
   */
  static int plainEnd(byte[] buf, int from, int end) {
    return stopAt(buf, from, end, -1L);
  }

  /**
   * {@link #plainEnd} ({@code high} all ones: a byte beyond ASCII stops too) and {@link #rawEnd}
   * ({@code high} zero: it does not).
   */
  private static int stopAt(byte[] buf, int from, int end, long high) {
    int i = from;
    while (i + 8 <= end) {
      long x = (long) ByteWords.LONGS.get(buf, i);
      long q = x ^ 0x2222222222222222L;
      long b = x ^ 0x5c5c5c5c5c5c5c5cL;
      long t = (((q - ByteWords.ONES) & ~q) | ((b - ByteWords.ONES) & ~b)
          | ((x - 0x2020202020202020L) & ~x) | (x & high)) & ByteWords.HIGHS;
      if (t != 0) {
        return i + ByteWords.firstMarked(t);
      }
      i += 8;
    }
    for (; i < end; i++) {
      byte c = buf[i];
      // A byte beyond ASCII is negative: below 0x20 too, a stop for plainEnd only.
      if (c == '"' || c == '\\' || (c < 0x20 && (c >= 0 || high != 0))) {
        return i;
      }
    }
    return end;
  }

  private char[] grow(int need) {
    text = Arrays.copyOf(text, Math.min(MAX_TEXT + 2, Math.max(need, text.length * 2)));
    return text;
  }
}
