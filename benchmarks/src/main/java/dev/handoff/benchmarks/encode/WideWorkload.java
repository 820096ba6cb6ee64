package dev.handoff.benchmarks.encode;

import com.clickhouse.client.api.data_formats.RowBinaryFormatSerializer;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.handoff.api.ColumnSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The wide schema: 20 columns, with the Java values an order or event pipeline holds.
 *
 * <pre>
 *   Int32            Integer
 *   Int64            Long
 *   Float64          Double
 *   String           String (2, ~12 and ~50 characters)
 *   Nullable(String) String or null (30% and 50% null)
 *   Array(Int32)     int[] of 0..8 and 0..4 elements
 *   UUID             UUID
 *   Decimal64(4)     Double with at most 4 fraction digits, or BigDecimal of scale 4
 *                    ({@link Workload.DecimalForm}); the same numbers either way
 *   Date             LocalDate
 * </pre>
 */
final class WideWorkload extends Workload {

  static final List<ColumnSpec> COLUMNS = List.of(
      new ColumnSpec("id", "Int64"),
      new ColumnSpec("user_id", "Int32"),
      new ColumnSpec("event_date", "Date"),
      new ColumnSpec("amount", "Decimal64(4)"),
      new ColumnSpec("price", "Float64"),
      new ColumnSpec("name", "String"),
      new ColumnSpec("url", "String"),
      new ColumnSpec("referrer", "Nullable(String)"),
      new ColumnSpec("tags", "Array(Int32)"),
      new ColumnSpec("session_id", "UUID"),
      new ColumnSpec("quantity", "Int32"),
      new ColumnSpec("total", "Int64"),
      new ColumnSpec("score", "Float64"),
      new ColumnSpec("country", "String"),
      new ColumnSpec("comment", "Nullable(String)"),
      new ColumnSpec("trace_id", "UUID"),
      new ColumnSpec("ship_date", "Date"),
      new ColumnSpec("fee", "Decimal64(4)"),
      new ColumnSpec("ratio", "Float64"),
      new ColumnSpec("codes", "Array(Int32)"));

  private static final String[] COUNTRIES = {"US", "DE", "FR", "IN", "BR", "JP", "GB", "NL"};
  private static final int DECIMAL_SCALE = 4;

  private final DecimalForm decimals;

  WideWorkload(int rows, long seed, DecimalForm decimals) {
    super("wide", COLUMNS, generate(rows, seed, decimals));
    this.decimals = decimals;
  }

  private static Object[][] generate(int n, long seed, DecimalForm decimals) {
    SplittableRandom r = new SplittableRandom(seed);
    Object[][] rows = new Object[n][];
    long firstDay = LocalDate.of(2024, 1, 1).toEpochDay();
    for (int i = 0; i < n; i++) {
      long day = firstDay + r.nextInt(366);
      rows[i] = new Object[] {
        r.nextLong() & Long.MAX_VALUE,
        r.nextInt(1, 50_000_000),
        LocalDate.ofEpochDay(day),
        decimal(r.nextLong(-100_000_000L, 1_000_000_000L), decimals), // -10000.0000..99999.9999
        r.nextDouble() * 1000,
        Text.alnum(r, 10, 14),
        Text.url(r, 50),
        r.nextDouble() < 0.3 ? null : Text.url(r, 30),
        ints(r, 8, 100_000),
        new UUID(r.nextLong(), r.nextLong()),
        r.nextInt(1, 100),
        r.nextLong(0, 10_000_000_000L),
        r.nextDouble(),
        COUNTRIES[r.nextInt(COUNTRIES.length)],
        r.nextDouble() < 0.5 ? null : Text.words(r, 20, ' ', 0.1),
        new UUID(r.nextLong(), r.nextLong()),
        LocalDate.ofEpochDay(day + r.nextInt(14)),
        decimal(r.nextLong(0, 1_000_000L), decimals), // 0.0000..99.9999
        r.nextDouble(),
        ints(r, 4, 1000),
      };
    }
    return rows;
  }

  private static Object decimal(long unscaled, DecimalForm form) {
    BigDecimal exact = BigDecimal.valueOf(unscaled, DECIMAL_SCALE);
    // unscaled / 10^4 as a double is the double nearest that decimal, and its shortest text is
    // that decimal again: both forms carry exactly the same number.
    return form == DecimalForm.DOUBLE ? (Object) exact.doubleValue() : exact;
  }

  private static int[] ints(SplittableRandom r, int maxLength, int bound) {
    int[] a = new int[r.nextInt(maxLength + 1)];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextInt(bound);
    }
    return a;
  }

  /**
   * Date goes through {@code writeUInt16(epochDay)} (the typed {@code writeDate} wants a
   * ZonedDateTime, an allocation per value), Decimal64(4) through {@code writeDecimal64}, arrays
   * through {@code writeSize} and {@code writeInt32}, UUID through {@code writeUUID(lsb, msb)}
   * (that parameter order is client-v2's).
   */
  @Override
  public void writeTyped(RowBinaryFormatSerializer s, OutputStream out, Object[] row)
      throws IOException {
    s.writeInt64((Long) row[0]);
    s.writeInt32((Integer) row[1]);
    s.writeUInt16((int) ((LocalDate) row[2]).toEpochDay());
    s.writeDecimal64(bigDecimal(row[3]), DECIMAL_SCALE);
    s.writeFloat64((Double) row[4]);
    s.writeString((String) row[5]);
    s.writeString((String) row[6]);
    writeNullableString(s, (String) row[7]);
    writeInts(s, out, (int[]) row[8]);
    UUID session = (UUID) row[9];
    s.writeUUID(session.getLeastSignificantBits(), session.getMostSignificantBits());
    s.writeInt32((Integer) row[10]);
    s.writeInt64((Long) row[11]);
    s.writeFloat64((Double) row[12]);
    s.writeString((String) row[13]);
    writeNullableString(s, (String) row[14]);
    UUID trace = (UUID) row[15];
    s.writeUUID(trace.getLeastSignificantBits(), trace.getMostSignificantBits());
    s.writeUInt16((int) ((LocalDate) row[16]).toEpochDay());
    s.writeDecimal64(bigDecimal(row[17]), DECIMAL_SCALE);
    s.writeFloat64((Double) row[18]);
    writeInts(s, out, (int[]) row[19]);
  }

  private BigDecimal bigDecimal(Object v) {
    return decimals == DecimalForm.DOUBLE ? BigDecimal.valueOf((Double) v) : (BigDecimal) v;
  }

  private static void writeNullableString(RowBinaryFormatSerializer s, String v)
      throws IOException {
    if (v == null) {
      s.writeNull();
    } else {
      s.writeNotNull();
      s.writeString(v);
    }
  }

  private static void writeInts(RowBinaryFormatSerializer s, OutputStream out, int[] a)
      throws IOException {
    RowBinaryFormatSerializer.writeSize(out, a.length);
    for (int v : a) {
      s.writeInt32(v);
    }
  }

  /** Dates as ISO strings, UUIDs as text, decimals as JSON numbers, arrays as JSON arrays. */
  @Override
  public void writeJson(JsonGenerator g, Object[] row) throws IOException {
    g.writeStartObject();
    g.writeFieldName(jsonNames[0]);
    g.writeNumber((Long) row[0]);
    g.writeFieldName(jsonNames[1]);
    g.writeNumber((Integer) row[1]);
    g.writeFieldName(jsonNames[2]);
    g.writeString(row[2].toString());
    g.writeFieldName(jsonNames[3]);
    writeDecimal(g, row[3]);
    g.writeFieldName(jsonNames[4]);
    g.writeNumber((Double) row[4]);
    g.writeFieldName(jsonNames[5]);
    g.writeString((String) row[5]);
    g.writeFieldName(jsonNames[6]);
    g.writeString((String) row[6]);
    g.writeFieldName(jsonNames[7]);
    writeNullable(g, (String) row[7]);
    g.writeFieldName(jsonNames[8]);
    int[] tags = (int[]) row[8];
    g.writeArray(tags, 0, tags.length);
    g.writeFieldName(jsonNames[9]);
    g.writeString(row[9].toString());
    g.writeFieldName(jsonNames[10]);
    g.writeNumber((Integer) row[10]);
    g.writeFieldName(jsonNames[11]);
    g.writeNumber((Long) row[11]);
    g.writeFieldName(jsonNames[12]);
    g.writeNumber((Double) row[12]);
    g.writeFieldName(jsonNames[13]);
    g.writeString((String) row[13]);
    g.writeFieldName(jsonNames[14]);
    writeNullable(g, (String) row[14]);
    g.writeFieldName(jsonNames[15]);
    g.writeString(row[15].toString());
    g.writeFieldName(jsonNames[16]);
    g.writeString(row[16].toString());
    g.writeFieldName(jsonNames[17]);
    writeDecimal(g, row[17]);
    g.writeFieldName(jsonNames[18]);
    g.writeNumber((Double) row[18]);
    g.writeFieldName(jsonNames[19]);
    int[] codes = (int[]) row[19];
    g.writeArray(codes, 0, codes.length);
    g.writeEndObject();
  }

  private static void writeDecimal(JsonGenerator g, Object v) throws IOException {
    if (v instanceof Double d) {
      g.writeNumber(d);
    } else {
      g.writeNumber((BigDecimal) v);
    }
  }

  private static void writeNullable(JsonGenerator g, String v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else {
      g.writeString(v);
    }
  }
}
