package dev.handoff.simulator;

/**
 * The records every source produces, fixed by the seed before the run starts: how many each
 * source has, where its batches begin, and each record's key and per-key sequence number. A
 * source that replays after a restart produces exactly the same batches again.
 */
final class Workload {
  final int sources;
  final int records;
  /** First run-wide record id of each source; {@code base[sources] == records}. */
  final int[] base;
  /** Per source: the record number each batch starts at; the last entry is the source's size. */
  final int[][] batchStart;
  /** Per record id: its key within its source. */
  final int[] key;
  /** Per record id: its sequence number within its key. */
  final int[] keySeq;
  /** Per record: the bytes of its pad column. */
  final int[] pad;
  /** Per record: a poison pill, bad in every lifetime (see {@link Engine}). */
  final boolean[] poison;

  Workload(long seed, int records, int sources, int maxBatch, int keys) {
    this(seed, records, sources, maxBatch, keys, 0, 0);
  }

  Workload(long seed, int records, int sources, int maxBatch, int keys, int maxPad,
      double poisonRate) {
    this.pad = new int[records];
    this.poison = new boolean[records];
    Rng pr = Rng.derive(seed, 999);
    for (int id = 0; id < records; id++) {
      // Mostly short rows with now and then a long one, so chunks seal at varying fill levels.
      pad[id] = maxPad == 0 ? 0 : pr.nextInt(8) == 0 ? pr.nextInt(maxPad + 1)
          : pr.nextInt(Math.min(maxPad, 16) + 1);
      poison[id] = poisonRate > 0 && pr.chance(poisonRate);
    }
    this.sources = sources;
    this.records = records;
    this.base = new int[sources + 1];
    this.batchStart = new int[sources][];
    this.key = new int[records];
    this.keySeq = new int[records];
    int per = records / sources;
    int extra = records % sources;
    for (int s = 0; s < sources; s++) {
      base[s + 1] = base[s] + per + (s < extra ? 1 : 0);
    }
    for (int s = 0; s < sources; s++) {
      Rng r = Rng.derive(seed, 1000 + s);
      int size = base[s + 1] - base[s];
      int[] starts = new int[Math.max(1, size) + 1];
      int batches = 0;
      for (int n = 0; n < size; ) {
        starts[batches++] = n;
        n += 1 + r.nextInt(maxBatch);
      }
      starts[batches] = size;
      batchStart[s] = java.util.Arrays.copyOf(starts, batches + 1);
      int[] seqOfKey = new int[keys];
      for (int n = 0; n < size; n++) {
        int k = r.nextInt(keys);
        key[base[s] + n] = k;
        keySeq[base[s] + n] = seqOfKey[k]++;
      }
    }
  }

  /** Returns how many batches source {@code s} has. */
  int batches(int s) {
    return batchStart[s].length - 1;
  }

  /** Returns the routing key of source {@code s}'s key {@code k}: stable and distinct. */
  static long routingKey(int s, int k) {
    return Rng.mix(((long) s << 32) | k);
  }
}
