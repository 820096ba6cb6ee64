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
import dev.handoff.testkit.SeedSweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random rows of every type of ClickHouse 20-26 handoff writes besides JSON, Variant and Dynamic
 * ({@link ModernRows}: BFloat16, Time, Time64, SimpleAggregateFunction, Nullable(Tuple), the six
 * geo types, QBit of each element type, Enum without width, unflattened Nested, and each inside
 * Array, Map, Tuple, Nullable and LowCardinality), through a ClickHouse 26.7 engine (libchdb,
 * {@link Chdb}): encoded by both encoders, read by the engine through {@code file(...,
 * 'RowBinary', ...)} and inserted into a table of exactly those types from our RowBinary and from
 * our Native block; each of the three must re-select, as {@code FORMAT RowBinary}, exactly our
 * RowBinary bytes. The Native insert re-selecting our RowBinary proves the two encoders agree
 * with each other through the server (QBit's bit planes included).
 *
 * <p>A seed sweep: a failure prints the seed and a case shrunk to the fewest rows and columns that
 * still fail (rerun with {@code -Dhandoff.seed=N}). Sizes: {@code -Dhandoff.modern.seeds} (default
 * 20) cases of {@code -Dhandoff.modern.rows} (default 150) rows each.
 */
final class ModernTypesChdbTest {
  private static final int SEEDS = Integer.getInteger("handoff.modern.seeds", 20);
  private static final int ROWS = Integer.getInteger("handoff.modern.rows", 150);
  private static ChdbSession engine;
  private static int tables;
  private static long rowsChecked;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().setting("flatten_nested", "0").open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
    System.out.println("ModernTypesChdbTest: " + rowsChecked + " rows x "
        + ModernRows.COLUMNS.size() + " columns checked through the 26.7 engine, 3 ways each");
  }

  /** Columns (indexes into {@link ModernRows#COLUMNS}) and rows of their values. */
  record Case(long seed, int[] columns, List<Object[]> rows) {
    List<String[]> specs() {
      List<String[]> out = new ArrayList<>();
      for (int c : columns) {
        out.add(ModernRows.COLUMNS.get(c));
      }
      return out;
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("seed " + seed + ", columns");
      for (String[] s : specs()) {
        sb.append(' ').append(s[0]).append(' ').append(s[1]).append(',');
      }
      sb.append(' ').append(rows.size()).append(" rows:");
      for (Object[] r : rows.subList(0, Math.min(rows.size(), 5))) {
        sb.append("\n    ").append(NativeRollbackProperties.render(r));
      }
      return sb.toString();
    }
  }

  static Case generate(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int[] columns = new int[ModernRows.COLUMNS.size()];
    Arrays.setAll(columns, i -> i);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      Object[] row = new Object[columns.length];
      for (int c = 0; c < columns.length; c++) {
        row[c] = ModernRows.value(ModernRows.COLUMNS.get(c)[1], r);
      }
      rows.add(row);
    }
    return new Case(seed, columns, rows);
  }

  @Test
  void everyModernType_roundTripsThroughTheEngine_inBothFormats() {
    SeedSweep.run("26.7 re-selects our RowBinary from file(), our RowBinary and our Native", 1,
        SEEDS, ModernTypesChdbTest::generate, ModernTypesChdbTest::holds,
        ModernTypesChdbTest::shrink);
    assertThat(rowsChecked).isEqualTo((long) SEEDS * ROWS);
  }

  private static boolean holds(Case c) {
    List<String[]> specs = c.specs();
    List<ColumnSpec> columns = new ArrayList<>();
    StringBuilder ddl = new StringBuilder();
    for (String[] s : specs) {
      columns.add(new ColumnSpec(s[0], s[1]));
      ddl.append(ddl.length() == 0 ? "" : ", ").append(s[0]).append(' ').append(s[1]);
    }
    TableSchema schema = new TableSchema(columns);
    byte[] rowBinary = encode(new RowBinaryEncoderProvider().create(schema,
        RowAccessors.objectArray(), Map.of()), c.rows(), false);
    byte[] nativeBlock = encode(new NativeEncoderProvider().create(schema,
        RowAccessors.objectArray(), Map.of()), c.rows(), true);

    String t = "m" + ++tables;
    Path rb = engine.writeFile(t + ".rowbinary", rowBinary);
    Path nb = engine.writeFile(t + ".native", nativeBlock);
    byte[] viaFile = engine.query("SELECT * FROM file(" + Chdb.literal(rb.toString())
        + ", 'RowBinary', " + Chdb.literal(ddl.toString()) + ")", "RowBinary");
    assertThat(viaFile).as("file(RowBinary) re-selected").isEqualTo(rowBinary);
    for (String[] insert : new String[][] {{rb.toString(), "RowBinary"},
        {nb.toString(), "Native"}}) {
      String table = t + "_" + insert[1];
      engine.execute("CREATE TABLE " + table + " (" + ddl + ") ENGINE = Memory");
      engine.execute("INSERT INTO " + table + " FROM INFILE " + Chdb.literal(insert[0])
          + " FORMAT " + insert[1]);
      assertThat(engine.query("SELECT * FROM " + table, "RowBinary"))
          .as("a table filled from our " + insert[1] + ", re-selected").isEqualTo(rowBinary);
      engine.execute("DROP TABLE " + table);
    }
    rowsChecked += c.rows().size() * (long) c.columns().length / specsAll();
    return true;
  }

  private static int specsAll() {
    return ModernRows.COLUMNS.size();
  }

  private static byte[] encode(RowEncoder<Object[]> encoder, List<Object[]> rows,
      boolean finish) {
    ChunkBuffer out = new ChunkBuffer(1 << 16);
    for (Object[] row : rows) {
      encoder.encode(row, out);
    }
    if (finish) {
      encoder.finishChunk(out);
    }
    return out.toByteArray();
  }

  /** Halves the rows, then drops columns, while the case still fails. */
  private static Case shrink(Case failing, Predicate<Case> stillFails) {
    Case best = failing;
    while (best.rows().size() > 1) {
      int half = best.rows().size() / 2;
      Case first = new Case(best.seed(), best.columns(), best.rows().subList(0, half));
      Case second = new Case(best.seed(), best.columns(),
          best.rows().subList(half, best.rows().size()));
      if (stillFails.test(first)) {
        best = first;
      } else if (stillFails.test(second)) {
        best = second;
      } else {
        break;
      }
    }
    for (int i = best.columns().length - 1; i >= 0 && best.columns().length > 1; i--) {
      int drop = i;
      int[] cols = new int[best.columns().length - 1];
      for (int k = 0, j = 0; k < best.columns().length; k++) {
        if (k != drop) {
          cols[j++] = best.columns()[k];
        }
      }
      List<Object[]> rows = new ArrayList<>();
      for (Object[] r : best.rows()) {
        Object[] n = new Object[cols.length];
        for (int k = 0, j = 0; k < r.length; k++) {
          if (k != drop) {
            n[j++] = r[k];
          }
        }
        rows.add(n);
      }
      Case candidate = new Case(best.seed(), cols, rows);
      if (stillFails.test(candidate)) {
        best = candidate;
      }
    }
    return best;
  }
}
