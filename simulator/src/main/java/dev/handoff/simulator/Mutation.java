package dev.handoff.simulator;

/**
 * The negative controls: deliberately broken variants of the stage (or of the sink worker), each
 * of which some oracle must catch. {@link #NONE} is the real, unbroken system.
 */
enum Mutation {
  /** The real system. */
  NONE("none", null),
  /** The stage offers a new chunk to its queue while older chunks of its shard are parked. */
  SEND_PAST_PARKED("send-past-parked", "per-shard-order"),
  /** The sink worker abandons a chunk without releasing its bytes from the budget. */
  ABANDON_KEEPS_BUDGET("abandon-keeps-budget", "budget-exact"),
  /** The stage's teardown leaves the acks of a partial (open) buffer unresolved. */
  KEEP_PARTIAL_ACKS("keep-partial-acks", "acks-resolved"),
  /** The stage drops a record without counting it as skipped; its batch is acked as delivered. */
  DROP_RECORD("drop-record", "no-loss"),
  /** The stage still sends parked chunks after a fatal error. */
  SEND_AFTER_FATAL("send-after-fatal", "nothing-after-fatal"),
  /** The stage skips a record under SKIP without counting it as skipped. */
  UNCOUNTED_SKIP("uncounted-skip", "skipped-equals-injected"),
  /** The stage does not count an encode error in its metrics. */
  UNCOUNTED_ERROR("uncounted-error", "metrics-exact"),
  /** The stage's teardown does not count the parked chunks it fails back in its report. */
  UNCOUNTED_FAILBACK("uncounted-failback", "shard-report-exact"),
  /** The stage's relieve() never drains parked chunks, so the driver backs off forever. */
  RELIEVE_NEVER_DRAINS("relieve-never-drains", "liveness"),
  /** The driver pulls while the stage is blocked or the budget is full. */
  IGNORE_BACKPRESSURE("ignore-backpressure", "backpressure"),
  /** The source's checkpoint tracker reports one batch less than was delivered. */
  CHECKPOINT_LAGS("checkpoint-lags", "checkpoint-exact"),
  /** A sealed chunk claims one row more than it holds. */
  MISCOUNT_ROWS("miscount-rows", "chunk-integrity"),
  /** The stage's push throws now and then. */
  THROW_ON_PUSH("throw-on-push", "no-exception");

  final String knobValue;
  /** The oracle expected to catch it; null for {@link #NONE}. */
  final String caughtBy;

  Mutation(String knobValue, String caughtBy) {
    this.knobValue = knobValue;
    this.caughtBy = caughtBy;
  }

  static String[] names() {
    Mutation[] all = values();
    String[] names = new String[all.length];
    for (int i = 0; i < all.length; i++) {
      names[i] = all[i].knobValue;
    }
    return names;
  }

  static Mutation of(String knobValue) {
    for (Mutation m : values()) {
      if (m.knobValue.equals(knobValue)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown mutation " + knobValue);
  }
}
