package dev.handoff.benchmarks.encode;

import com.clickhouse.client.api.data_formats.RowBinaryFormatSerializer;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.handoff.api.ColumnSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The narrow schema, with the values a metrics or event pipeline holds:
 *
 * <pre>
 *   ts    DateTime  Instant (millisecond precision; DateTime keeps the second)
 *   id    UInt64    Long, non-negative
 *   value Float64   Double
 *   flag  UInt8     Integer 0 or 1
 *   s12   String    String, 10..14 ASCII characters
 *   s40   String    String, ~40 characters, 1 row in 10 with one 2-byte UTF-8 letter
 * </pre>
 *
 * <p>The LowCardinality variant ({@link #lowCardinality}) declares {@code s12} as {@code
 * LowCardinality(String)} and draws its values uniformly from a pool of {@link #POOL} distinct
 * 10..14-character strings, as a column of service names or country codes holds; every other
 * column is generated as above. RowBinary writes such a column exactly as a String.
 */
final class NarrowWorkload extends Workload {

  static final List<ColumnSpec> COLUMNS = List.of(
      new ColumnSpec("ts", "DateTime"),
      new ColumnSpec("id", "UInt64"),
      new ColumnSpec("value", "Float64"),
      new ColumnSpec("flag", "UInt8"),
      new ColumnSpec("s12", "String"),
      new ColumnSpec("s40", "String"));

  /** The narrow schema with {@code s12} declared {@code LowCardinality(String)}. */
  static final List<ColumnSpec> LC_COLUMNS = List.of(
      new ColumnSpec("ts", "DateTime"),
      new ColumnSpec("id", "UInt64"),
      new ColumnSpec("value", "Float64"),
      new ColumnSpec("flag", "UInt8"),
      new ColumnSpec("s12", "LowCardinality(String)"),
      new ColumnSpec("s40", "String"));

  /** Distinct values of the LowCardinality variant's {@code s12}: one-byte keys in a block. */
  static final int POOL = 200;

  NarrowWorkload(int rows, long seed) {
    super("narrow", COLUMNS, generate(rows, seed));
  }

  private NarrowWorkload(String name, List<ColumnSpec> columns, Object[][] rows) {
    super(name, columns, rows);
  }

  /**
   * The LowCardinality variant: {@code s12} from a pool of {@link #POOL} values.
   *
   * @param shared whether rows hold the pool's own String instances (values interned or taken
   *     from constants) or each row its own copy with no hash computed yet (values decoded
   *     from a message)
   */
  static NarrowWorkload lowCardinality(int n, long seed, boolean shared) {
    Object[][] rows = generate(n, seed);
    SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
    Set<String> distinct = new LinkedHashSet<>();
    while (distinct.size() < POOL) {
      distinct.add(Text.alnum(r, 10, 14));
    }
    String[] pool = distinct.toArray(new String[0]);
    for (Object[] row : rows) {
      String v = pool[r.nextInt(POOL)];
      // new String(char[]) copies the text and leaves the hash to be computed on first use.
      row[4] = shared ? v : new String(v.toCharArray());
    }
    return new NarrowWorkload(shared ? "narrow-lc-shared" : "narrow-lc-copies", LC_COLUMNS,
        rows);
  }

  private static Object[][] generate(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Object[][] rows = new Object[n][];
    long second = 1_710_000_000L; // 2024-03-09
    for (int i = 0; i < n; i++) {
      second += r.nextInt(3);
      rows[i] = new Object[] {
        Instant.ofEpochSecond(second, r.nextInt(1000) * 1_000_000L),
        r.nextLong() & Long.MAX_VALUE,
        r.nextDouble() * 10_000,
        r.nextInt(2),
        Text.alnum(r, 10, 14),
        Text.words(r, 40, ' ', 0.1),
      };
    }
    return rows;
  }

  /**
   * UInt64 goes through {@code writeInt64(long)}: the same 8 bytes for a non-negative long, while
   * {@code writeUInt64} takes only a BigInteger (one allocation per value).
   */
  @Override
  public void writeTyped(RowBinaryFormatSerializer s, OutputStream out, Object[] row)
      throws IOException {
    s.writeDateTime32((Instant) row[0]);
    s.writeInt64((Long) row[1]);
    s.writeFloat64((Double) row[2]);
    s.writeUInt8(((Integer) row[3]).shortValue());
    s.writeString((String) row[4]);
    s.writeString((String) row[5]);
  }

  /** DateTime as epoch seconds, a JSON number: the cheapest form ClickHouse reads. */
  @Override
  public void writeJson(JsonGenerator g, Object[] row) throws IOException {
    g.writeStartObject();
    g.writeFieldName(jsonNames[0]);
    g.writeNumber(((Instant) row[0]).getEpochSecond());
    g.writeFieldName(jsonNames[1]);
    g.writeNumber((Long) row[1]);
    g.writeFieldName(jsonNames[2]);
    g.writeNumber((Double) row[2]);
    g.writeFieldName(jsonNames[3]);
    g.writeNumber((Integer) row[3]);
    g.writeFieldName(jsonNames[4]);
    g.writeString((String) row[4]);
    g.writeFieldName(jsonNames[5]);
    g.writeString((String) row[5]);
    g.writeEndObject();
  }
}
