package dev.handoff.encoders.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code QBit(T, N, S)} (a stride S, ClickHouse 26.x) in Native, byte for byte as a ClickHouse
 * 26.7 engine writes the same values: the engine reads our RowBinary through {@code file()} and
 * writes it as {@code FORMAT Native}, which must equal our Native block (the groups of S elements
 * one after the other, each as a {@code QBit(T, S)} column), plain QBit and QBit inside Array and
 * Nullable next to it. {@link ModernTypesChdbTest} inserts the same types from both formats.
 */
final class QBitStrideChdbTest {
  private static final String[][] COLUMNS = {
      {"qs", "QBit(Float32, 32, 16)"}, {"qsd", "QBit(Float64, 16, 8)"},
      {"aqs", "Array(QBit(Int8, 24, 8))"}, {"nqs", "Nullable(QBit(BFloat16, 16, 8))"},
      {"q", "QBit(Float32, 10)"}, {"qi", "QBit(Int8, 9)"},
  };
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

  @Test
  void nativeBlockIsTheEnginesOwn() {
    for (long seed = 1; seed <= 20; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int rows = 1 + r.nextInt(60);
      List<Object[]> values = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        Object[] row = new Object[COLUMNS.length];
        for (int c = 0; c < COLUMNS.length; c++) {
          row[c] = ModernRows.value(COLUMNS[c][1], r);
        }
        values.add(row);
      }
      List<ColumnSpec> specs = new ArrayList<>();
      StringBuilder ddl = new StringBuilder();
      for (String[] c : COLUMNS) {
        specs.add(new ColumnSpec(c[0], c[1]));
        ddl.append(ddl.length() == 0 ? "" : ", ").append(c[0]).append(' ').append(c[1]);
      }
      TableSchema schema = new TableSchema(specs);
      byte[] rowBinary = encode(new RowBinaryEncoderProvider().create(schema,
          RowAccessors.objectArray(), Map.of()), values, false);
      byte[] block = encode(new NativeEncoderProvider().create(schema,
          RowAccessors.objectArray(), Map.of()), values, true);
      Path file = engine.writeFile("qbit" + seed + ".rowbinary", rowBinary);
      byte[] engines = engine.query("SELECT * FROM file(" + Chdb.literal(file.toString())
          + ", 'RowBinary', " + Chdb.literal(ddl.toString()) + ")", "Native");
      assertThat(HexFormat.of().formatHex(block)).as("seed %d, %d rows", seed, rows)
          .isEqualTo(HexFormat.of().formatHex(engines));
    }
  }

  private static byte[] encode(RowEncoder<Object[]> encoder, List<Object[]> rows,
      boolean finish) {
    ChunkBuffer out = new ChunkBuffer(1 << 16);
    for (Object[] row : rows) {
      encoder.encode(row, out);
    }
    if (finish) {
      int size = encoder.bufferedBytes();
      encoder.finishChunk(out);
      assertThat(out.length()).as("bufferedBytes() of the block").isEqualTo(size);
    }
    return out.toByteArray();
  }
}
