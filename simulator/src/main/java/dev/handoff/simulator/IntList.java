package dev.handoff.simulator;

import java.util.Arrays;

/** A growable list of ints, without boxing. */
final class IntList {
  private int[] a = new int[16];
  private int size;

  void add(int v) {
    if (size == a.length) {
      a = Arrays.copyOf(a, size * 2);
    }
    a[size++] = v;
  }

  int size() {
    return size;
  }

  /** Returns the value at {@code i} (below {@link #size()}). */
  int get(int i) {
    return a[i];
  }

  int[] toArray() {
    return Arrays.copyOf(a, size);
  }

  void clear() {
    size = 0;
  }
}
