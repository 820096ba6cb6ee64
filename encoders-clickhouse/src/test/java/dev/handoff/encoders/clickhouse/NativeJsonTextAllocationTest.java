package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.testsupport.JsonTextAllocations.ROWS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.JsonTextAllocations;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * JSON text in the common shapes (objects, strings with escapes, integers, floats, booleans,
 * nulls, typed and skipped paths; arrays of scalars, of mixed kinds, of arrays and of objects) is
 * encoded in Native blocks of 1,000 rows allocating under 16 bytes per row, the block flush
 * included, measured with the JVM's per-thread allocation counter (skipped where the counter is
 * unavailable).
 */
final class NativeJsonTextAllocationTest {

  @Test
  void jsonText_allocatesNothingPerRow() {
    long perRow = thirdPassBytes(JsonTextAllocations.PLAIN_TYPE,
        JsonTextAllocations.plainTexts(), 1000) / ROWS;
    assertThat(perRow).as("bytes allocated per JSON text row").isLessThan(16);
  }

  @Test
  void jsonTextWithArrays_allocatesNothingPerRow() {
    long perRow = thirdPassBytes(JsonTextAllocations.ARRAYS_TYPE,
        JsonTextAllocations.textsWithArrays(), 1000) / ROWS;
    System.out.printf("%s: %d B per JSON text row with arrays%n", getClass().getSimpleName(),
        perRow);
    assertThat(perRow).as("bytes allocated per JSON text row with arrays").isLessThan(16);
  }

  @Test
  void sealingABlock_makesNoPathMapEntries() {
    // Blocks of 4 rows, so what a seal allocates shows: with the dynamic paths' map entries made
    // again for every block this measured 768 B per block; with the shared paths refilled by
    // addAll (an iterator per block, which C2 removes but C1 does not) 160 B; now 0.
    long perBlock = thirdPassBytes(JsonTextAllocations.ARRAYS_TYPE,
        JsonTextAllocations.textsWithArrays(), 4) / (ROWS / 4);
    assertThat(perBlock).as("bytes allocated per sealed block of 4 JSON text rows")
        .isLessThan(16);
  }

  private static long thirdPassBytes(String type, Object[][] rows, int blockRows) {
    RowEncoder<Object[]> e = new NativeEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("j", type))), RowAccessors.objectArray(), Map.of());
    OptionalLong bytes = JsonTextAllocations.thirdPassBytes(e, rows, blockRows);
    assumeTrue(bytes.isPresent(), "no per-thread allocation counter here");
    return bytes.getAsLong();
  }
}
