package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads JSON text of a JSON column into a flat document it keeps between rows, without
 * allocating in steady state: every key's dotted path as a range of one reused buffer, every
 * leaf (a string, a boolean, an integer of 64 bits, any other number) as a tagged entry of reused
 * primitive arrays, strings as ranges of a second buffer. It gives the same leaves, in the same
 * order, as {@link JsonText} followed by the tree walk of {@link JsonPaths}.
 *
 * <p>It handles the common shapes only and says "no" ({@link #read} returns false) for the rest,
 * which the tree path then reads (and reports, for bad text): an array anywhere, an integer beyond
 * 64 bits, an object or array on a typed path, a key path seen twice in the text (a repeated
 * field or the same dotted path spelled two ways), nesting deeper than 500 levels, a {@code \\u}
 * escape that is not four hex digits, any text that does not parse.
 */
final class JsonFlat {
  /** The accessor of a leaf: the container is the document, the field the leaf's index. */
  static final RowAccessor<Object> LEAVES = new JsonFlatLeaves();

  private static final int TEXT = 0;
  private static final int BOOL = 1;
  private static final int LONG = 2;
  private static final int DOUBLE = 3;
  private static final int MAX_DEPTH = 500;

  private final String[] typedNames;
  private final String[] skip;
  private final Matcher[] skipRegexps;

  private CharSequence text;
  private int pos;
  /** The path of the key being read ({@code a.b.c}). */
  private final StringBuilder path = new StringBuilder();
  /** Every key's path, back to back. */
  private final StringBuilder names = new StringBuilder();
  /** Every string leaf's decoded chars, back to back. */
  private final StringBuilder chars = new StringBuilder();
  private final CharRange nameView = new CharRange();
  private final CharRange textView = new CharRange();

  private int keys;
  private int[] keyStart = new int[16];
  private int[] keyEnd = new int[16];
  private int[] keyHash = new int[16];

  private int leaves;
  private int[] leafKey = new int[16];
  private int[] leafTyped = new int[16];
  private int[] tag = new int[16];
  private long[] bits = new long[16];
  private int[] textStart = new int[16];
  private int[] textEnd = new int[16];

  private final PathTable table = new PathTable();

  JsonFlat(List<String> typedNames, List<String> skip, List<String> skipRegexps) {
    this.typedNames = typedNames.toArray(new String[0]);
    this.skip = skip.toArray(new String[0]);
    this.skipRegexps = new Matcher[skipRegexps.size()];
    for (int i = 0; i < this.skipRegexps.length; i++) {
      this.skipRegexps[i] = Pattern.compile(skipRegexps.get(i)).matcher("");
    }
  }

  /**
   * Reads {@code json} into this document, replacing the previous one; returns false (the
   * document then holds nothing) for a shape or text it leaves to the tree path.
   */
  boolean read(CharSequence json) {
    text = json;
    pos = 0;
    keys = 0;
    leaves = 0;
    path.setLength(0);
    names.setLength(0);
    chars.setLength(0);
    boolean ok;
    try {
      blank();
      ok = peek() == '{' && object(0, true);
      if (ok) {
        blank();
        ok = pos == json.length() && unique();
      }
    } finally {
      text = null;
    }
    if (!ok) {
      keys = 0;
      leaves = 0;
    }
    return ok;
  }

  /** Returns the number of leaves. */
  int size() {
    return leaves;
  }

  /** Returns the index of leaf {@code i}'s path among the typed paths, or -1. */
  int typed(int i) {
    return leafTyped[i];
  }

  /** Returns leaf {@code i}'s path, a view valid until the next call. */
  CharSequence name(int i) {
    int k = leafKey[i];
    return nameView.of(names, keyStart[k], keyEnd[k]);
  }

  /**
   * Returns leaf {@code i}'s path as a String: the one returned before for the same path (the
   * first 2,048 distinct paths are kept), else a new one.
   */
  String nameString(int i) {
    int k = leafKey[i];
    return table.intern(names, keyStart[k], keyEnd[k], keyHash[k]);
  }

  private boolean object(int depth, boolean record) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    pos++;
    blank();
    if (peek() == '}') {
      pos++;
      return true;
    }
    int parent = path.length();
    while (true) {
      blank();
      if (peek() != '"' || !string(path)) {
        return false;
      }
      addKey(parent);
      boolean recordThis = record && !skipped();
      int typedAt = recordThis ? typedIndex() : -1;
      blank();
      if (peek() != ':') {
        return false;
      }
      pos++;
      blank();
      char c = peek();
      if (c == '{') {
        if (typedAt >= 0) {
          return false; // a Tuple or Map on a typed path: the tree path writes it
        }
        path.append('.');
        if (!object(depth + 1, recordThis)) {
          return false;
        }
      } else if (!scalar(recordThis, typedAt)) {
        return false;
      }
      path.setLength(parent);
      blank();
      c = peek();
      if (c == ',') {
        pos++;
      } else if (c == '}') {
        pos++;
        return true;
      } else {
        return false;
      }
    }
  }

  /** Reads a scalar (no array, no object) and, when {@code record}, adds it as a leaf. */
  private boolean scalar(boolean record, int typedAt) {
    char c = peek();
    int leaf = leaves;
    if (record && c != 'n') {
      growLeaves();
      leafKey[leaf] = keys - 1;
      leafTyped[leaf] = typedAt;
    }
    switch (c) {
      case '"': {
        int start = chars.length();
        if (!string(chars)) {
          return false;
        }
        if (record) {
          tag[leaf] = TEXT;
          textStart[leaf] = start;
          textEnd[leaf] = chars.length();
          leaves++;
        } else {
          chars.setLength(start);
        }
        return true;
      }
      case 't':
      case 'f':
        if (!word(c == 't' ? "true" : "false")) {
          return false;
        }
        if (record) {
          tag[leaf] = BOOL;
          bits[leaf] = c == 't' ? 1 : 0;
          leaves++;
        }
        return true;
      case 'n':
        return word("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          if (!number(leaf)) {
            return false;
          }
          if (record) {
            leaves++;
          }
          return true;
        }
        return false; // an array, or not JSON
    }
  }

  /** Reads a number into leaf {@code leaf}'s slots (grown already when recorded). */
  private boolean number(int leaf) {
    int start = pos;
    int end = JsonNumbers.scanEnd(text, pos);
    boolean integral = end >= 0;
    pos = integral ? end : ~end;
    boolean keep = leaf < tag.length;
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
          return false; // beyond 64 bits: a BigInteger, the tree path's
        }
        acc = acc * 10 - d;
      }
      long v = negative ? acc : -acc;
      if (keep) {
        tag[leaf] = LONG;
        bits[leaf] = v;
      }
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
    if (keep) {
      tag[leaf] = DOUBLE;
      bits[leaf] = Double.doubleToRawLongBits(d);
    }
    return true;
  }

  /** Decodes the string at {@code pos} (its opening quote) onto {@code into}. */
  private boolean string(StringBuilder into) {
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

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void blank() {
    int n = text.length();
    while (pos < n) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  /** Adds {@link #path} as a key; {@code parent} is where its own name starts. */
  private void addKey(int parent) {
    if (keys == keyStart.length) {
      int n = keys * 2;
      keyStart = Arrays.copyOf(keyStart, n);
      keyEnd = Arrays.copyOf(keyEnd, n);
      keyHash = Arrays.copyOf(keyHash, n);
    }
    int start = names.length();
    int h = 0;
    int len = path.length();
    for (int i = 0; i < len; i++) {
      char c = path.charAt(i);
      names.append(c);
      h = 31 * h + c;
    }
    keyStart[keys] = start;
    keyEnd[keys] = names.length();
    keyHash[keys] = h;
    keys++;
  }

  private void growLeaves() {
    if (leaves == tag.length) {
      int n = leaves * 2;
      leafKey = Arrays.copyOf(leafKey, n);
      leafTyped = Arrays.copyOf(leafTyped, n);
      tag = Arrays.copyOf(tag, n);
      bits = Arrays.copyOf(bits, n);
      textStart = Arrays.copyOf(textStart, n);
      textEnd = Arrays.copyOf(textEnd, n);
    }
  }

  /** Whether {@link #path} is a SKIP path, under one, or found by a SKIP REGEXP. */
  private boolean skipped() {
    int len = path.length();
    for (String s : skip) {
      int n = s.length();
      if ((len == n || (len > n && path.charAt(n) == '.')) && startsWith(s)) {
        return true;
      }
    }
    for (Matcher m : skipRegexps) {
      boolean found = m.reset(path).find();
      m.reset("");
      if (found) {
        return true;
      }
    }
    return false;
  }

  private boolean startsWith(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (path.charAt(i) != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int typedIndex() {
    int len = path.length();
    for (int t = 0; t < typedNames.length; t++) {
      if (typedNames[t].length() == len && startsWith(typedNames[t])) {
        return t;
      }
    }
    return -1;
  }

  /** Whether no key path is there twice (else the tree path reads and reports the text). */
  private boolean unique() {
    return table.unique(names, keyStart, keyEnd, keyHash, keys);
  }

  /** Returns leaf {@code i}'s kind. */
  ValueKind kind(int i) {
    switch (tag[i]) {
      case TEXT: return ValueKind.TEXT;
      case BOOL: return ValueKind.BOOLEAN;
      case LONG: return ValueKind.LONG;
      default: return ValueKind.DOUBLE;
    }
  }

  /** Returns leaf {@code i} boxed (a String, Boolean, Long or Double): for the rare callers. */
  Object boxed(int i) {
    switch (tag[i]) {
      case TEXT: return chars.substring(textStart[i], textEnd[i]);
      case BOOL: return bits[i] != 0;
      case LONG: return bits[i];
      default: return Double.longBitsToDouble(bits[i]);
    }
  }

  /** Returns leaf {@code i}'s long, or its double's bits, or 1/0 for a boolean. */
  long bits(int i) {
    return bits[i];
  }

  /** Returns text leaf {@code i}, a view valid until the next call. */
  CharSequence text(int i) {
    return textView.of(chars, textStart[i], textEnd[i]);
  }
}
