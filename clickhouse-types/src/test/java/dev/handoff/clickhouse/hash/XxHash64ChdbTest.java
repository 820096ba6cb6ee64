package dev.handoff.clickhouse.hash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.Chdb;
import dev.handoff.clickhouse.testserver.ChdbSession;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link HashFunction#XX_HASH_64}, which ClickHouse 18.16 lacks, against the ClickHouse 26.7
 * engine (libchdb): random values of every column type a sharding key may hash, written as
 * RowBinary, hashed by the engine's {@code xxHash64} through {@code file()} and compared row by
 * row, alone and over several columns. A failure names the seed ({@code -Dhash.seed=...}).
 */
final class XxHash64ChdbTest {
  private static final long SEED = Long.getLong("hash.seed", System.nanoTime());
  private static final int VALUES = 2000;
  private static ChdbSession engine;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().open();
    System.out.println("XxHash64ChdbTest seed " + SEED + " (-Dhash.seed=" + SEED + ")");
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void xxHash64_agreesWithTheEngineOnEveryScalarType() {
    SplittableRandom random = new SplittableRandom(SEED);
    List<String> types = List.of("UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32",
        "Int64", "Float32", "Float64", "Date", "DateTime", "String", "FixedString(7)",
        "FixedString(33)", "Array(UInt8)", "Array(String)");
    int file = 0;
    for (String type : types) {
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < VALUES; i++) {
        Object v = type.equals("String")
            ? Values.bytes(random, i < 1_600 ? i % 80 : 81 + random.nextInt(5_000))
            : Values.of(type, random);
        rows.add(new Object[] {(long) i, v});
      }
      check("x" + file++, List.of(new ColumnSpec("i", "UInt32"), new ColumnSpec("v", type)),
          rows, List.of("xxHash64(v)"));
    }
  }

  @Test
  void xxHash64_agreesWithTheEngineOverSeveralColumns() {
    SplittableRandom random = new SplittableRandom(SEED + 1);
    List<ColumnSpec> columns = List.of(new ColumnSpec("i", "UInt32"),
        new ColumnSpec("a", "UInt8"), new ColumnSpec("b", "String"),
        new ColumnSpec("c", "Float64"), new ColumnSpec("d", "Date"),
        new ColumnSpec("f", "Int64"), new ColumnSpec("h", "DateTime"));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < VALUES; i++) {
      Object[] row = new Object[columns.size()];
      row[0] = (long) i;
      for (int c = 1; c < columns.size(); c++) {
        row[c] = Values.of(columns.get(c).type(), random);
      }
      rows.add(row);
    }
    check("multi", columns, rows, List.of("xxHash64(a, b)", "xxHash64(b, a)",
        "xxHash64(b, c, d, h)", "xxHash64((a, b), f)", "xxHash64(a, b, c, d, f, h)"));
  }

  private static void check(String name, List<ColumnSpec> columns, List<Object[]> rows,
      List<String> expressions) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    StringBuilder structure = new StringBuilder();
    for (ColumnSpec c : columns) {
      structure.append(structure.length() == 0 ? "" : ", ").append(c.name()).append(' ')
          .append(c.type());
    }
    for (Object[] row : rows) {
      for (int c = 0; c < columns.size(); c++) {
        Values.writeRowBinary(body, columns.get(c).type(), row[c]);
      }
    }
    Path file = engine.writeFile(name + ".bin", body.toByteArray());
    String text = engine.queryText("SELECT " + String.join(", ", expressions) + " FROM file("
        + Chdb.literal(file.toString()) + ", 'RowBinary', " + Chdb.literal(structure.toString())
        + ") ORDER BY i", "TabSeparated");
    String[] lines = text.split("\n");
    assertThat(lines).hasSize(rows.size());
    TableSchema schema = new TableSchema(columns);
    RowAccessor<Object[]> accessor = RowAccessors.objectArray();
    for (int e = 0; e < expressions.size(); e++) {
      ShardingKey key = ShardingKey.parse(expressions.get(e), schema);
      for (int r = 0; r < rows.size(); r++) {
        long expected = Long.parseUnsignedLong(lines[r].split("\t")[e]);
        long actual = key.keyOf(accessor, rows.get(r));
        if (actual != expected) {
          throw new AssertionError("seed " + SEED + ": " + expressions.get(e) + " over "
              + columns + " of row " + Values.describe(rows.get(r)) + ": engine "
              + Long.toUnsignedString(expected) + ", Java " + Long.toUnsignedString(actual));
        }
      }
    }
  }
}
