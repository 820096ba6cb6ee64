package dev.handoff.encoders.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.DelegatingAccessor;
import dev.handoff.encoders.testsupport.ObjectArrayCases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code Object[]} rows ({@link RowAccessors#objectArray()}) go through the encoder's row
 * program, whose fast cases append the common Java classes directly and hand everything else to
 * the column's own append through the accessor. The same
 * rows through an accessor the encoder does not recognize always take the accessor path: both
 * must report the same outcome for every row (accepted, or the same DATA error), the same
 * {@code bufferedBytes()} after it, and seal the same block, failed rows rolled back.
 */
final class NativeObjectArrayFastPathTest {

  @Test
  void everyValue_givesTheOutcomeAndBlockOfTheAccessorPath() {
    int checked = 0;
    for (Map.Entry<String, List<Object>> e : ObjectArrayCases.VALUES.entrySet()) {
      for (Object value : e.getValue()) {
        // Alone, and between two other columns whose values go in before and after it (a
        // declined or failed value in the middle of a row).
        check(List.of(e.getKey()), List.of(Arrays.asList(value)));
        check(List.of("String", e.getKey(), "UInt8"),
            List.of(Arrays.asList("pre", value, 7), Arrays.asList("next", value, 300),
                Arrays.asList("last", value, 8)));
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(300);
  }

  @Test
  void randomBlocksOfMixedSchemas_sameOutcomesAndBlocksAsTheAccessorPath() {
    List<String> types = new ArrayList<>(ObjectArrayCases.VALUES.keySet());
    SplittableRandom r = new SplittableRandom(17);
    for (int i = 0; i < 2_000; i++) {
      int n = 1 + r.nextInt(6);
      List<String> schema = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        schema.add(types.get(r.nextInt(types.size())));
      }
      List<List<Object>> rows = new ArrayList<>();
      for (int k = 1 + r.nextInt(8); k > 0; k--) {
        List<Object> row = new ArrayList<>();
        for (String t : schema) {
          List<Object> values = ObjectArrayCases.VALUES.get(t);
          row.add(values.get(r.nextInt(values.size())));
        }
        rows.add(row);
      }
      check(schema, rows);
    }
  }

  @Test
  void nullAndShortRows_takeTheAccessorPath() {
    check(List.of("UInt8", "String"), List.of(Arrays.asList(1), Arrays.asList(2, "b")));
    List<String> schema = List.of("UInt8");
    List<Object[]> nullRow = new ArrayList<>();
    nullRow.add(null);
    assertThat(run(schema, RowAccessors.objectArray(), nullRow))
        .contains("error DATA")
        .isEqualTo(run(schema, new DelegatingAccessor(), nullRow));
  }

  private static void check(List<String> types, List<List<Object>> rows) {
    List<Object[]> arrays = new ArrayList<>();
    for (List<Object> row : rows) {
      arrays.add(row.toArray());
    }
    String expected = run(types, new DelegatingAccessor(), arrays);
    String actual = run(types, RowAccessors.objectArray(), arrays);
    assertThat(actual).as("%s %s", types, rows).isEqualTo(expected);
  }

  /** Encodes the rows, then seals the block: what happened to each row, and the block's bytes. */
  private static String run(List<String> types, RowAccessor<Object[]> accessor,
      List<Object[]> rows) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      columns.add(new ColumnSpec("c" + i, types.get(i)));
    }
    RowEncoder<Object[]> encoder =
        new NativeEncoderProvider().create(new TableSchema(columns), accessor, Map.of());
    StringBuilder out = new StringBuilder();
    for (Object[] row : rows) {
      try {
        encoder.encode(row, new ChunkBuffer(1));
        out.append("ok");
      } catch (HandoffException e) {
        out.append("error ").append(e.errorClass()).append(' ').append(e.getMessage());
      }
      out.append(", buffered ").append(encoder.bufferedBytes()).append('\n');
    }
    ChunkBuffer block = new ChunkBuffer(4);
    block.writeByte(0x5A);
    encoder.finishChunk(block);
    return out.append("block ").append(Arrays.toString(block.toByteArray())).toString();
  }
}
