package dev.handoff.clickhouse.hash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ShardingKey} and {@link HashFunction} against a real ClickHouse 18.16 server: for every
 * column type the hash functions take, thousands of random values (edges included) are inserted
 * into a Memory table with {@code FORMAT RowBinary}, the server computes {@code cityHash64(v)},
 * {@code sipHash64(v)}, {@code murmurHash3_64(v)} and, for integers and dates, {@code
 * intHash64(v)}, and each is compared with the Java result for the same row. Then the same for
 * expressions over several columns of mixed types, tuples and arrays. A failure names the seed
 * ({@code -Dhash.seed=...} repeats it), the expression and the row.
 */
final class HashFunctionServerTest {
  private static final long SEED = Long.getLong("hash.seed", System.nanoTime());
  private static final int VALUES = 3000;
  private static final List<String> FUNCTIONS =
      List.of("cityHash64", "sipHash64", "murmurHash3_64");

  private static ClickHouseServer server;

  @BeforeAll
  static void startServer() {
    server = ClickHouseServer.shared();
    System.out.println("HashFunctionServerTest seed " + SEED + " (-Dhash.seed=" + SEED + ")");
  }

  @Test
  void everyFunction_agreesWithTheServerOnEveryScalarType() {
    SplittableRandom random = new SplittableRandom(SEED);
    List<String> types = List.of("UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32",
        "Int64", "Float32", "Float64", "Date", "DateTime", "Enum8('a' = -128, 'b' = 0, 'c' = 127)",
        "Enum16('x' = -32768, 'y' = 1, 'z' = 32767)", "String", "FixedString(1)",
        "FixedString(7)", "FixedString(33)", "Nullable(UInt32)", "Nullable(String)",
        "Array(UInt8)", "Array(Int64)", "Array(String)", "Array(Float32)");
    for (String type : types) {
      List<Object[]> rows = new ArrayList<>();
      int count = type.equals("String") ? 0 : VALUES;
      if (type.equals("String")) {
        for (int length = 0; length <= 80; length++) {
          for (int copy = 0; copy < 20; copy++) {
            rows.add(new Object[] {(long) rows.size(), Values.bytes(random, length)});
          }
        }
        for (int i = 0; i < 1000; i++) {
          rows.add(new Object[] {(long) rows.size(),
              Values.bytes(random, 81 + random.nextInt(i < 990 ? 500 : 70_000))});
        }
      }
      for (int i = 0; i < count; i++) {
        rows.add(new Object[] {(long) i, Values.of(type, random)});
      }
      List<String> expressions = new ArrayList<>();
      FUNCTIONS.forEach(f -> expressions.add(f + "(v)"));
      if (Values.isIntegerLike(type)) {
        expressions.add("intHash64(v)");
      }
      check(List.of(new ColumnSpec("i", "UInt32"), new ColumnSpec("v", type)), rows,
          expressions);
    }
  }

  @Test
  void everyFunction_agreesWithTheServerOnSeveralColumnsAndTuples() {
    SplittableRandom random = new SplittableRandom(SEED + 1);
    List<ColumnSpec> columns = List.of(new ColumnSpec("i", "UInt32"),
        new ColumnSpec("a", "UInt8"), new ColumnSpec("b", "String"),
        new ColumnSpec("c", "Float64"), new ColumnSpec("d", "Date"),
        new ColumnSpec("e", "FixedString(5)"), new ColumnSpec("f", "Int64"),
        new ColumnSpec("g", "Array(UInt16)"), new ColumnSpec("h", "DateTime"),
        new ColumnSpec("k", "Int8"));
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < VALUES; i++) {
      Object[] row = new Object[columns.size()];
      row[0] = (long) i;
      for (int c = 1; c < columns.size(); c++) {
        row[c] = Values.of(columns.get(c).type(), random);
      }
      rows.add(row);
    }
    List<String> expressions = new ArrayList<>();
    for (String f : FUNCTIONS) {
      expressions.add(f + "(a, b)");
      expressions.add(f + "(b, a)");
      expressions.add(f + "(k, f)");
      expressions.add(f + "(b, c, d, h)");
      expressions.add(f + "((a, b), e)");
      expressions.add(f + "(tuple(f, (g, k)), b)");
      expressions.add(f + "(a, b, c, d, e, f, g, h, k)");
    }
    check(columns, rows, expressions);
  }

  /** Inserts the rows, asks the server for every expression, and compares row by row. */
  private static void check(List<ColumnSpec> columns, List<Object[]> rows,
      List<String> expressions) {
    TableSchema schema = new TableSchema(columns);
    String db = server.uniqueDatabase("hashes");
    server.execute("CREATE TABLE " + db + ".t (" + columns.stream()
        .map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "))
        + ") ENGINE = Memory");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (Object[] row : rows) {
      for (int c = 0; c < columns.size(); c++) {
        Values.writeRowBinary(body, columns.get(c).type(), row[c]);
      }
    }
    server.query("INSERT INTO " + db + ".t FORMAT RowBinary", body.toByteArray());
    String text = server.query("SELECT " + String.join(", ", expressions) + " FROM " + db
        + ".t ORDER BY i FORMAT TabSeparated");
    server.execute("DROP DATABASE " + db);
    String[] lines = text.split("\n");
    assertThat(lines).hasSize(rows.size());
    RowAccessor<Object[]> accessor = RowAccessors.objectArray();
    for (int e = 0; e < expressions.size(); e++) {
      ShardingKey key = ShardingKey.parse(expressions.get(e), schema);
      for (int r = 0; r < rows.size(); r++) {
        String cell = lines[r].split("\t")[e];
        if (cell.equals("\\N")) { // a NULL argument: the server's result is NULL too
          Object[] row = rows.get(r);
          assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> key.keyOf(accessor, row)))
              .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NULL");
          continue;
        }
        long expected = Long.parseUnsignedLong(cell);
        long actual = key.keyOf(accessor, rows.get(r));
        if (actual != expected) {
          throw new AssertionError("seed " + SEED + ": " + expressions.get(e) + " over "
              + columns + " of row " + Values.describe(rows.get(r)) + ": server "
              + Long.toUnsignedString(expected) + ", Java " + Long.toUnsignedString(actual));
        }
      }
    }
  }

  static String describe(Object[] row) {
    return Arrays.deepToString(row);
  }
}
