package dev.handoff.simulator;

/**
 * The negative controls: deliberately broken variants, each of which one oracle must catch. They
 * are built around the real core classes, never inside them: decorators of the stage and of what
 * it is given or what the simulator reads ({@link StageVariants}), of the chunks the sink workers
 * take ({@link QueueView}). {@link #NONE} is
 * the real, unbroken system.
 */
enum Mutation {
  /** The real system. */
  NONE("none", null),
  /** A shard's chunks reach its sink out of seal order: a newer one overtakes an older one. */
  SEND_PAST_PARKED("send-past-parked", "per-shard-order"),
  /** The stage's teardown leaves the acks it should fail (parked and open chunks) unresolved. */
  KEEP_PARTIAL_ACKS("keep-partial-acks", "acks-resolved"),
  /** The stage drops a record without counting it as skipped; its batch is acked as delivered. */
  DROP_RECORD("drop-record", "no-loss"),
  /** The stage never stops: after a fatal error it goes on with a fresh stage and keeps sending. */
  SEND_AFTER_FATAL("send-after-fatal", "nothing-after-fatal"),
  /** The stage skips a record under SKIP without counting it as skipped. */
  UNCOUNTED_SKIP("uncounted-skip", "skipped-equals-injected"),
  /** The stage does not count an encode error in its metrics. */
  UNCOUNTED_ERROR("uncounted-error", "metrics-exact"),
  /** The stage's teardown does not count the parked chunks it fails back in its report. */
  UNCOUNTED_FAILBACK("uncounted-failback", "shard-report-exact"),
  /** The stage's relieve() never drains parked chunks, so the driver backs off forever. */
  RELIEVE_NEVER_DRAINS("relieve-never-drains", "liveness"),
  /** The stage's pressure() says CONTINUE while it is blocked or the budget is full. */
  IGNORE_BACKPRESSURE("ignore-backpressure", "backpressure"),
  /** The checkpoint the source's tracker reports is one batch behind the batches delivered. */
  CHECKPOINT_LAGS("checkpoint-lags", "checkpoint-exact"),
  /** A chunk the sink takes claims one row more than it holds. */
  MISCOUNT_ROWS("miscount-rows", "chunk-metadata"),
  /** The stage's push throws now and then. */
  THROW_ON_PUSH("throw-on-push", "no-exception"),
  /** The stage never seals a chunk for its age: the timer's sealAged() and pressure() skip it. */
  NEVER_SEALS_AGED("never-seals-aged", "max-chunk-age");

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
