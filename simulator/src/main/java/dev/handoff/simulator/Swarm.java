package dev.handoff.simulator;

/**
 * Draws a whole configuration from a seed (swarm testing, as in TigerBeetle's VOPR): every seed
 * explores a different mix of sizes and faults. Each fault is switched on with probability one
 * half, so most runs combine a few faults instead of all of them at once.
 */
final class Swarm {
  private static final String[] RATES = {"0.0005", "0.001", "0.002", "0.005", "0.01", "0.02",
      "0.05"};

  private Swarm() {}

  static String[] draw(long seed, String[] v) {
    Rng r = Rng.derive(seed, 0x5A4A_4D00L);
    v[KnobSpec.SHARDS] = Long.toString(r.between(1, 8));
    v[KnobSpec.QUEUE_CAPACITY] = Long.toString(pick(r, 1, 2, 3, 4, 8, 16));
    // Targets that are not powers of two, and budgets and insert limits at exact multiples of
    // what one chunk weighs, one byte either side: "exactly at the limit" happens.
    int target = r.nextInt(4) == 0 ? (int) pick(r, 32, 4096) : (int) r.between(20, 700);
    v[KnobSpec.TARGET_BYTES] = Integer.toString(target);
    long array = dev.handoff.core.ChunkPool.arrayLengthFor(target);
    v[KnobSpec.BUDGET_BYTES] = r.nextInt(4) == 0 ? "none"
        : Long.toString(Math.max(1, r.between(1, 6) * array + r.between(-1, 1)));
    v[KnobSpec.ROW_PAD] = Long.toString(pick(r, 0, 0, 8, 40, 300, 2000));
    v[KnobSpec.MAX_INSERT_BYTES] = Long.toString(r.nextInt(4) == 0 ? 1 << 20
        : Math.max(1, r.between(1, 4) * (target + 26) + r.between(-1, 1)));
    v[KnobSpec.MAX_INSERT_ROWS] = Long.toString(r.nextInt(3) == 0 ? 100_000 : r.between(1, 40));
    v[KnobSpec.LINGER_TICKS] = Long.toString(r.between(0, 5));
    v[KnobSpec.POLL_TICKS] = Long.toString(r.between(4, 60));
    v[KnobSpec.GRACE_TICKS] = Long.toString(r.between(0, 80)); // shorter and longer than a poll
    v[KnobSpec.RETRY_ATTEMPTS] = Long.toString(r.between(1, 5));
    v[KnobSpec.RETRY_BACKOFF_TICKS] = Long.toString(r.between(1, 5));
    v[KnobSpec.ON_PERMANENT] = r.nextInt(4) == 0 ? "fail-acks" : "dead-letter";
    v[KnobSpec.SINK_TIMEOUT_RATE] = rate(r);
    v[KnobSpec.STUCK_RATE] = r.nextInt(4) == 0 ? "0.2" : "0";
    v[KnobSpec.DEAD_LETTER_ERROR_RATE] = r.nextInt(2) == 0 ? "0" : r.nextInt(2) == 0 ? "0.1"
        : "0.3";
    v[KnobSpec.SPLIT_REFUSE_RATE] = rate(r);
    v[KnobSpec.ENCODER] = r.nextInt(8) == 0 ? "native" : "rowbinary";
    v[KnobSpec.RECORDS] = Long.toString(pick(r, 200, 500, 1000, 1000, 2000));
    v[KnobSpec.SOURCES] = Long.toString(r.between(1, 4));
    v[KnobSpec.BATCH_RECORDS] = Long.toString(pick(r, 1, 4, 16, 64, 256));
    v[KnobSpec.KEYS] = Long.toString(pick(r, 1, 4, 16, 256));
    v[KnobSpec.ERROR_POLICY] = r.nextInt(4) == 0 ? "fail" : "skip";
    v[KnobSpec.RECORD_ERROR_RATE] = rate(r);
    v[KnobSpec.FATAL_ENCODE_RATE] = r.nextInt(4) == 0 ? rate(r, 3) : "0";
    v[KnobSpec.FATAL_FINISH_RATE] = r.nextInt(4) == 0 ? rate(r, 5) : "0";
    v[KnobSpec.STALL_RATE] = rate(r);
    v[KnobSpec.STALL_TICKS] = Long.toString(pick(r, 5, 20, 50, 200));
    v[KnobSpec.WRITE_TICKS] = Long.toString(pick(r, 1, 1, 2, 5));
    v[KnobSpec.SINK_TRANSIENT_RATE] = rate(r);
    v[KnobSpec.SINK_PERMANENT_RATE] = rate(r);
    v[KnobSpec.TEARDOWN_AT] = r.nextInt(3) == 0 ? Long.toString(r.between(0, 400)) : "none";
    v[KnobSpec.DRAIN_DEADLINE] = r.nextInt(2) == 0 ? Long.toString(pick(r, 0, 10, 100, 1000))
        : "none";
    v[KnobSpec.RESTART_RATE] = r.nextInt(3) == 0 ? rate(r, 4) : "0";
    v[KnobSpec.FAULT_EPOCHS] = Long.toString(r.between(1, 4));
    v[KnobSpec.SOURCE_ERROR_RATE] = r.nextInt(4) == 0 ? rate(r, 4) : "0";
    v[KnobSpec.ROUTER_ERROR_RATE] = r.nextInt(6) == 0 ? rate(r, 2) : "0";
    v[KnobSpec.INTERLEAVE] = r.nextInt(2) == 0 ? "1" : Long.toString(r.between(2, 4));
    int router = r.nextInt(8);
    v[KnobSpec.ROUTER] = router == 0 ? "round-robin" : router == 1 ? "single-shard" : "key-hash";
    // Ages at the boundaries: the smallest, around the driver's longest back-off (16 ticks) and
    // a stall's length, and the core's default (1 s).
    v[KnobSpec.MAX_CHUNK_AGE] = Long.toString(pick(r, 1, 2, 3, 15, 16, 17, 50, 1000));
    // Poison pills: the encoder refuses them under skip; the sink under dead-letter. Under fail
    // with fail-acks they would replay forever, as they do in production.
    boolean poisonOk = v[KnobSpec.ERROR_POLICY].equals("skip")
        || v[KnobSpec.ON_PERMANENT].equals("dead-letter");
    v[KnobSpec.POISON_RATE] = poisonOk && r.nextInt(4) == 0 ? rate(r, 5) : "0";
    // Drawn last, so every earlier knob of a seed stays what it was: a retry budget that runs out
    // after a few backoffs, one tick either side of their sums now and then.
    long first = Long.parseLong(v[KnobSpec.RETRY_BACKOFF_TICKS]);
    v[KnobSpec.RETRY_MAX_ELAPSED_TICKS] = r.nextInt(3) != 0 ? "none"
        : Long.toString(r.between(0, 6 * first * Long.parseLong(v[KnobSpec.RETRY_ATTEMPTS]) + 4));
    for (KnobSpec s : KnobSpec.ALL) {
      v[s.index] = s.normalize(v[s.index]); // the spelling parse() gives, so replays compare equal
    }
    return v;
  }

  private static long pick(Rng r, long... choices) {
    return choices[r.nextInt(choices.length)];
  }

  /** Off half of the time, else one of the rates. */
  private static String rate(Rng r) {
    return r.nextInt(2) == 0 ? "0" : RATES[r.nextInt(RATES.length)];
  }

  /** One of the {@code n} smallest rates (for faults that end a process lifetime). */
  private static String rate(Rng r, int n) {
    return RATES[r.nextInt(n)];
  }
}
