package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.DelegatingAccessor;
import dev.handoff.encoders.testsupport.ObjectArrayCases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code Object[]} rows ({@link RowAccessors#objectArray()}) take the encoder's fast path for
 * common classes; everything else goes through the column's writer. The same rows through an
 * accessor that only delegates to {@code objectArray()} (so the encoder does not recognize it)
 * always take the writers: both must give the same bytes and, for rejected values, the same
 * error.
 */
final class ObjectArrayFastPathTest {

  @Test
  void everyValue_givesTheBytesOrTheErrorOfTheGenericPath() {
    int checked = 0;
    for (Map.Entry<String, List<Object>> e : ObjectArrayCases.VALUES.entrySet()) {
      for (Object value : e.getValue()) {
        // Alone, and between two other columns (the fast path keeps going after a fallback).
        checkRow(List.of(e.getKey()), Arrays.asList(value));
        checkRow(List.of("String", e.getKey(), "UInt8"), Arrays.asList("pre", value, 7));
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(300);
  }

  @Test
  void randomRowsOfMixedSchemas_sameBytesAsTheGenericPath() {
    List<String> types = new ArrayList<>(ObjectArrayCases.VALUES.keySet());
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      int n = 1 + r.nextInt(6);
      List<String> schema = new ArrayList<>();
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        String t = types.get(r.nextInt(types.size()));
        List<Object> values = ObjectArrayCases.VALUES.get(t);
        schema.add(t);
        row.add(values.get(r.nextInt(values.size())));
      }
      checkRow(schema, row);
    }
  }

  @Test
  void shortRow_isTheGenericPathsError() {
    checkRow(List.of("UInt8", "String"), Arrays.asList(1));
  }

  @Test
  void nullRow_isTheGenericPathsError() {
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("c0", "UInt8")));
    RowEncoder<Object[]> fast =
        new RowBinaryEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
    RowEncoder<Object[]> generic =
        new RowBinaryEncoderProvider().create(schema, new DelegatingAccessor(), Map.of());
    String expected = outcome(() -> {
      generic.encode(null, new ChunkBuffer(4));
      return new ChunkBuffer(1);
    });
    assertThat(expected).startsWith("error DATA");
    assertThat(outcome(() -> {
      fast.encode(null, new ChunkBuffer(4));
      return new ChunkBuffer(1);
    })).isEqualTo(expected);
  }

  private static void checkRow(List<String> types, List<Object> row) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      columns.add(new ColumnSpec("c" + i, types.get(i)));
    }
    TableSchema schema = new TableSchema(columns);
    RowEncoder<Object[]> fast =
        new RowBinaryEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
    RowEncoder<Object[]> generic =
        new RowBinaryEncoderProvider().create(schema, new DelegatingAccessor(), Map.of());
    String expected = outcome(() -> {
      ChunkBuffer b = new ChunkBuffer(4);
      b.writeByte(0x5A);
      generic.encode(row.toArray(), b);
      return b;
    });
    String actual = outcome(() -> {
      ChunkBuffer b = new ChunkBuffer(4);
      b.writeByte(0x5A);
      fast.encode(row.toArray(), b);
      return b;
    });
    assertThat(actual).as("%s %s", types, row).isEqualTo(expected);
  }

  private interface Encoding {
    ChunkBuffer run();
  }

  private static String outcome(Encoding encoding) {
    try {
      return "bytes " + Arrays.toString(encoding.run().toByteArray());
    } catch (HandoffException e) {
      return "error " + e.errorClass() + " " + e.getMessage();
    }
  }
}
