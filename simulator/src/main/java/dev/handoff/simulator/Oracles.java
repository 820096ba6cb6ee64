package dev.handoff.simulator;

import java.util.List;

/** The names of the oracles, in the order they are checked and reported. */
final class Oracles {
  static final String PER_SHARD_ORDER = "per-shard-order";
  static final String NO_LOSS = "no-loss";
  static final String CHUNK_INTEGRITY = "chunk-integrity";
  static final String BUDGET_EXACT = "budget-exact";
  static final String ACKS_RESOLVED = "acks-resolved";
  static final String CHECKPOINT_EXACT = "checkpoint-exact";
  static final String NOTHING_AFTER_FATAL = "nothing-after-fatal";
  static final String SKIPPED_EQUALS_INJECTED = "skipped-equals-injected";
  static final String METRICS_EXACT = "metrics-exact";
  static final String SHARD_REPORT_EXACT = "shard-report-exact";
  static final String BACKPRESSURE = "backpressure";
  static final String LIVENESS = "liveness";
  static final String NO_EXCEPTION = "no-exception";
  static final String MAX_CHUNK_AGE = "max-chunk-age";
  static final String DRAIN_BOUNDED = "drain-bounded";
  static final String PARKED_EXACT = "parked-exact";
  static final String SEAL_POSITION = "seal-position";
  static final String CHUNK_METADATA = "chunk-metadata";
  static final String SETTLED_ONCE = "settled-once";
  static final String INSERT_LIMITS = "insert-limits";
  static final String GAUGES_EXACT = "gauges-exact";

  static final List<String> NAMES = List.of(PER_SHARD_ORDER, NO_LOSS, CHUNK_INTEGRITY,
      BUDGET_EXACT, ACKS_RESOLVED, CHECKPOINT_EXACT, NOTHING_AFTER_FATAL,
      SKIPPED_EQUALS_INJECTED, METRICS_EXACT, SHARD_REPORT_EXACT, BACKPRESSURE, LIVENESS,
      NO_EXCEPTION, MAX_CHUNK_AGE, DRAIN_BOUNDED, PARKED_EXACT, SEAL_POSITION, CHUNK_METADATA,
      SETTLED_ONCE, INSERT_LIMITS, GAUGES_EXACT);

  private Oracles() {}
}
