package dev.handoff.simulator;

/**
 * A small, fast, seeded pseudo-random generator (SplitMix64). Every random decision of a run
 * comes from an {@code Rng} derived from the run's seed, so a seed replays exactly.
 */
final class Rng {
  private long state;

  Rng(long seed) {
    this.state = seed;
  }

  /** Returns a generator for a named stream of the same seed, independent of this one. */
  static Rng derive(long seed, long stream) {
    return new Rng(mix(seed ^ mix(stream + 0x632BE59BD9B4E019L)));
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  long nextLong() {
    return mix(state += 0x9E3779B97F4A7C15L);
  }

  /** Returns a value from 0 (inclusive) to {@code bound} (exclusive); {@code bound > 0}. */
  int nextInt(int bound) {
    return (int) (((nextLong() >>> 33) * bound) >>> 31);
  }

  /** Returns a value from {@code lo} to {@code hi}, both inclusive. */
  long between(long lo, long hi) {
    long span = hi - lo + 1;
    return lo + Math.floorMod(nextLong(), span);
  }

  double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Returns whether an event of probability {@code p} happens; draws nothing when p is 0. */
  boolean chance(double p) {
    return p > 0 && nextDouble() < p;
  }
}
