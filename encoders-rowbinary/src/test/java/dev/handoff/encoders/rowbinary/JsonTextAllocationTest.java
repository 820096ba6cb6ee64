package dev.handoff.encoders.rowbinary;

import static dev.handoff.encoders.testsupport.JsonTextAllocations.ROWS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.JsonTextAllocations;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * JSON text in the common shapes (objects, strings with escapes, integers, floats, booleans,
 * nulls, typed and skipped paths; arrays of scalars, of mixed kinds, of arrays and of objects) is
 * encoded without allocating per row, measured with the JVM's per-thread allocation counter over
 * many rows (skipped where the counter is unavailable).
 */
final class JsonTextAllocationTest {

  @Test
  void jsonText_allocatesNothingPerRow() {
    long perRow = perRow(JsonTextAllocations.PLAIN_TYPE, JsonTextAllocations.plainTexts());
    assertThat(perRow).as("bytes allocated per JSON text row").isLessThan(8);
  }

  @Test
  void jsonTextWithArrays_allocatesNothingPerRow() {
    long perRow = perRow(JsonTextAllocations.ARRAYS_TYPE, JsonTextAllocations.textsWithArrays());
    System.out.printf("%s: %d B per JSON text row with arrays%n", getClass().getSimpleName(),
        perRow);
    assertThat(perRow).as("bytes allocated per JSON text row with arrays").isLessThan(8);
  }

  private static long perRow(String type, Object[][] rows) {
    RowEncoder<Object[]> e = new RowBinaryEncoderProvider().create(
        new TableSchema(List.of(new ColumnSpec("j", type))), RowAccessors.objectArray(), Map.of());
    OptionalLong bytes = JsonTextAllocations.thirdPassBytes(e, rows, 1000);
    assumeTrue(bytes.isPresent(), "no per-thread allocation counter here");
    return bytes.getAsLong() / ROWS;
  }
}
