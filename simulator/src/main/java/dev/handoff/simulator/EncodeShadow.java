package dev.handoff.simulator;

/**
 * The engine's shadow of encoding: which record went into which open chunk, the bytes and the
 * oldest event time of each, and what each sealed chunk held. {@link SimEncoder} reports every
 * row encoded and every chunk sealed here; the seal-position and chunk-integrity checks of the
 * stage's side live here too.
 */
final class EncodeShadow {
  private final Engine e;

  EncodeShadow(Engine engine) {
    this.e = engine;
  }

  void encoded(int shard, SimRow row) {
    if (row.poisoned) {
      e.book.fail(OracleBook.SKIPPED_EQUALS_INJECTED, "the " + e.o.value(KnobSpec.ENCODER)
          + " encoder accepted " + row + " with the out-of-range value " + SimRow.POISON
          + " in a UInt16 column instead of failing with a DATA error");
    }
    Life l = e.cur;
    l.encodedOk++;
    if (l.open[shard].size() == 0) {
      l.openSince[shard] = e.clock.tick;
    }
    if (e.rowBinary) {
      // B4: a chunk seals right after the row that brings it to the target, never later.
      e.book.checks[OracleBook.SEAL_POSITION]++;
      if (l.openBytes[shard] >= e.target) {
        e.book.fail(OracleBook.SEAL_POSITION, "shard " + shard + "'s open chunk held "
            + l.openBytes[shard] + " bytes in " + l.open[shard].size() + " rows, at or past the"
            + " target " + e.target + ", yet " + row + " went into it instead of a new chunk");
      }
      l.openBytes[shard] += rowBytes(row.pad);
    }
    l.openOldestEvent[shard] = Math.min(l.openOldestEvent[shard],
        SimSources.eventTime(e.clock.tick, row.id));
    l.open[shard].add(row.id);
  }

  /** A RowBinary row's bytes: five fixed columns, then the pad's length and its bytes. */
  static int rowBytes(int pad) {
    return 26 + (pad < 0x80 ? 1 : pad < 0x4000 ? 2 : 3) + pad;
  }

  void sealed(int shard, int bytes) {
    Life l = e.cur;
    if (e.rowBinary) {
      e.book.checks[OracleBook.CHUNK_INTEGRITY]++;
      if (bytes != l.openBytes[shard]) {
        e.book.fail(OracleBook.CHUNK_INTEGRITY, "shard " + shard + " sealed a chunk of " + bytes
            + " bytes but the " + l.open[shard].size() + " rows encoded into it take "
            + l.openBytes[shard] + " (a rolled-back row left bytes behind, or a row is missing)");
      }
      l.openBytes[shard] = 0;
    }
    l.sealedIds.get(shard).add(l.open[shard].toArray());
    l.sealedBytes(shard, l.sealedBytes.get(shard).size(), bytes);
    l.sealedBytes.get(shard).add(bytes);
    l.sealedFirstTick.get(shard).add(l.openSince[shard]);
    l.sealedOldestEvent.get(shard).add(l.openOldestEvent[shard]);
    l.openOldestEvent[shard] = Long.MAX_VALUE;
    l.open[shard].clear();
    l.expectedBytes += e.charged(bytes);
  }
}
