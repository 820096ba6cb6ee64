package dev.handoff.simulator;

import java.util.Arrays;

/**
 * The one event queue of a run: a binary heap ordered by virtual time, ties broken by the order
 * events were scheduled (a sequence number), so equal runs pop equal events in equal order. Events
 * are primitive (kind, argument, epoch), which keeps scheduling free of allocation.
 */
final class Scheduler {
  private long[] time = new long[64];
  private long[] seq = new long[64];
  private int[] kind = new int[64];
  private int[] arg = new int[64];
  private int[] epoch = new int[64];
  private int size;
  private long nextSeq;

  // The event popped last.
  long popTime;
  int popKind;
  int popArg;
  int popEpoch;

  void schedule(long at, int k, int a, int e) {
    if (size == time.length) {
      int n = size * 2;
      time = Arrays.copyOf(time, n);
      seq = Arrays.copyOf(seq, n);
      kind = Arrays.copyOf(kind, n);
      arg = Arrays.copyOf(arg, n);
      epoch = Arrays.copyOf(epoch, n);
    }
    int i = size++;
    long s = nextSeq++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(at, s, time[parent], seq[parent])) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, at, s, k, a, e);
  }

  /** Returns the time of the next event; only when not {@link #isEmpty()}. */
  long peekTime() {
    return time[0];
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Pops the earliest event into the {@code pop*} fields. */
  void pop() {
    popTime = time[0];
    popKind = kind[0];
    popArg = arg[0];
    popEpoch = epoch[0];
    int last = --size;
    if (last == 0) {
      return;
    }
    long t = time[last];
    long s = seq[last];
    int k = kind[last];
    int a = arg[last];
    int e = epoch[last];
    int i = 0;
    while (true) {
      int c = 2 * i + 1;
      if (c >= last) {
        break;
      }
      if (c + 1 < last && less(time[c + 1], seq[c + 1], time[c], seq[c])) {
        c++;
      }
      if (!less(time[c], seq[c], t, s)) {
        break;
      }
      move(c, i);
      i = c;
    }
    set(i, t, s, k, a, e);
  }

  private static boolean less(long t1, long s1, long t2, long s2) {
    return t1 < t2 || (t1 == t2 && s1 < s2);
  }

  private void move(int from, int to) {
    time[to] = time[from];
    seq[to] = seq[from];
    kind[to] = kind[from];
    arg[to] = arg[from];
    epoch[to] = epoch[from];
  }

  private void set(int i, long t, long s, int k, int a, int e) {
    time[i] = t;
    seq[i] = s;
    kind[i] = k;
    arg[i] = a;
    epoch[i] = e;
  }
}
