package dev.handoff.encoders.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.VariantSweep;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random Variant, Dynamic and JSON rows (nested in Array, Map, Tuple and Nullable too) encoded in
 * Native, in blocks of random sizes from one encoder (so blocks start from reused, reset
 * columns), and read back by a ClickHouse 26.7 engine through {@code file()} and an INSERT: see
 * {@link VariantSweep}. Every block's {@code bufferedBytes()} must be its exact size. A fixed seed
 * and a new one per run (printed); {@code -Dhandoff.sweep.rows=N} and {@code
 * -Dhandoff.sweep.seed=S} run another size or seed.
 */
final class NativeVariantDynamicJsonSweepTest {
  private static ChdbSession engine;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  static final VariantSweep.Format NATIVE = new VariantSweep.Format() {
    @Override
    public String name() {
      return "Native";
    }

    @Override
    public byte[] encode(TableSchema schema, List<Object[]> rows) {
      RowEncoder<Object[]> e = new NativeEncoderProvider().create(schema,
          RowAccessors.objectArray(), Map.of());
      ChunkBuffer b = new ChunkBuffer(1 << 16);
      SplittableRandom blocks = new SplittableRandom(rows.size());
      int left = 0;
      for (Object[] r : rows) {
        e.encode(r, b);
        if (--left <= 0) {
          finish(e, b);
          left = blocks.nextInt(1, 700);
        }
      }
      finish(e, b);
      return b.toByteArray();
    }

    private void finish(RowEncoder<Object[]> e, ChunkBuffer b) {
      int before = b.length();
      int size = e.bufferedBytes();
      e.finishChunk(b);
      assertThat(b.length() - before).as("bufferedBytes() of a block").isEqualTo(size);
    }
  };

  @Test
  void randomRows_readBackEqual() {
    int rows = Integer.getInteger("handoff.sweep.rows", 3000);
    VariantSweep.run(engine, NATIVE, 20261204L, rows);
    VariantSweep.run(engine, NATIVE, Long.getLong("handoff.sweep.seed", System.nanoTime()), rows);
  }
}
