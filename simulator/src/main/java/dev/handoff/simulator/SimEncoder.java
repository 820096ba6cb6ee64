package dev.handoff.simulator;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.spi.RowEncoder;

/**
 * Wraps the encoder found by name (through {@code ServiceLoader}) for one shard: poisons rows
 * (a value out of its column's range, which the real encoder must refuse mid-row with a DATA
 * error), injects {@code FATAL}s in {@code encode} and {@code finishChunk} at the configured
 * rates, and
 * tells the engine which records went into which chunk, so the sink side can check every chunk it
 * writes without decoding the vendor's format.
 */
final class SimEncoder implements RowEncoder<SimRow> {
  private final Engine engine;
  private final RowEncoder<SimRow> inner;
  private int shard = -1;

  SimEncoder(Engine engine, RowEncoder<SimRow> inner) {
    this.engine = engine;
    this.inner = inner;
  }

  @Override
  public void encode(SimRow row, ChunkBuffer buffer) {
    shard = engine.lastRoutedShard;
    // Every row of a stage of several shards goes where its router says: the router was asked.
    engine.book.checks[OracleBook.PER_SHARD_ORDER]++;
    if (engine.shards > 1 && !engine.routed) {
      engine.book.fail(OracleBook.PER_SHARD_ORDER, row + " was encoded into a shard without"
          + " asking the router (" + engine.shards + " shards)");
    }
    engine.routed = false;
    engine.beforeEncode(row); // may throw the injected error
    inner.encode(row, buffer);
    engine.shadow.encoded(shard, row);
  }

  @Override
  public void finishChunk(ChunkBuffer buffer) {
    engine.beforeFinish(shard); // may throw the injected FATAL
    inner.finishChunk(buffer);
    engine.shadow.sealed(shard, buffer.length());
  }

  @Override
  public int bufferedBytes() {
    return inner.bufferedBytes();
  }

  @Override
  public RowEncoder<SimRow> newInstance() {
    return new SimEncoder(engine, inner.newInstance());
  }

  static HandoffException fatal(String what) {
    return HandoffException.fatal("injected: " + what, null);
  }
}
