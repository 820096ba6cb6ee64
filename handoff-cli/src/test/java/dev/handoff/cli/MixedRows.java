package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The mixed-schema rows of the ingest tests: row {@code i} is a pure function of {@code i}, so the
 * per-column checksums of any id range are computed here in Java and compared with what the
 * server computes over the table.
 */
final class MixedRows {

  /** The table's columns. */
  static final String COLUMNS = "id UInt64, i32 Int32, f64 Float64, s String, ns Nullable(String),"
      + " d Date, dt DateTime, arr Array(Int32), lc LowCardinality(String), dec Decimal(18, 4)";

  /** One checksum per column (and the count), in the order of {@link #CHECKSUM_SQL}. */
  static final String CHECKSUM_SQL = "SELECT count(), sum(id), sum(i32), sum(f64),"
      + " sum(length(s)), sum(toUInt64(extract(s, '[0-9]+'))), count(ns), sum(length(ns)),"
      + " sum(toUInt32(d)), sum(toUInt32(dt)), sum(length(arr)), sum(arraySum(arr)),"
      + " sum(length(lc)), countIf(lc = 'red'), sum(dec) FROM %s FORMAT TabSeparated";

  private static final String[] COLORS = {"red", "green", "blue", "cyan", "magenta"};
  private static final LocalDate DAY0 = LocalDate.of(2020, 1, 1);
  private static final ObjectMapper JSON = new ObjectMapper();

  private MixedRows() {}

  static int i32(long i) {
    return (int) ((i * 7919) % 200001) - 100000;
  }

  static double f64(long i) {
    return (i % 1000) * 0.25 - 100;
  }

  static String s(long i) {
    return "s" + i + (i % 3 == 0 ? "é" : "") + "x".repeat((int) (i % 5));
  }

  static String ns(long i) {
    return i % 4 == 0 ? null : "n" + (i % 100);
  }

  static LocalDate d(long i) {
    return DAY0.plusDays(i % 3650);
  }

  static long dt(long i) {
    return 1_600_000_000L + i * 13;
  }

  static int[] arr(long i) {
    int[] a = new int[(int) (i % 4)];
    for (int k = 0; k < a.length; k++) {
      a[k] = (int) (i + k) * (k % 2 == 0 ? 1 : -1);
    }
    return a;
  }

  static String lc(long i) {
    return COLORS[(int) (i % COLORS.length)];
  }

  static BigDecimal dec(long i) {
    return BigDecimal.valueOf((i * 37) % 1_000_000 - 500_000, 4);
  }

  /** Returns row {@code i} as one line of JSON (no newline). */
  static String line(long i) {
    StringBuilder b = new StringBuilder(160);
    b.append("{\"id\":").append(i).append(",\"i32\":").append(i32(i)).append(",\"f64\":")
        .append(f64(i)).append(",\"s\":\"").append(s(i)).append("\",\"ns\":");
    String ns = ns(i);
    b.append(ns == null ? "null" : "\"" + ns + "\"").append(",\"d\":\"").append(d(i))
        .append("\",\"dt\":").append(dt(i)).append(",\"arr\":[");
    int[] a = arr(i);
    for (int k = 0; k < a.length; k++) {
      b.append(k == 0 ? "" : ",").append(a[k]);
    }
    return b.append("],\"lc\":\"").append(lc(i)).append("\",\"dec\":")
        .append(dec(i).toPlainString()).append('}').toString();
  }

  /** Writes rows {@code [0, rows)} to {@code file}, one per line. */
  static Path write(Path file, long rows) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (long i = 0; i < rows; i++) {
        w.write(line(i));
        w.write('\n');
      }
    }
    return file;
  }

  /** Returns the checksums of rows {@code [0, rows)} as {@link #CHECKSUM_SQL} computes them. */
  static List<BigDecimal> expected(long rows) {
    long sumId = 0;
    long sumI32 = 0;
    double sumF64 = 0;
    long lenS = 0;
    long numS = 0;
    long countNs = 0;
    long lenNs = 0;
    long days = 0;
    long secs = 0;
    long lenArr = 0;
    long sumArr = 0;
    long lenLc = 0;
    long red = 0;
    BigDecimal dec = BigDecimal.ZERO;
    for (long i = 0; i < rows; i++) {
      sumId += i;
      sumI32 += i32(i);
      sumF64 += f64(i);
      lenS += s(i).getBytes(StandardCharsets.UTF_8).length;
      numS += i;
      String ns = ns(i);
      if (ns != null) {
        countNs++;
        lenNs += ns.length();
      }
      days += d(i).toEpochDay();
      secs += dt(i);
      for (int v : arr(i)) {
        lenArr++;
        sumArr += v;
      }
      lenLc += lc(i).length();
      red += lc(i).equals("red") ? 1 : 0;
      dec = dec.add(dec(i));
    }
    List<BigDecimal> l = new ArrayList<>();
    for (long v : new long[] {rows, sumId, sumI32}) {
      l.add(BigDecimal.valueOf(v));
    }
    l.add(BigDecimal.valueOf(sumF64));
    for (long v : new long[] {lenS, numS, countNs, lenNs, days, secs, lenArr, sumArr, lenLc,
        red}) {
      l.add(BigDecimal.valueOf(v));
    }
    l.add(dec);
    return l;
  }

  /** Returns the checksums the server computes over {@code table}. */
  static List<BigDecimal> actual(String tsvLine) {
    List<BigDecimal> l = new ArrayList<>();
    for (String v : tsvLine.strip().split("\t")) {
      l.add(new BigDecimal(v));
    }
    return l;
  }

  /** Asserts that the table's checksums equal those of rows {@code [0, rows)}. */
  static void assertChecksums(String serverAnswer, long rows) {
    List<BigDecimal> actual = actual(serverAnswer);
    List<BigDecimal> expected = expected(rows);
    assertThat(actual).hasSameSizeAs(expected);
    String[] names = {"count", "id", "i32", "f64", "len(s)", "num(s)", "count(ns)", "len(ns)",
        "d", "dt", "len(arr)", "sum(arr)", "len(lc)", "red", "dec"};
    for (int k = 0; k < expected.size(); k++) {
      assertThat(actual.get(k)).as(names[k]).isEqualByComparingTo(expected.get(k));
    }
  }

  /** Parses the JSON summary a run printed. */
  static JsonNode summary(String out) throws IOException {
    return JSON.readTree(out);
  }
}
