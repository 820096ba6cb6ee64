package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.Frame;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Splitting frames of types 18.16 does not have (Map, Bool, Int128, UInt256, Date32, DateTime64,
 * IPs, a single-column Nested), checked without a server: each part equals the frame the same
 * encoder writes for that row alone.
 */
final class SplitEncodingTest {
  static final TableSchema SCHEMA = TableSchema.of(
      new ColumnSpec("id", "UInt32"), new ColumnSpec("m", "Map(String, Array(Int32))"),
      new ColumnSpec("b", "Bool"), new ColumnSpec("i128", "Int128"),
      new ColumnSpec("u256", "UInt256"), new ColumnSpec("d32", "Date32"),
      new ColumnSpec("t64", "DateTime64(3, 'Asia/Tokyo')"), new ColumnSpec("ip4", "IPv4"),
      new ColumnSpec("ip6", "IPv6"), new ColumnSpec("nd", "Nullable(Decimal(40, 5))"),
      new ColumnSpec("tup", "Tuple(a Int8, b Map(UInt8, Nullable(String)))"),
      new ColumnSpec("nest", "Nested(x UInt16, y String)"),
      new ColumnSpec("mn", "Map(String, Nullable(UInt64))"));

  private static List<Object[]> rows() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (int k = 0; k < i % 3; k++) {
        m.put("k" + k, List.of(k, -k, i));
      }
      Map<Object, Object> inner = new LinkedHashMap<>();
      if (i % 2 == 0) {
        inner.put(i, i % 4 == 0 ? null : "v" + i);
      }
      Map<String, Object> mn = new LinkedHashMap<>();
      mn.put("z", i == 3 ? null : (long) i);
      List<Object> nest = new ArrayList<>();
      for (int k = 0; k < i % 4; k++) {
        nest.add(List.of(k, "y" + k));
      }
      rows.add(new Object[] {(long) i, m, i % 2 == 0, BigInteger.valueOf(-i).shiftLeft(70),
          BigInteger.ONE.shiftLeft(200 + i), LocalDate.of(1901 + i * 50, 1, 2),
          Instant.ofEpochMilli(1_700_000_000_123L + i), "10.0.0." + i, "2001:db8::" + i,
          i == 5 ? null : new BigDecimal("12345678901234567890.1234" + i), List.of(i, inner),
          nest, mn});
    }
    return rows;
  }

  /** The types of ClickHouse 20-26 besides JSON, Variant and Dynamic. */
  static final TableSchema MODERN = TableSchema.of(
      new ColumnSpec("id", "UInt32"), new ColumnSpec("bf", "BFloat16"),
      new ColumnSpec("t", "Time"), new ColumnSpec("t64", "Nullable(Time64(6))"),
      new ColumnSpec("saf", "SimpleAggregateFunction(anyLast, Nullable(String))"),
      new ColumnSpec("asaf", "SimpleAggregateFunction(groupArrayArray, Array(String))"),
      new ColumnSpec("pt", "Point"), new ColumnSpec("mpg", "MultiPolygon"),
      new ColumnSpec("q", "QBit(Float32, 10)"), new ColumnSpec("nq", "Nullable(QBit(Int8, 3))"),
      new ColumnSpec("nt", "Nullable(Tuple(a UInt8, b String))"),
      new ColumnSpec("qs", "QBit(Int8, 24, 8)"));

  private static List<Object[]> modernRows() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      List<Object> polygon = List.of(List.of(List.of(i, -i), List.of(0.5, 1.5)));
      float[] q = new float[10];
      Arrays.fill(q, i - 2.5f);
      int[] qs = new int[24];
      for (int j = 0; j < qs.length; j++) {
        qs[j] = (j * 37 + i * 11) % 256 - 128;
      }
      rows.add(new Object[] {(long) i, i * 0.75f, (long) i * 3600,
          i == 2 ? null : java.time.Duration.ofMillis(-i * 1234L), i == 1 ? null : "s" + i,
          List.of("l" + i % 2), new double[] {i, -i}, i % 3 == 0 ? List.of() : List.of(polygon, polygon),
          q, i == 4 ? null : new int[] {i, -i, 127}, i == 3 ? null : List.of(i, "x" + i), qs});
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void split_modernTypes_partsEqualTheFramesOfEachRowAlone(String format) {
    List<Object[]> rows = modernRows();
    Frame frame = Encoded.frame(format, MODERN, rows);
    InsertWriter writer = ClickHouseHttp.create(ClickHouseHttpOptions.defaults())
        .writer("db", "t", MODERN, format);

    List<Frame> parts = writer.split(frame).orElseThrow();

    assertThat(parts).hasSize(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertThat(parts.get(i).toByteArray()).as("row %d", i)
          .isEqualTo(Encoded.frame(format, MODERN, List.<Object[]>of(rows.get(i))).toByteArray());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void split_partsEqualTheFramesOfEachRowAlone(String format) {
    List<Object[]> rows = rows();
    Frame frame = Encoded.frame(format, SCHEMA, rows);
    InsertWriter writer = ClickHouseHttp.create(ClickHouseHttpOptions.defaults())
        .writer("db", "t", SCHEMA, format);

    List<Frame> parts = writer.split(frame).orElseThrow();

    assertThat(parts).hasSize(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertThat(parts.get(i).toByteArray()).as("row %d", i)
          .isEqualTo(Encoded.frame(format, SCHEMA, List.<Object[]>of(rows.get(i))).toByteArray());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Native", "RowBinary"})
  void split_aFrameCutShortInsideARow_isEmpty(String format) {
    Frame frame = Encoded.frame(format, SCHEMA, rows());
    InsertWriter writer = ClickHouseHttp.create(ClickHouseHttpOptions.defaults())
        .writer("db", "t", SCHEMA, format);
    byte[] bytes = frame.toByteArray();
    java.util.Set<Integer> rowEnds = new java.util.HashSet<>(); // RowBinary: whole rows split
    int end = 0;
    for (Frame part : writer.split(frame).orElseThrow()) {
      end += part.length();
      rowEnds.add(end);
    }

    for (int cut = 1; cut < bytes.length; cut += 7) {
      if (format.equals("RowBinary") && rowEnds.contains(bytes.length - cut)) {
        continue;
      }
      Frame shorter = Frame.copyOf(Arrays.copyOf(bytes, bytes.length - cut));
      assertThat(writer.split(shorter)).as("cut %d", cut).isEmpty();
    }
  }
}
