package dev.handoff.encoders.testsupport;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import dev.handoff.clickhouse.value.TypedValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A seeded random sweep over Variant, Dynamic and JSON columns (alone and inside Array, Map,
 * Tuple and Nullable), checked by a ClickHouse 26.7 engine: the encoder's bytes are read back
 * through {@code file()} and through an {@code INSERT} into a MergeTree table of exactly those
 * types, and each value's {@code toJSONString} (and, for Variant and Dynamic, the type the engine
 * stored it as) must equal what the generator expects, computed independently of the encoders.
 * A mismatch fails with the seed, the row, the column, the value and both texts, after checking
 * the value alone in a one-row, one-column table (the shrunk case).
 *
 * <p>Values avoid what JSON text cannot round trip exactly (NaN, 64-bit extremes, strings that
 * look like dates), so the expected text is plain JSON: object keys sorted by path for JSON
 * columns (as the engine prints them), nulls and empty objects dropped there.
 */
public final class VariantSweep {
  /** The encoder under test: a schema and rows in, one insert body (format {@link #name}) out. */
  public interface Format {
    /** The ClickHouse format name of the body ({@code RowBinary}, {@code Native}). */
    String name();

    /** Encodes {@code rows} of {@code schema} as one body. */
    byte[] encode(TableSchema schema, List<Object[]> rows);
  }

  /** The columns: name, type. */
  public static final String[][] COLUMNS = {
      {"v", "Variant(String, Int64, Array(UInt8), Float64, Bool, Map(String, Int32))"},
      {"av", "Array(Variant(Int32, String))"},
      {"d", "Dynamic"},
      {"d2", "Dynamic(max_types=2)"},
      {"md", "Map(String, Dynamic)"},
      {"t", "Tuple(a Variant(Int8, String), b Dynamic, c JSON)"},
      {"j", "JSON"},
      {"jt", "JSON(max_dynamic_paths=3, a.b UInt32, s String, SKIP skip, SKIP REGEXP '^x_')"},
      {"aj", "Array(JSON)"},
      {"nj", "Nullable(JSON)"},
  };

  private VariantSweep() {}

  /** Rows per engine round trip unless {@code -Dhandoff.sweep.batch=N} says otherwise. */
  public static final int DEFAULT_BATCH = 20_000;

  /**
   * Runs {@code rows} random rows of seed {@code seed} through {@code format} and the engine, in
   * batches of {@code -Dhandoff.sweep.batch} rows (default {@value #DEFAULT_BATCH}), each its own
   * body, {@code file()} read and table. The rows of a seed are the same whatever the batch size
   * (one generator runs through all of them), so a failing row is found again by seed and row.
   * Batches keep the engine's work linear: one INSERT and SELECT of 100,000 rows with these JSON
   * columns took the engine 2 to 6 times as long per row as batches of 20,000.
   */
  public static void run(ChdbSession engine, Format format, long seed, int rows) {
    int batch = Math.max(1, Integer.getInteger("handoff.sweep.batch", DEFAULT_BATCH));
    System.out.println("VariantSweep " + format.name() + ": seed " + seed + ", " + rows
        + " rows, batches of " + batch);
    long started = System.nanoTime();
    VariantSweepRows g = new VariantSweepRows(seed);
    TableSchema schema = schema(COLUMNS);
    String table = "sweep_" + format.name().toLowerCase() + "_" + Long.toHexString(seed);
    long[] nanos = new long[STAGES.length];
    for (int first = 0; first < rows; first += batch) {
      long t0 = System.nanoTime();
      int n = Math.min(batch, rows - first);
      List<Object[]> values = new ArrayList<>(n);
      List<VariantSweepRows.Cell[]> cells = new ArrayList<>(n);
      for (int r = 0; r < n; r++) {
        VariantSweepRows.Cell[] row = g.row();
        cells.add(row);
        Object[] v = new Object[row.length];
        for (int c = 0; c < row.length; c++) {
          v[c] = row[c].value();
        }
        values.add(v);
      }
      long t1 = System.nanoTime();
      byte[] body = format.encode(schema, values);
      nanos[0] += t1 - t0;
      nanos[1] += System.nanoTime() - t1;
      check(engine, format, seed, first, schema, body, table, cells, values, nanos);
    }
    StringBuilder times = new StringBuilder();
    for (int i = 0; i < STAGES.length; i++) {
      times.append(i == 0 ? "" : ", ").append(STAGES[i]).append(' ')
          .append(nanos[i] / 1_000_000).append(" ms");
    }
    System.out.println("VariantSweep " + format.name() + ": seed " + seed + ", " + rows
        + " rows (" + rows * (long) COLUMNS.length + " values), no mismatch, "
        + (System.nanoTime() - started) / 1_000_000 + " ms: " + times);
  }

  /** What {@link #run} times: in Java, then in the engine (and the comparison). */
  private static final String[] STAGES =
      {"generate", "encode", "file()", "INSERT", "SELECT", "compare"};

  private static TableSchema schema(String[][] columns) {
    List<ColumnSpec> specs = new ArrayList<>();
    for (String[] c : columns) {
      specs.add(new ColumnSpec(c[0], c[1]));
    }
    return new TableSchema(specs);
  }

  private static String structure(String[][] columns) {
    StringBuilder s = new StringBuilder();
    for (String[] c : columns) {
      s.append(s.length() == 0 ? "" : ", ").append(c[0]).append(' ').append(c[1]);
    }
    return s.toString();
  }

  private static String selectList(String[][] columns) {
    StringBuilder s = new StringBuilder();
    for (String[] c : columns) {
      s.append(s.length() == 0 ? "" : ", ").append("toJSONString(").append(c[0]).append(')');
      if (c[1].startsWith("Dynamic")) {
        s.append(", dynamicType(").append(c[0]).append(')');
      } else if (c[1].startsWith("Variant")) {
        s.append(", variantType(").append(c[0]).append(')');
      }
    }
    return s.toString();
  }

  private static void check(ChdbSession engine, Format format, long seed, int first,
      TableSchema schema, byte[] body, String table, List<VariantSweepRows.Cell[]> cells, List<Object[]> values,
      long[] nanos) {
    String[][] columns = new String[schema.columns().size()][];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new String[] {schema.column(i).name(), schema.column(i).type()};
    }
    long t0 = System.nanoTime();
    Path file = engine.writeFile(table + ".bin", body);
    String fromFile = engine.queryText("SELECT " + selectList(columns) + " FROM file("
        + Chdb.literal(file.toString()) + ", " + Chdb.literal(format.name()) + ", "
        + Chdb.literal(structure(columns)) + ") SETTINGS " + IN_ORDER, "TSVRaw");
    long t1 = System.nanoTime();
    engine.execute("CREATE TABLE " + table + " (n UInt64 DEFAULT rowNumberInAllBlocks(), "
        + structure(columns) + ") ENGINE = MergeTree ORDER BY n"
        + " SETTINGS min_bytes_for_wide_part = 1000000000000"); // compact: one file, not thousands
    engine.execute("INSERT INTO " + table + " (" + String.join(", ",
        Arrays.stream(columns).map(c -> c[0]).toList()) + ") FROM INFILE "
        + Chdb.literal(file.toString()) + " SETTINGS " + IN_ORDER + " FORMAT " + format.name());
    long t2 = System.nanoTime();
    String inserted = engine.queryText("SELECT " + selectList(columns) + " FROM " + table
        + " ORDER BY n", "TSVRaw");
    engine.execute("DROP TABLE " + table);
    long t3 = System.nanoTime();
    compare(engine, format, seed, first, columns, cells, values, fromFile, "file()");
    compare(engine, format, seed, first, columns, cells, values, inserted, "INSERT");
    long t4 = System.nanoTime();
    nanos[2] += t1 - t0;
    nanos[3] += t2 - t1;
    nanos[4] += t3 - t2;
    nanos[5] += t4 - t3;
  }

  /** Reads the blocks of a body one after the other, so that rows keep their order. */
  private static final String IN_ORDER =
      "max_threads = 1, input_format_parallel_parsing = 0, max_insert_threads = 1";

  private static void compare(ChdbSession engine, Format format, long seed, int first,
      String[][] columns, List<VariantSweepRows.Cell[]> cells, List<Object[]> values, String text, String how) {
    String[] lines = text.split("\n", -1);
    if (lines.length != cells.size() + 1) { // the text ends with a newline
      fail("seed " + seed + ", " + format.name() + " via " + how + ", rows " + first + ".."
          + (first + cells.size() - 1) + ": the engine returned " + (lines.length - 1)
          + " rows, not " + cells.size());
    }
    for (int r = 0; r < cells.size(); r++) {
      String[] got = lines[r].split("\t", -1);
      int k = 0;
      for (int c = 0; c < columns.length; c++) {
        VariantSweepRows.Cell cell = cells.get(r)[c];
        String json = unescape(got[k++]);
        String type = cell.type() == null ? null : got[k++];
        if (!json.equals(cell.json()) || (type != null && !type.equals(cell.type()))) {
          String alone = shrink(engine, format, columns[c], values.get(r)[c]);
          fail("seed " + seed + ", " + format.name() + " via " + how + ", row " + (first + r)
              + ", column " + columns[c][0] + " " + columns[c][1] + ": value " + show(
                  cell.value()) + "\n  expected " + cell.json() + " / " + cell.type()
              + "\n  got      " + json + " / " + type + "\n  shrunk case (the value alone): "
              + alone);
        }
      }
    }
  }

  private static String unescape(String tsv) {
    if (tsv.equals("\\N")) {
      return "null"; // toJSONString(NULL) is NULL
    }
    return tsv.replace("\\\\", "\u0000").replace("\\t", "\t").replace("\\n", "\n")
        .replace("\u0000", "\\");
  }

  private static String shrink(ChdbSession engine, Format format, String[] column, Object v) {
    try {
      String[][] one = {column};
      byte[] body = format.encode(schema(one), List.<Object[]>of(new Object[] {v}));
      Path file = engine.writeFile("shrunk.bin", body);
      return engine.queryText("SELECT " + selectList(one) + " FROM file("
          + Chdb.literal(file.toString()) + ", " + Chdb.literal(format.name()) + ", "
          + Chdb.literal(structure(one)) + ")", "TSVRaw").strip();
    } catch (RuntimeException e) {
      return "fails alone too: " + e.getMessage();
    }
  }

  private static String show(Object v) {
    try {
      return Golden.JSON.writeValueAsString(v instanceof TypedValue tv ? tv.toString() : v);
    } catch (JsonProcessingException e) {
      return String.valueOf(v);
    }
  }

  /** Returns the sweep's columns as a schema (for tests that encode them otherwise). */
  public static TableSchema schema() {
    return schema(COLUMNS);
  }

  /** For a caller that wants the values: {@code rows} rows of seed {@code seed}. */
  public static List<Object[]> rows(long seed, int rows) {
    VariantSweepRows g = new VariantSweepRows(seed);
    List<Object[]> out = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      VariantSweepRows.Cell[] row = g.row();
      Object[] v = new Object[row.length];
      for (int c = 0; c < row.length; c++) {
        v[c] = row[c].value();
      }
      out.add(v);
    }
    return out;
  }
}
