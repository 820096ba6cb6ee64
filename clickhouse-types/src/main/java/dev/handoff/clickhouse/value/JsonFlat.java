package dev.handoff.clickhouse.value;

import dev.handoff.api.row.RowAccessor;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads JSON text of a JSON column into a flat document it keeps between rows, without
 * allocating in steady state: every key's dotted path as a range of one reused buffer, every
 * leaf as a slot of reused primitive arrays ({@link JsonFlatDoc}): a string, a boolean, a
 * number, or an array or an object on a typed path as a node whose elements are slots too. It
 * gives the same leaves, in the same order, with the same values (read through {@link #LEAVES}),
 * as {@link JsonText} followed by the tree walk of {@link JsonPaths}.
 *
 * <p>It also flattens one object node of a document ({@link #flatten}): an element of an array
 * of objects written as a JSON value, as the tree walk does a map.
 *
 * <p>It says "no" ({@link #read} returns false) for the rest, which the tree path then reads
 * (and reports, for bad text): a key path seen twice in the text at the top level (a repeated
 * field, or the same dotted path spelled two ways even when one of them is null or skipped), a
 * repeated field in any object, nesting deeper than 500 levels, a {@code \\u} escape that is
 * not four hex digits, any text that does not parse.
 */
final class JsonFlat extends JsonFlatDoc {
  /**
   * The accessor of a leaf's value: the container is {@link #source}, the field {@link #slot};
   * it reads the nodes of arrays and objects too.
   */
  static final RowAccessor<Object> LEAVES = new JsonFlatLeaves();

  private final String[] typedNames;
  private final String[] skip;
  private final Matcher[] skipRegexps;

  /** The path of the key being read ({@code a.b.c}). */
  private final StringBuilder path = new StringBuilder();
  /** Every key's path, back to back. */
  private final StringBuilder names = new StringBuilder();
  private final CharRange nameView = new CharRange();

  private int keys;
  private int[] keyStart = new int[16];
  private int[] keyEnd = new int[16];
  private int[] keyHash = new int[16];

  private int leaves;
  private int[] leafKey = new int[16];
  private int[] leafTyped = new int[16];
  private int[] leafSlot = new int[16];
  /** The document whose slots the leaves are: this one, or the one of the node flattened. */
  private JsonFlatDoc source = this;

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
    reset(json);
    keys = 0;
    leaves = 0;
    path.setLength(0);
    names.setLength(0);
    source = this;
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

  /**
   * Reads the members of object {@code node} (of any document) as this document's leaves, as the
   * tree walk reads a map: nested objects walked into unless on a typed path, nulls left out,
   * SKIP paths left out. Returns false (the leaves then are none) when a path is there twice:
   * the tree walk reports that.
   */
  boolean flatten(Node node) {
    keys = 0;
    leaves = 0;
    path.setLength(0);
    names.setLength(0);
    source = node.doc;
    members(node);
    // Only the leaves' paths are keys here: a path twice is the tree walk's error exactly.
    if (!unique()) {
      keys = 0;
      leaves = 0;
      return false;
    }
    return true;
  }

  private void members(Node node) {
    JsonFlatDoc d = node.doc;
    JsonSlots v = d.done;
    int parent = path.length();
    for (int k = 0; k < node.count; k++) {
      int s = node.first + k;
      path.append(d.chars, v.keyStart[s], v.keyEnd[s]);
      if (!skipped()) {
        int t = typedIndex();
        if (t < 0 && v.tag[s] == OBJECT) {
          path.append('.');
          members(d.node(s));
        } else if (v.tag[s] != NULL) {
          addKey();
          addLeaf(t, s);
        }
      }
      path.setLength(parent);
    }
  }

  /** Returns the document whose slots the leaves are ({@link #LEAVES}'s container). */
  JsonFlatDoc source() {
    return source;
  }

  /** Returns leaf {@code i}'s slot in {@link #source} ({@link #LEAVES}'s field). */
  int slot(int i) {
    return leafSlot[i];
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
      addKey();
      boolean recordThis = record && !skipped();
      int typedAt = recordThis ? typedIndex() : -1;
      blank();
      if (peek() != ':') {
        return false;
      }
      pos++;
      blank();
      char c = peek();
      if (c == '{' && typedAt < 0) {
        path.append('.');
        if (!object(depth + 1, recordThis)) {
          return false;
        }
      } else {
        // A scalar, an array, or an object on a typed path (a node: a Tuple, Map, JSON value).
        if (!value(done, depth + 1)) {
          return false;
        }
        int s = done.size - 1;
        if (recordThis && done.tag[s] != NULL) {
          addLeaf(typedAt, s);
        } else {
          done.size = s; // a null or a skipped scalar (a skipped node's values stay, unread)
        }
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

  /** Adds {@link #path} as a key. */
  private void addKey() {
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

  /** Adds a leaf: the last key, its typed index, its slot in {@link #source}. */
  private void addLeaf(int typedAt, int slot) {
    if (leaves == leafKey.length) {
      int n = leaves * 2;
      leafKey = Arrays.copyOf(leafKey, n);
      leafTyped = Arrays.copyOf(leafTyped, n);
      leafSlot = Arrays.copyOf(leafSlot, n);
    }
    leafKey[leaves] = keys - 1;
    leafTyped[leaves] = typedAt;
    leafSlot[leaves] = slot;
    leaves++;
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
    return table.unique(names, keyStart, keyEnd, keyHash, 0, keys);
  }
}
