package dev.handoff.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * The event log of a run: a running hash over every event (what happened, when, to what) and the
 * last {@value #KEEP} events kept as numbers, turned into text only when an oracle fails.
 */
final class EventLog {
  static final int KEEP = 32;

  // What an event did.
  static final int PULLED = 0;
  static final int BACKOFF = 1;
  static final int DRIVER_DONE = 2;
  static final int CRASH = 3;
  static final int TEARDOWN = 4;
  static final int STALL = 5;
  static final int IDLE = 6;
  static final int WROTE = 7;
  static final int TRANSIENT = 8;
  static final int ABANDONED = 9;
  static final int DEADLINE = 10;
  static final int EPOCH_START = 11;
  static final int EPOCH_END = 12;
  static final int TOOK = 13;
  static final int AGED = 14;
  static final int STUCK = 15;
  static final int PERMANENT = 16;
  static final int TIMEOUT = 17;
  static final int DEAD_LETTERED = 18;
  static final int SHUTDOWN = 19;
  static final int SHUT_DOWN = 20;

  private static final String[] WHAT = {"driver pulled a payload", "driver backed off",
      "driver done (stage closed)", "process crashed", "teardown requested", "worker stalled",
      "worker idle", "worker wrote chunk", "sink write failed transiently",
      "worker abandoned chunk", "drain deadline reached", "process started",
      "process lifetime ended", "worker took chunk while the payload was being pushed",
      "timer sealed aged chunks", "sink write stuck", "sink write failed permanently",
      "sink wrote the insert but the answer was lost", "rows dead-lettered",
      "workers' shutdown began (deadline)", "workers shut down (ticks, drained)"};

  private final long[] tick = new long[KEEP];
  private final int[] epoch = new int[KEEP];
  private final int[] what = new int[KEEP];
  private final int[] who = new int[KEEP];
  private final long[] x = new long[KEEP];
  private final long[] y = new long[KEEP];
  private long count;
  private long hash = 0xCBF29CE484222325L;

  void add(long t, int e, int w, int shard, long a, long b) {
    int i = (int) (count++ % KEEP);
    tick[i] = t;
    epoch[i] = e;
    what[i] = w;
    who[i] = shard;
    x[i] = a;
    y[i] = b;
    long h = hash;
    h = Rng.mix(h ^ t);
    h = Rng.mix(h ^ ((long) e << 40 | (long) w << 20 | (shard & 0xFFFFF)));
    h = Rng.mix(h ^ a);
    hash = Rng.mix(h ^ b);
  }

  long hash() {
    return hash;
  }

  long count() {
    return count;
  }

  /** Returns the kept events, oldest first, as text. */
  List<String> lastEvents() {
    List<String> out = new ArrayList<>();
    long first = Math.max(0, count - KEEP);
    for (long n = first; n < count; n++) {
      int i = (int) (n % KEEP);
      StringBuilder sb = new StringBuilder();
      sb.append("#").append(n).append(" t=").append(tick[i]).append(" epoch ").append(epoch[i])
          .append(": ").append(WHAT[what[i]]);
      if (who[i] >= 0) {
        sb.append(" (shard ").append(who[i]).append(')');
      }
      switch (what[i]) {
        case WROTE:
        case ABANDONED:
        case TRANSIENT:
        case TOOK:
          sb.append(": chunk ").append(x[i]).append(", ").append(y[i]).append(" rows");
          break;
        case PULLED:
          sb.append(": source ").append(x[i]).append(" batch ").append(y[i]);
          break;
        case BACKOFF:
          sb.append(": ").append(x[i]).append(" parked, budget ").append(y[i]).append(" bytes");
          break;
        case STALL:
          sb.append(" for ").append(x[i]).append(" ticks");
          break;
        default:
          break;
      }
      out.add(sb.toString());
    }
    return out;
  }
}
