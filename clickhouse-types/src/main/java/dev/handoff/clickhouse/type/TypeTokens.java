package dev.handoff.clickhouse.type;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lexical layer of {@link TypeParser}: a cursor over the type text that reads its tokens
 * (words, integers, quoted names and string literals with the server's escapes, punctuation)
 * with whitespace ({@code ' ' \t \n \r \f \v}) allowed around each, and makes the {@link
 * TypeParseException} for a position.
 */
abstract class TypeTokens {
  final String text;
  final int end;
  int pos;

  TypeTokens(String text) {
    this.text = text;
    this.end = text.length();
  }

  /** Whether the next non-blank character is {@code c} (nothing consumed). */
  boolean nextIs(char c) {
    int at = pos;
    skipWhitespace();
    boolean is = pos < end && text.charAt(pos) == c;
    pos = at;
    return is;
  }

  /**
   * Reads a JSON path: backquoted or double-quoted parts, or bare identifiers, joined by dots
   * ({@code a.b}, {@code `a.b`.c}); returns "" when none starts here.
   */
  String readJsonPath() {
    StringBuilder path = new StringBuilder();
    while (pos < end) {
      char c = text.charAt(pos);
      if (c == '`' || c == '"') {
        path.append(readQuoted(c, "quoted identifier"));
      } else if (isIdentifierPart(c)) {
        path.append(readWord());
      } else {
        break;
      }
      if (pos < end && text.charAt(pos) == '.') {
        path.append('.');
        pos++;
      } else {
        break;
      }
    }
    return path.toString();
  }

  /**
   * Returns the type text that starts at {@code start}: its name and, when an argument list
   * follows, everything to its closing parenthesis (quotes respected), or to the end of the text.
   */
  String wholeTypeAt(int start) {
    int i = start;
    while (i < end && isIdentifierPart(text.charAt(i))) {
      i++;
    }
    int j = i;
    while (j < end && isWhitespace(text.charAt(j))) {
      j++;
    }
    if (j >= end || text.charAt(j) != '(') {
      return text.substring(start, i);
    }
    int level = 0;
    char quote = 0;
    for (; j < end; j++) {
      char c = text.charAt(j);
      if (quote != 0) {
        if (c == '\\') {
          j++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '`' || c == '"') {
        quote = c;
      } else if (c == '(') {
        level++;
      } else if (c == ')' && --level == 0) {
        return text.substring(start, j + 1);
      }
    }
    return text.substring(start);
  }

  static boolean isIdentifierStart(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  static boolean isIdentifierPart(char c) {
    return isIdentifierStart(c) || (c >= '0' && c <= '9');
  }

  static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
  }

  void skipWhitespace() {
    while (pos < end && isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  int skipWhitespaceAndMark() {
    skipWhitespace();
    return pos;
  }

  /** Reads {@code [A-Za-z_][A-Za-z0-9_]*}; the caller has checked the first char. */
  String readWord() {
    int start = pos;
    while (pos < end && isIdentifierPart(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  void expect(char c) {
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != c) {
      throw error(pos, "expected '" + c + "'");
    }
    pos++;
  }

  void open() {
    expect('(');
  }

  void close() {
    expect(')');
  }

  /** Consumes {@code ','} (returns true) or {@code ')'} (returns false), else fails. */
  boolean commaOrClose() {
    skipWhitespace();
    if (pos < end) {
      char c = text.charAt(pos);
      if (c == ',' || c == ')') {
        pos++;
        return c == ',';
      }
    }
    throw error(pos, "expected ',' or ')'");
  }

  /** Reads a non-negative decimal integer that fits an {@code int}. */
  int readUnsigned() {
    skipWhitespace();
    return readDigits(pos, false);
  }

  /** Reads an optionally negative decimal integer that fits an {@code int}. */
  int readSigned() {
    skipWhitespace();
    int start = pos;
    boolean negative = pos < end && text.charAt(pos) == '-';
    if (negative) {
      pos++;
    }
    return readDigits(start, negative);
  }

  int readDigits(int start, boolean negative) {
    if (pos >= end || !isDigit(text.charAt(pos))) {
      throw error(pos, "expected an integer");
    }
    long value = 0;
    while (pos < end && isDigit(text.charAt(pos))) {
      value = value * 10 + (text.charAt(pos++) - '0');
      if (value > Integer.MAX_VALUE + (negative ? 1L : 0L)) {
        throw error(start, "integer out of range");
      }
    }
    return (int) (negative ? -value : value);
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Reads a single-quoted string literal. */
  String readStringLiteral() {
    skipWhitespace();
    if (pos >= end || text.charAt(pos) != '\'') {
      throw error(pos, "expected a string literal");
    }
    return readQuoted('\'', "string literal");
  }

  /**
   * Reads text between {@code quote} characters as the server's lexer does: a doubled quote is
   * one quote; after a backslash, {@code a b e f n r t v 0} are controls, {@code xHH} is a byte
   * (runs of them must form UTF-8), {@code N} is nothing, and any other character stands for
   * itself, keeping the backslash unless it is a quote, backslash, slash, {@code =} or a control.
   */
  String readQuoted(char quote, String what) {
    int open = pos++;
    StringBuilder out = new StringBuilder();
    byte[] bytes = null;
    int byteCount = 0;
    int bytesAt = -1;
    while (true) {
      if (pos >= end) {
        throw error(open, "unterminated " + what);
      }
      char c = text.charAt(pos);
      boolean hexByte = c == '\\' && pos + 1 < end && text.charAt(pos + 1) == 'x';
      if (!hexByte && byteCount > 0) {
        out.append(decodeUtf8(bytes, byteCount, bytesAt));
        byteCount = 0;
      }
      if (c == quote) {
        if (pos + 1 < end && text.charAt(pos + 1) == quote) {
          out.append(quote);
          pos += 2;
          continue;
        }
        pos++;
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        pos++;
        continue;
      }
      if (pos + 1 >= end) {
        throw error(open, "unterminated " + what);
      }
      char e = text.charAt(pos + 1);
      if (hexByte) {
        int hi = pos + 2 < end ? hexValue(text.charAt(pos + 2)) : -1;
        int lo = pos + 3 < end ? hexValue(text.charAt(pos + 3)) : -1;
        if (hi < 0 || lo < 0) {
          throw error(pos, "expected two hex digits after \\x");
        }
        if (byteCount == 0) {
          bytesAt = pos;
          if (bytes == null) {
            bytes = new byte[16];
          }
        } else if (byteCount == bytes.length) {
          bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        bytes[byteCount++] = (byte) (hi << 4 | lo);
        pos += 4;
        continue;
      }
      pos += 2;
      char decoded;
      switch (e) {
        case 'a': decoded = '\u0007'; break;
        case 'b': decoded = '\b'; break;
        case 'e': decoded = '\u001B'; break;
        case 'f': decoded = '\f'; break;
        case 'n': decoded = '\n'; break;
        case 'r': decoded = '\r'; break;
        case 't': decoded = '\t'; break;
        case 'v': decoded = '\u000B'; break;
        case '0': decoded = '\0'; break;
        case 'N': continue; // the server reads \N as nothing
        default: decoded = e;
      }
      boolean keepsBackslash = decoded != '\\' && decoded != '\'' && decoded != '"'
          && decoded != '`' && decoded != '/' && decoded != '=' && decoded >= 0x20
          && decoded != 0x7F;
      if (keepsBackslash) {
        out.append('\\');
      }
      out.append(decoded);
    }
  }

  static int hexValue(char c) {
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

  String decodeUtf8(byte[] bytes, int count, int at) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, count))
          .toString();
    } catch (CharacterCodingException e) {
      throw error(at, "\\x escapes that are not UTF-8 (names are Java strings here)");
    }
  }

  TypeParseException error(int at, String expected) {
    return new TypeParseException(text, at, expected);
  }
}
