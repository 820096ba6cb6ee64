package dev.handoff.encoders.clickhouse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/*
 * Column buffers are reused: once the first block has grown them, blocks of the same shape
 * leave every buffer's capacity unchanged (no per-block reallocation in steady state), and a
 * rolled-back row does not shrink or leak them either.
 */
class NativeBufferReuseTest {

  private static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("i", "UInt64"),
      new ColumnSpec("s", "String"),
      new ColumnSpec("n", "Nullable(Float64)"),
      new ColumnSpec("a", "Array(Nullable(String))"),
      new ColumnSpec("m", "Map(String, Array(Int32))"),
      new ColumnSpec("t", "Tuple(Date, FixedString(3))"),
      new ColumnSpec("lc", "LowCardinality(Nullable(String))"));

  private static Object[] row(int k) {
    return new Object[] {k, "text" + k, k % 3 == 0 ? null : k * 0.5,
        Arrays.asList("a" + k, null), Map.of("k" + (k % 4), List.of(k, k + 1)),
        List.of("2024-01-0" + (1 + k % 9), "ab"), k % 5 == 0 ? null : "v" + (k % 50)};
  }

  @Test
  void capacityIsUnchangedAcrossBlocksOfTheSameShape() {
    NativeEncoder<Object[]> e = (NativeEncoder<Object[]>) new NativeEncoderProvider()
        .create(SCHEMA, RowAccessors.objectArray(), Map.of());
    ChunkBuffer out = new ChunkBuffer(1 << 16);
    long retained = -1;
    for (int block = 0; block < 6; block++) {
      for (int k = 0; k < 2000; k++) {
        e.encode(row(k), out);
      }
      out.truncate(0);
      e.finishChunk(out);
      if (block == 0) {
        retained = e.retainedBytes();
      } else {
        assertThat(e.retainedBytes()).as("block %d", block).isEqualTo(retained);
      }
    }
    assertThat(retained).isPositive();
  }
}
