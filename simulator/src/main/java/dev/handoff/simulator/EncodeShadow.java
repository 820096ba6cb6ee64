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
    if (e.rowBinary || e.nativeFormat) {
      // B4: a chunk seals right after the row that brings it to the target, never later (for
      // Native: the block its rows would make, header included, reaches the target).
      long size = sealedSize(l.open[shard].size(), l.openBytes[shard]);
      e.book.checks[OracleBook.SEAL_POSITION]++;
      if (l.open[shard].size() > 0 && size >= e.target) {
        e.book.fail(OracleBook.SEAL_POSITION, "shard " + shard + "'s open chunk of "
            + l.open[shard].size() + " rows would seal as " + size + " bytes, at or past the"
            + " target " + e.target + ", yet " + row + " went into it instead of a new chunk");
      }
      l.openBytes[shard] += rowBytes(row.pad);
    }
    l.openOldestEvent[shard] = Math.min(l.openOldestEvent[shard],
        SimSources.eventTime(e.clock.tick, row.id));
    l.open[shard].add(row.id);
  }

  /**
   * Forgets the rows of every open chunk: a stage that is replaced by a fresh one (the {@code
   * send-after-fatal} negative control) takes them with it.
   */
  void discardOpen(Life l) {
    for (int s = 0; s < l.open.length; s++) {
      l.open[s].clear();
      l.openBytes[s] = 0;
      l.openOldestEvent[s] = Long.MAX_VALUE;
    }
  }

  /** A RowBinary row's bytes: five fixed columns, then the pad's length and its bytes. */
  static int rowBytes(int pad) {
    return 26 + (pad < 0x80 ? 1 : pad < 0x4000 ? 2 : 3) + pad;
  }

  /**
   * The bytes a chunk of {@code rows} rows whose values take {@code rowBytes} seals as: the rows
   * themselves in RowBinary; in Native one block, whose header names the columns and types and
   * counts columns and rows (a column's values take the same bytes as in RowBinary).
   */
  long sealedSize(int rows, long rowBytes) {
    return e.rowBinary ? rowBytes : NATIVE_HEADER + varUIntSize(rows) + rowBytes;
  }

  /** A Native block's header for {@link SimRow#SCHEMA}: the column count, each name and type. */
  private static final int NATIVE_HEADER = nativeHeader();

  private static int nativeHeader() {
    int n = varUIntSize(SimRow.SCHEMA.columns().size());
    for (dev.handoff.api.ColumnSpec c : SimRow.SCHEMA.columns()) {
      int name = c.name().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      int type = c.type().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      n += varUIntSize(name) + name + varUIntSize(type) + type;
    }
    return n;
  }

  private static int varUIntSize(long v) {
    int n = 1;
    while ((v >>>= 7) != 0) {
      n++;
    }
    return n;
  }

  void sealed(int shard, int bytes) {
    Life l = e.cur;
    if (e.rowBinary || e.nativeFormat) {
      long size = sealedSize(l.open[shard].size(), l.openBytes[shard]);
      e.book.checks[OracleBook.CHUNK_INTEGRITY]++;
      if (bytes != size) {
        e.book.fail(OracleBook.CHUNK_INTEGRITY, "shard " + shard + " sealed a chunk of " + bytes
            + " bytes but the " + l.open[shard].size() + " rows encoded into it take "
            + size + " (a rolled-back row left bytes behind, or a row is missing)");
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
