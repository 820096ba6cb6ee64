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
    v[KnobSpec.TARGET_BYTES] = Long.toString(pick(r, 32, 64, 128, 256, 512, 1024, 4096));
    v[KnobSpec.BUDGET_BYTES] = r.nextInt(4) == 0 ? "none" : Long.toString(pick(r, 512, 2048,
        8192, 65536, 1 << 20));
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
