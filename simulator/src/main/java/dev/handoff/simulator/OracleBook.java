package dev.handoff.simulator;

import dev.handoff.simulator.report.OracleResult;
import java.util.ArrayList;
import java.util.List;

/** Counts the checks of every oracle and keeps each one's first failure. */
final class OracleBook {
  static final int PER_SHARD_ORDER = 0;
  static final int NO_LOSS = 1;
  static final int CHUNK_INTEGRITY = 2;
  static final int BUDGET_EXACT = 3;
  static final int ACKS_RESOLVED = 4;
  static final int CHECKPOINT_EXACT = 5;
  static final int NOTHING_AFTER_FATAL = 6;
  static final int SKIPPED_EQUALS_INJECTED = 7;
  static final int METRICS_EXACT = 8;
  static final int SHARD_REPORT_EXACT = 9;
  static final int BACKPRESSURE = 10;
  static final int LIVENESS = 11;
  static final int NO_EXCEPTION = 12;
  static final int MAX_CHUNK_AGE = 13;
  static final int DRAIN_BOUNDED = 14;
  static final int PARKED_EXACT = 15;
  static final int SEAL_POSITION = 16;
  static final int CHUNK_METADATA = 17;
  static final int SETTLED_ONCE = 18;
  static final int INSERT_LIMITS = 19;
  static final int GAUGES_EXACT = 20;

  final long[] checks = new long[Oracles.NAMES.size()];
  private final String[] failure = new String[Oracles.NAMES.size()];
  private final long[] atEvent = new long[Oracles.NAMES.size()];
  private boolean failed;
  long event;

  OracleBook() {
    java.util.Arrays.fill(atEvent, -1);
  }

  /** Records a failure of {@code oracle} (only its first one is kept). */
  void fail(int oracle, String why) {
    checks[oracle]++;
    if (failure[oracle] == null) {
      failure[oracle] = why;
      atEvent[oracle] = event;
    }
    failed = true;
  }

  boolean anyFailed() {
    return failed;
  }

  List<OracleResult> results() {
    List<OracleResult> r = new ArrayList<>(Oracles.NAMES.size());
    for (int i = 0; i < Oracles.NAMES.size(); i++) {
      r.add(new OracleResult(Oracles.NAMES.get(i), failure[i] == null, checks[i], failure[i],
          atEvent[i]));
    }
    return r;
  }
}
