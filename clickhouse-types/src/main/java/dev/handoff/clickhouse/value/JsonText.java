package dev.handoff.clickhouse.value;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON text into plain Java values: an object into a {@code LinkedHashMap} (document
 * order; a repeated name is an error), an array into an {@code ArrayList}, an integer into a
 * {@code Long} (a {@code BigInteger} beyond it), any other number into a {@code Double}, a string,
 * a boolean, {@code null}. The values of a JSON column given as text go through it; no Jackson is
 * needed.
 */
public final class JsonText {
  private final CharSequence text;
  private int pos;

  private JsonText(CharSequence text) {
    this.text = text;
  }

  /**
   * Parses one JSON value that fills {@code text} (whitespace around it allowed).
   *
   * @throws IllegalArgumentException naming the offset and what was expected there
   */
  public static Object parse(CharSequence text) {
    JsonText p = new JsonText(text);
    Object v = p.value(0);
    p.blank();
    if (p.pos < text.length()) {
      throw p.error("end of the text");
    }
    return v;
  }

  private Object value(int depth) {
    if (depth > 1000) {
      throw error("less nesting (more than 1000 levels)");
    }
    blank();
    if (pos >= text.length()) {
      throw error("a value");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return string();
      case 't': return word("true", Boolean.TRUE);
      case 'f': return word("false", Boolean.FALSE);
      case 'n': return word("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("a value");
    }
  }

  private Map<String, Object> object(int depth) {
    pos++;
    Map<String, Object> m = new LinkedHashMap<>();
    blank();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      blank();
      if (peek() != '"') {
        throw error("a field name in double quotes");
      }
      int at = pos;
      String name = string();
      blank();
      expect(':');
      Object v = value(depth + 1);
      if (m.containsKey(name)) {
        pos = at;
        throw error("no repeated field \"" + name + "\"");
      }
      m.put(name, v);
      blank();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array(int depth) {
    pos++;
    List<Object> a = new ArrayList<>();
    blank();
    if (peek() == ']') {
      pos++;
      return a;
    }
    while (true) {
      a.add(value(depth + 1));
      blank();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return a;
      }
    }
  }

  private String string() {
    pos++;
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("the closing quote of a string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("an escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"': case '\\': case '/': sb.append(e); break;
        case 'b': sb.append('\b'); break;
        case 'f': sb.append('\f'); break;
        case 'n': sb.append('\n'); break;
        case 'r': sb.append('\r'); break;
        case 't': sb.append('\t'); break;
        case 'u':
          if (pos + 4 > text.length()) {
            throw error("four hex digits");
          }
          try {
            sb.append((char) Integer.parseInt(text.subSequence(pos, pos + 4).toString(), 16));
          } catch (NumberFormatException ex) {
            throw error("four hex digits");
          }
          pos += 4;
          break;
        default:
          pos--;
          throw error("a valid escape");
      }
    }
  }

  private Object number() {
    int start = pos;
    int end = JsonNumbers.scanEnd(text, pos);
    boolean integral = end >= 0;
    pos = integral ? end : ~end;
    String s = text.subSequence(start, pos).toString();
    try {
      if (integral) {
        BigInteger b = new BigInteger(s);
        return b.bitLength() < 64 ? (Object) b.longValue() : b;
      }
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("a number");
    }
  }

  private Object word(String w, Object v) {
    if (pos + w.length() <= text.length()
        && text.subSequence(pos, pos + w.length()).toString().equals(w)) {
      pos += w.length();
      return v;
    }
    throw error("a value");
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("'" + c + "'");
    }
    pos++;
  }

  private void blank() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException error(String expected) {
    return new IllegalArgumentException("not JSON: expected " + expected + " at offset " + pos);
  }
}
