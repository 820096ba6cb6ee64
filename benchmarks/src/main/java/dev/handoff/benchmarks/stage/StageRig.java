package dev.handoff.benchmarks.stage;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.benchmarks.encode.Workload;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * A real {@link SinkHandoff} of one shard, with real {@link ShardQueues}, an {@link
 * InflightBudget} and optionally a {@link ChunkPool}, whose queue is emptied on the pushing
 * thread by doing with each chunk what a sink worker does after a successful insert.
 */
final class StageRig {
  /** The chunk target of every variant. */
  static final int TARGET_BYTES = 1 << 20;
  /** The in-flight budget of the stage and the facade. */
  static final long BUDGET_BYTES = 64L << 20;
  /** Each shard queue's capacity, in chunks. */
  static final int QUEUE_CAPACITY = 8;
  /**
   * Rows between two polls of the queue. A chunk of 1 MiB holds thousands of rows of any of the
   * benchmark's schemas (wide: about 4,600), so at most one chunk seals between polls and the
   * queue of 8 never fills: nothing parks.
   */
  static final int POLL_EVERY = 1024;
  /** An event time for every row: the stage only compares it. */
  static final long EVENT_TIME_MS = 1_710_000_000_000L;

  final ShardQueues queues = new ShardQueues(1, QUEUE_CAPACITY);
  final InflightBudget budget = new InflightBudget(BUDGET_BYTES);
  /** The pool, or null. */
  final ChunkPool pool;
  final SinkHandoff<Object[]> stage;
  long chunksSettled;
  /** Polls that found chunks parked: the queue was polled too rarely. */
  long parkEvents;

  /**
   * Builds the stage of {@code encoder} (each shard gets its {@code newInstance()}), 1 MiB
   * chunks, the FAIL policy, and with {@code pooled} a pool of arrays for those chunks.
   */
  StageRig(RowEncoder<Object[]> encoder, boolean pooled) {
    SinkHandoff.Builder<Object[]> b = SinkHandoff.builder(encoder, queues)
        .budget(budget)
        .config(new ChunkConfig(TARGET_BYTES, ErrorPolicy.FAIL));
    if (pooled) {
      // Room for every array the queue can hold, the open chunk's and one more.
      pool = new ChunkPool(ChunkPool.arrayLengthFor(TARGET_BYTES), QUEUE_CAPACITY + 2);
      b.pool(pool);
    } else {
      pool = null;
    }
    stage = b.build();
  }

  /** Returns a new encoder of {@code format} for the workload's schema. */
  static RowEncoder<Object[]> encoder(Workload workload, String format) {
    return Providers.encoder(format)
        .create(workload.handoffSchema(), RowAccessors.objectArray(), Map.of());
  }

  /** Pushes every row with {@link Ack#NONE}, settling what the queue holds every few rows. */
  void pushAll(Object[][] rows, OutputStream sink) {
    SinkHandoff<Object[]> s = stage;
    for (int i = 0; i < rows.length; i++) {
      s.push(rows[i], EVENT_TIME_MS, 0L, Ack.NONE);
      if ((i & (POLL_EVERY - 1)) == POLL_EVERY - 1) {
        settle(sink);
      }
    }
    settle(sink);
  }

  /**
   * Does what a sink worker does with each chunk it takes, minus the HTTP: writes the frame to
   * {@code sink}, returns the chunk's bytes to the budget, releases the frame (a pooled array
   * goes back to the pool) and succeeds the chunk's acknowledgements. Never inlined: a worker
   * runs this on its own thread, so the pushing loop's compiled code must not carry it.
   */
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  void settle(OutputStream sink) {
    EncodedChunk c;
    while ((c = queues.poll(0)) != null) {
      try {
        c.frame().writeTo(sink);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      budget.release(c.chargedBytes());
      c.frame().release();
      c.acks().succeed();
      chunksSettled++;
    }
    if (stage.parkedChunks() > 0) {
      parkEvents++;
      stage.relieve();
    }
  }

  /** Seals the open chunk, settles everything and closes the stage. */
  void finish(OutputStream sink) {
    stage.flushTerminal();
    settle(sink);
    stage.close();
  }

  /**
   * Checks that the frames a stage hands on are the bytes the encoder alone writes with the
   * stage's seal rule ({@code length + bufferedBytes >= target}, then {@code finishChunk}), so
   * that the benchmark's variants do the same work; and that the budget and the pool end empty.
   *
   * @throws IllegalStateException naming the first difference
   */
  static void checkSameBytes(Workload workload, String format, boolean pooled) {
    Object[][] rows = workload.rows();
    RowEncoder<Object[]> e = encoder(workload, format);
    ChunkBuffer expected = new ChunkBuffer(1 << 20);
    int chunkStart = 0;
    int open = 0;
    for (Object[] row : rows) {
      e.encode(row, expected);
      open++;
      if (expected.length() - chunkStart + e.bufferedBytes() >= TARGET_BYTES) {
        e.finishChunk(expected);
        chunkStart = expected.length();
        open = 0;
      }
    }
    if (open > 0) {
      e.finishChunk(expected);
    }
    StageRig rig = new StageRig(encoder(workload, format), pooled);
    ByteArrayOutputStream actual = new ByteArrayOutputStream(expected.length());
    rig.pushAll(rows, actual);
    rig.finish(actual);
    byte[] want = expected.toByteArray();
    byte[] got = actual.toByteArray();
    String what = workload.name() + " " + format + (pooled ? " pooled" : "");
    int at = Arrays.mismatch(want, got);
    if (at >= 0) {
      throw new IllegalStateException(what + ": the stage's frames differ from the encoder's"
          + " bytes at byte " + at + " (" + got.length + " against " + want.length + ")");
    }
    if (rig.parkEvents > 0 || rig.budget.inflightBytes() != 0
        || (rig.pool != null && rig.pool.onLoan() != 0)) {
      throw new IllegalStateException(what + ": " + rig.parkEvents + " parks, " + rig.budget
          + ", " + rig.pool);
    }
  }
}
