package dev.handoff.encoders.rowbinary;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.VariantSweep;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random Variant, Dynamic and JSON rows (nested in Array, Map, Tuple and Nullable too) encoded in
 * RowBinary and read back by a ClickHouse 26.7 engine through {@code file()} and an INSERT: see
 * {@link VariantSweep}. A fixed seed and a new one per run (printed); {@code
 * -Dhandoff.sweep.rows=N} and {@code -Dhandoff.sweep.seed=S} run another size or seed.
 */
final class VariantDynamicJsonSweepTest {
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

  static final VariantSweep.Format ROW_BINARY = new VariantSweep.Format() {
    @Override
    public String name() {
      return "RowBinary";
    }

    @Override
    public byte[] encode(TableSchema schema, List<Object[]> rows) {
      RowEncoder<Object[]> e = new RowBinaryEncoderProvider().create(schema,
          RowAccessors.objectArray(), Map.of());
      ChunkBuffer b = new ChunkBuffer(1 << 16);
      for (Object[] r : rows) {
        e.encode(r, b);
      }
      return b.toByteArray();
    }
  };

  @Test
  void randomRows_readBackEqual() {
    int rows = Integer.getInteger("handoff.sweep.rows", 3000);
    VariantSweep.run(engine, ROW_BINARY, 20261204L, rows);
    VariantSweep.run(engine, ROW_BINARY,
        Long.getLong("handoff.sweep.seed", System.nanoTime()), rows);
  }
}
