package dev.handoff.benchmarks.encode;

import com.clickhouse.client.api.data_formats.RowBinaryFormatSerializer;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.handoff.api.ColumnSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A fixed-width-only schema (27 bytes of data per row in either format):
 *
 * <pre>
 *   id    UInt64    Long, non-negative
 *   n     Int32     Integer
 *   value Float64   Double
 *   ts    DateTime  Instant (whole seconds)
 *   flag  UInt8     Integer 0..255
 *   day   Date      LocalDate
 * </pre>
 */
final class FixedWidthWorkload extends Workload {

  static final List<ColumnSpec> COLUMNS = List.of(
      new ColumnSpec("id", "UInt64"),
      new ColumnSpec("n", "Int32"),
      new ColumnSpec("value", "Float64"),
      new ColumnSpec("ts", "DateTime"),
      new ColumnSpec("flag", "UInt8"),
      new ColumnSpec("day", "Date"));

  FixedWidthWorkload(int rows, long seed) {
    super("fixed-width", COLUMNS, generate(rows, seed));
  }

  private static Object[][] generate(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Object[][] rows = new Object[n][];
    long second = 1_710_000_000L; // 2024-03-09
    long firstDay = LocalDate.of(2024, 1, 1).toEpochDay();
    for (int i = 0; i < n; i++) {
      second += r.nextInt(3);
      rows[i] = new Object[] {
        r.nextLong() & Long.MAX_VALUE,
        r.nextInt(),
        r.nextDouble() * 10_000,
        Instant.ofEpochSecond(second),
        r.nextInt(256),
        LocalDate.ofEpochDay(firstDay + r.nextInt(365)),
      };
    }
    return rows;
  }

  /**
   * Reads every value of every row the way any encoder of these rows must (the casts, the
   * unboxing, {@code getEpochSecond}, {@code toEpochDay}) and writes nothing: a ceiling for the
   * rows per second of any encoder of this input. The sum keeps the JIT from dropping reads.
   */
  static long readValues(Object[][] rows) {
    long sum = 0;
    for (Object[] row : rows) {
      sum += (Long) row[0];
      sum += (Integer) row[1];
      sum += Double.doubleToRawLongBits((Double) row[2]);
      sum += ((Instant) row[3]).getEpochSecond();
      sum += (Integer) row[4];
      sum += ((LocalDate) row[5]).toEpochDay();
    }
    return sum;
  }

  @Override
  public void writeTyped(RowBinaryFormatSerializer s, OutputStream out, Object[] row)
      throws IOException {
    s.writeInt64((Long) row[0]);
    s.writeInt32((Integer) row[1]);
    s.writeFloat64((Double) row[2]);
    s.writeDateTime32((Instant) row[3]);
    s.writeUInt8(((Integer) row[4]).shortValue());
    s.writeUInt16((int) ((LocalDate) row[5]).toEpochDay());
  }

  @Override
  public void writeJson(JsonGenerator g, Object[] row) throws IOException {
    g.writeStartObject();
    g.writeFieldName(jsonNames[0]);
    g.writeNumber((Long) row[0]);
    g.writeFieldName(jsonNames[1]);
    g.writeNumber((Integer) row[1]);
    g.writeFieldName(jsonNames[2]);
    g.writeNumber((Double) row[2]);
    g.writeFieldName(jsonNames[3]);
    g.writeNumber(((Instant) row[3]).getEpochSecond());
    g.writeFieldName(jsonNames[4]);
    g.writeNumber((Integer) row[4]);
    g.writeFieldName(jsonNames[5]);
    g.writeString(row[5].toString());
    g.writeEndObject();
  }
}
