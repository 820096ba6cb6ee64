package dev.handoff.clickhouse.value;

import dev.handoff.api.row.ValueKind;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * The values of JSON text read into reused arrays ({@link JsonSlots}): the scanning of strings,
 * numbers and words, and the reading of arrays and objects into nodes. A node ({@link Node}, kept
 * between rows) is an array or object whose elements or members are consecutive slots; a node
 * member or element that is itself an array or object holds its node's index. {@link JsonFlat}
 * builds on it.
 *
 * <p>Values read as the tree path ({@link JsonText}) reads them: an integer is a long, or a big
 * integer (its digits kept as chars) beyond 64 bits; any other number a double; a repeated key in
 * one object is refused (the caller gives the text to the tree path, which reports it).
 */
abstract class JsonFlatDoc {
  static final int TEXT = 0;
  static final int BOOL = 1;
  static final int LONG = 2;
  static final int DOUBLE = 3;
  static final int NULL = 4;
  /** An integer beyond 64 bits: its digits are a range of {@link #chars}. */
  static final int BIG = 5;
  static final int ARRAY = 6;
  static final int OBJECT = 7;
  static final int MAX_DEPTH = 500;

  CharSequence text;
  int pos;
  /** Every string's decoded chars (values and object keys), big integers' digits. */
  final StringBuilder chars = new StringBuilder();
  /** The values of the arrays and objects still open, moved to {@link #done} when they close. */
  final JsonSlots stack = new JsonSlots();
  /** The document's values. */
  final JsonSlots done = new JsonSlots();
  final PathTable table = new PathTable();
  private Node[] nodes = new Node[8];
  private int nodeCount;
  private final CharRange textView = new CharRange();
  private final CharRange keyView = new CharRange();

  /**
   * An array or object of the document, a container a {@link JsonFlatLeaves} reads: an array's
   * fields are its elements; an object's are its keys and values alternating, as maps are read.
   * Reused by the next document.
   */
  static final class Node {
    final JsonFlatDoc doc;
    boolean object;
    int first;
    int count;

    Node(JsonFlatDoc doc) {
      this.doc = doc;
    }

    /** Returns the number of fields (twice the members of an object). */
    int size() {
      return object ? 2 * count : count;
    }

    /** Returns the slot of field {@code field} (the member of a key). */
    int slot(int field) {
      return first + (object ? field >> 1 : field);
    }

    /** Renders the node as JSON text, for error messages. */
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      doc.render(sb, this);
      return sb.toString();
    }
  }

  /** Forgets the previous document. */
  void reset(CharSequence json) {
    text = json;
    pos = 0;
    chars.setLength(0);
    stack.size = 0;
    done.size = 0;
    nodeCount = 0;
  }

  /**
   * Reads the value at {@link #pos} as a new last slot of {@code into} ({@link #stack} inside an
   * open array or object, {@link #done} for a leaf); false for text the tree path reads.
   */
  boolean value(JsonSlots into, int depth) {
    char c = peek();
    switch (c) {
      case '{':
        return container(into, depth, true);
      case '[':
        return container(into, depth, false);
      case '"': {
        int from = chars.length();
        if (!string(chars)) {
          return false;
        }
        int s = into.add();
        into.tag[s] = TEXT;
        into.start[s] = from;
        into.end[s] = chars.length();
        return true;
      }
      case 't':
      case 'f': {
        if (!word(c == 't' ? "true" : "false")) {
          return false;
        }
        int s = into.add();
        into.tag[s] = BOOL;
        into.bits[s] = c == 't' ? 1 : 0;
        return true;
      }
      case 'n': {
        if (!word("null")) {
          return false;
        }
        int s = into.add(); // before reading into.tag: add() may replace the array
        into.tag[s] = NULL;
        return true;
      }
      default:
        return (c == '-' || (c >= '0' && c <= '9')) && number(into, into.add());
    }
  }

  /** Reads the array or object at {@link #pos} into a node; adds its slot to {@code into}. */
  private boolean container(JsonSlots into, int depth, boolean object) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    char close = object ? '}' : ']';
    pos++;
    blank();
    int base = stack.size;
    if (peek() != close) {
      while (true) {
        blank();
        int keyStart = chars.length();
        if (object) {
          if (peek() != '"' || !string(chars)) {
            return false;
          }
          blank();
          if (peek() != ':') {
            return false;
          }
          pos++;
          blank();
        }
        int keyEnd = chars.length();
        if (!value(stack, depth + 1)) {
          return false;
        }
        if (object) {
          int s = stack.size - 1;
          stack.keyStart[s] = keyStart;
          stack.keyEnd[s] = keyEnd;
          stack.keyHash[s] = hash(chars, keyStart, keyEnd);
        }
        blank();
        char c = peek();
        if (c == ',') {
          pos++;
        } else if (c == close) {
          break;
        } else {
          return false;
        }
      }
    }
    pos++;
    if (object
        && !table.unique(chars, stack.keyStart, stack.keyEnd, stack.keyHash, base, stack.size)) {
      return false; // a repeated field: the tree path reports it
    }
    int first = done.copy(stack, base, stack.size);
    int node = node(object, first, stack.size - base);
    stack.size = base;
    int s = into.add();
    into.tag[s] = object ? OBJECT : ARRAY;
    into.bits[s] = node;
    return true;
  }

  private int node(boolean object, int first, int count) {
    if (nodeCount == nodes.length) {
      nodes = Arrays.copyOf(nodes, nodeCount * 2);
    }
    Node n = nodes[nodeCount];
    if (n == null) {
      n = new Node(this);
      nodes[nodeCount] = n;
    }
    n.object = object;
    n.first = first;
    n.count = count;
    return nodeCount++;
  }

  static int hash(StringBuilder sb, int from, int to) {
    int h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + sb.charAt(i);
    }
    return h;
  }

  /** Reads the number at {@link #pos} into slot {@code s} of {@code into}. */
  private boolean number(JsonSlots into, int s) {
    int start = pos;
    int end = JsonNumbers.scanEnd(text, pos);
    boolean integral = end >= 0;
    pos = integral ? end : ~end;
    if (integral) {
      boolean negative = text.charAt(start) == '-';
      int from = negative ? start + 1 : start;
      if (from == pos) {
        return false;
      }
      // Accumulated negative, as Long.parseLong does, so that Long.MIN_VALUE fits.
      long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
      long multmin = limit / 10;
      long acc = 0;
      for (int i = from; i < pos; i++) {
        int d = text.charAt(i) - '0';
        if (acc < multmin || acc * 10 < limit + d) {
          // Beyond 64 bits: kept as its digits, a BigInteger when read.
          into.tag[s] = BIG;
          into.start[s] = chars.length();
          chars.append(text, start, pos);
          into.end[s] = chars.length();
          return true;
        }
        acc = acc * 10 - d;
      }
      into.tag[s] = LONG;
      into.bits[s] = negative ? acc : -acc;
      return true;
    }
    double d = JsonNumbers.fastDouble(text, start, pos);
    if (Double.isNaN(d)) {
      try {
        d = Double.parseDouble(text.subSequence(start, pos).toString()); // rare shapes
      } catch (NumberFormatException e) {
        return false;
      }
    }
    into.tag[s] = DOUBLE;
    into.bits[s] = Double.doubleToRawLongBits(d);
    return true;
  }

  /** Decodes the string at {@code pos} (its opening quote) onto {@code into}. */
  boolean string(StringBuilder into) {
    pos++;
    int n = text.length();
    while (true) {
      if (pos >= n) {
        return false;
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return true;
      }
      if (c != '\\') {
        into.append(c);
        continue;
      }
      if (pos >= n) {
        return false;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"': case '\\': case '/': into.append(e); break;
        case 'b': into.append('\b'); break;
        case 'f': into.append('\f'); break;
        case 'n': into.append('\n'); break;
        case 'r': into.append('\r'); break;
        case 't': into.append('\t'); break;
        case 'u': {
          if (pos + 4 > n) {
            return false;
          }
          int v = 0;
          for (int k = 0; k < 4; k++) {
            int h = Character.digit(text.charAt(pos + k), 16);
            if (h < 0 || text.charAt(pos + k) > 'f') {
              return false; // no fullwidth digits: the tree path decides those
            }
            v = v * 16 + h;
          }
          into.append((char) v);
          pos += 4;
          break;
        }
        default:
          return false;
      }
    }
  }

  private boolean word(String w) {
    int n = w.length();
    if (pos + n > text.length()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (text.charAt(pos + i) != w.charAt(i)) {
        return false;
      }
    }
    pos += n;
    return true;
  }

  char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  void blank() {
    int n = text.length();
    while (pos < n) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  /** Returns slot {@code s}'s kind, as the tree path's value would have. */
  ValueKind kind(int s) {
    switch (done.tag[s]) {
      case TEXT: return ValueKind.TEXT;
      case BOOL: return ValueKind.BOOLEAN;
      case LONG: return ValueKind.LONG;
      case DOUBLE: return ValueKind.DOUBLE;
      case NULL: return ValueKind.NULL;
      case BIG: return ValueKind.BIG_INTEGER;
      case ARRAY: return ValueKind.SEQUENCE;
      default: return ValueKind.MAP;
    }
  }

  /**
   * Returns slot {@code s} as an object: a String, Boolean, Long, Double, BigInteger, null, or
   * the {@link Node} of an array or object. Allocates (but for a node): for the rare callers.
   */
  Object boxed(int s) {
    switch (done.tag[s]) {
      case TEXT: return chars.substring(done.start[s], done.end[s]);
      case BOOL: return done.bits[s] != 0;
      case LONG: return done.bits[s];
      case DOUBLE: return Double.longBitsToDouble(done.bits[s]);
      case NULL: return null;
      case BIG: return big(s);
      default: return node(s);
    }
  }

  /** Returns slot {@code s}'s long, or its double's bits, or 1/0 for a boolean. */
  long bits(int s) {
    return done.bits[s];
  }

  /** Returns text slot {@code s}, a view valid until the next call. */
  CharSequence text(int s) {
    return textView.of(chars, done.start[s], done.end[s]);
  }

  /** Returns the key of member slot {@code s}, a view valid until the next call. */
  CharSequence key(int s) {
    return keyView.of(chars, done.keyStart[s], done.keyEnd[s]);
  }

  /** Returns big-integer slot {@code s} as a new BigInteger (the one value that allocates). */
  BigInteger big(int s) {
    return new BigInteger(chars.substring(done.start[s], done.end[s]));
  }

  /** Returns the node of array or object slot {@code s}. */
  Node node(int s) {
    return nodes[(int) done.bits[s]];
  }

  private void render(StringBuilder sb, Node n) {
    sb.append(n.object ? '{' : '[');
    for (int k = 0; k < n.count && sb.length() < 200; k++) {
      int s = n.first + k;
      sb.append(k == 0 ? "" : ",");
      if (n.object) {
        sb.append('"').append(chars, done.keyStart[s], done.keyEnd[s]).append("\":");
      }
      switch (done.tag[s]) {
        case TEXT: sb.append('"').append(chars, done.start[s], done.end[s]).append('"'); break;
        case ARRAY: case OBJECT: render(sb, node(s)); break;
        default: sb.append(boxed(s)); break;
      }
    }
    sb.append(n.object ? '}' : ']');
  }
}
