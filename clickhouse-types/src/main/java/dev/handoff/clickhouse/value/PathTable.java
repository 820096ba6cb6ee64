package dev.handoff.clickhouse.value;

import java.util.Arrays;

/**
 * The hash tables of {@link JsonFlat}, over paths held as ranges of one buffer: whether a
 * document's key paths (or an object's keys) are all different, and the path Strings handed out before (so that the
 * same path is the same String, row after row). Both allocate nothing in steady state.
 */
final class PathTable {
  /** How many distinct path Strings {@link #intern} keeps (a column's paths, usually few). */
  private static final int INTERNED = 2048;
  private final String[] interned = new String[INTERNED * 2];
  private int internedCount;

  private int[] slots = new int[64];
  private int[] slotStamp = new int[64];
  private int stamp;

  /**
   * Returns the path {@code names[start, end)} (whose String hash is {@code hash}) as a String:
   * the one returned before, else a new one (kept while fewer than {@value #INTERNED} are).
   */
  String intern(StringBuilder names, int start, int end, int hash) {
    int mask = interned.length - 1;
    for (int s = (hash ^ (hash >>> 16)) & mask; ; s = (s + 1) & mask) {
      String p = interned[s];
      if (p == null) {
        p = names.substring(start, end);
        if (internedCount < INTERNED) {
          interned[s] = p;
          internedCount++;
        }
        return p;
      }
      if (p.hashCode() == hash && same(p, names, start, end)) {
        return p;
      }
    }
  }

  private static boolean same(String p, StringBuilder names, int start, int end) {
    if (p.length() != end - start) {
      return false;
    }
    for (int i = start; i < end; i++) {
      if (p.charAt(i - start) != names.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the paths {@code names[start[k], end[k])} for {@code k} in {@code [from, to)} are
   * all different.
   */
  boolean unique(StringBuilder names, int[] start, int[] end, int[] hash, int from, int to) {
    int keys = to - from;
    if (keys < 2) {
      return true;
    }
    int size = slots.length;
    while (size < keys * 2) {
      size *= 2;
    }
    if (size != slots.length) {
      slots = new int[size];
      slotStamp = new int[size];
      stamp = 0;
    }
    if (++stamp == 0) {
      Arrays.fill(slotStamp, 0);
      stamp = 1;
    }
    int mask = size - 1;
    for (int k = from; k < to; k++) {
      int h = hash[k];
      int s = (h ^ (h >>> 16)) & mask;
      while (slotStamp[s] == stamp) {
        int o = slots[s];
        if (hash[o] == h && sameRange(names, start[o], end[o], start[k], end[k])) {
          return false;
        }
        s = (s + 1) & mask;
      }
      slotStamp[s] = stamp;
      slots[s] = k;
    }
    return true;
  }

  private static boolean sameRange(StringBuilder names, int a, int aEnd, int b, int bEnd) {
    if (aEnd - a != bEnd - b) {
      return false;
    }
    for (int i = 0; i < aEnd - a; i++) {
      if (names.charAt(a + i) != names.charAt(b + i)) {
        return false;
      }
    }
    return true;
  }
}
