package dev.handoff.clickhouse.value;

import java.util.Arrays;

/**
 * Reused primitive arrays of the values of a {@link JsonFlatDoc}, one entry ("slot") per value:
 * its tag, its bits (a long, a double's bits, 1/0, a node's index), a range of the document's
 * chars (a string, the digits of a big integer) and, for an object member, its key's range and
 * hash. Grows by doubling and never shrinks.
 */
final class JsonSlots {
  int size;
  int[] tag = new int[16];
  long[] bits = new long[16];
  int[] start = new int[16];
  int[] end = new int[16];
  int[] keyStart = new int[16];
  int[] keyEnd = new int[16];
  int[] keyHash = new int[16];

  /** Adds a slot (its fields left as they were) and returns its index. */
  int add() {
    if (size == tag.length) {
      int n = size * 2;
      tag = Arrays.copyOf(tag, n);
      bits = Arrays.copyOf(bits, n);
      start = Arrays.copyOf(start, n);
      end = Arrays.copyOf(end, n);
      keyStart = Arrays.copyOf(keyStart, n);
      keyEnd = Arrays.copyOf(keyEnd, n);
      keyHash = Arrays.copyOf(keyHash, n);
    }
    return size++;
  }

  /** Appends slots {@code [from, to)} of {@code o}; returns the index of the first. */
  int copy(JsonSlots o, int from, int to) {
    int first = size;
    for (int i = from; i < to; i++) {
      int s = add();
      tag[s] = o.tag[i];
      bits[s] = o.bits[i];
      start[s] = o.start[i];
      end[s] = o.end[i];
      keyStart[s] = o.keyStart[i];
      keyEnd[s] = o.keyEnd[i];
      keyHash[s] = o.keyHash[i];
    }
    return first;
  }
}
