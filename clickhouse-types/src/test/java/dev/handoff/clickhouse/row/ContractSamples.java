package dev.handoff.clickhouse.row;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.ValueKind;
import dev.handoff.tck.RowAccessorContract.Expected;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sample values of every kind for the TCK's RowAccessorContract, shared by the contract tests of
 * the Object[], List and Map adapters: two rows of the same twenty columns, each value with what
 * the adapters must read it as (see the table in {@link RowAccessors}).
 */
final class ContractSamples {
  private ContractSamples() {}

  enum Color { RED, GREEN }

  /** One column of one sample row: its Java value and what it reads as. */
  record Cell(String column, Object value, Expected expected) {}

  static final List<String> COLUMNS = List.of("id", "small", "flag", "ratio", "neg0", "big",
      "price", "name", "chars", "color", "data", "uid", "at", "ip", "none", "list", "nested",
      "longs", "attrs", "other");

  /** The columns, all typed String (the adapters never look at types). */
  static TableSchema schema() {
    List<ColumnSpec> columns = new ArrayList<>();
    for (String c : COLUMNS) {
      columns.add(new ColumnSpec(c, "String"));
    }
    return new TableSchema(columns);
  }

  /** Two rows, each cell with its expected read. */
  static List<List<Cell>> rows() {
    LinkedHashMap<String, Object> attrs = new LinkedHashMap<>();
    attrs.put("b", 1);
    attrs.put("a", null);
    UUID uid = new UUID(1, -1);
    Instant at = Instant.parse("2024-02-29T12:34:56.789Z");
    InetAddress ip = inet(10, 0, 0, 1);
    List<Cell> first = List.of(
        new Cell("id", 5L, Expected.ofLong(5)),
        new Cell("small", -7, Expected.ofLong(-7)),
        new Cell("flag", true, Expected.ofBoolean(true)),
        new Cell("ratio", Double.NaN, Expected.ofDouble(Double.NaN)),
        new Cell("neg0", -0.0f, Expected.ofDouble(-0.0)),
        new Cell("big", BigInteger.TWO.pow(70), Expected.ofBigInteger(BigInteger.TWO.pow(70))),
        new Cell("price", new BigDecimal("12.340"), Expected.ofBigDecimal(
            new BigDecimal("12.340"))),
        new Cell("name", "h\u00e9llo", Expected.ofText("h\u00e9llo")),
        new Cell("chars", new char[] {'h', 'i'}, Expected.ofText("hi")),
        new Cell("color", Color.GREEN, Expected.ofText("GREEN")),
        new Cell("data", new byte[] {1, -1}, Expected.ofBytes(new byte[] {1, -1})),
        new Cell("uid", uid, Expected.ofObject(ValueKind.UUID, uid)),
        new Cell("at", at, Expected.ofObject(ValueKind.TEMPORAL, at)),
        new Cell("ip", ip, Expected.ofObject(ValueKind.INET, ip)),
        new Cell("none", null, Expected.ofNull()),
        new Cell("list", Arrays.asList(1L, null, "x"), Expected.sequence(Expected.ofLong(1),
            Expected.ofNull(), Expected.ofText("x"))),
        new Cell("nested", List.of(List.of(1, 2), List.of()), Expected.sequence(
            Expected.sequence(Expected.ofLong(1), Expected.ofLong(2)), Expected.sequence())),
        new Cell("longs", new long[] {Long.MIN_VALUE, 1}, Expected.sequence(
            Expected.ofLong(Long.MIN_VALUE), Expected.ofLong(1))),
        new Cell("attrs", attrs, Expected.map(Expected.ofText("b"), Expected.ofLong(1),
            Expected.ofText("a"), Expected.ofNull())),
        new Cell("other", Optional.of(1), Expected.ofObject(ValueKind.OTHER, Optional.of(1))));
    LocalDate day = LocalDate.of(1969, 12, 31);
    Object plain = new Object();
    List<Cell> second = List.of(
        new Cell("id", null, Expected.ofNull()),
        new Cell("small", new AtomicLong(Long.MAX_VALUE), Expected.ofLong(Long.MAX_VALUE)),
        new Cell("flag", false, Expected.ofBoolean(false)),
        new Cell("ratio", 1.0e300, Expected.ofDouble(1.0e300)),
        new Cell("neg0", null, Expected.ofNull()),
        new Cell("big", null, Expected.ofNull()),
        new Cell("price", new BigDecimal("-0.5"), Expected.ofBigDecimal(new BigDecimal("-0.5"))),
        new Cell("name", new StringBuilder(""), Expected.ofText("")),
        new Cell("chars", 'x', Expected.ofText("x")),
        new Cell("color", null, Expected.ofNull()),
        new Cell("data", new byte[0], Expected.ofBytes(new byte[0])),
        new Cell("uid", null, Expected.ofNull()),
        new Cell("at", day, Expected.ofObject(ValueKind.TEMPORAL, day)),
        new Cell("ip", null, Expected.ofNull()),
        new Cell("none", "now text", Expected.ofText("now text")),
        new Cell("list", new TreeSet<>(List.of(3, 1)), Expected.sequence(Expected.ofLong(1),
            Expected.ofLong(3))),
        new Cell("nested", new Object[] {new int[] {7}, null}, Expected.sequence(
            Expected.sequence(Expected.ofLong(7)), Expected.ofNull())),
        new Cell("longs", new double[] {-0.0}, Expected.sequence(Expected.ofDouble(-0.0))),
        new Cell("attrs", new LinkedHashMap<>(), Expected.map()),
        new Cell("other", plain, Expected.ofObject(ValueKind.OTHER, plain)));
    return List.of(first, second);
  }

  /** The values of a row, in column order. */
  static Object[] values(List<Cell> row) {
    Object[] out = new Object[row.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = row.get(i).value();
    }
    return out;
  }

  /** The expected reads of a row, in column order. */
  static List<Expected> expected(List<Cell> row) {
    List<Expected> out = new ArrayList<>();
    for (Cell c : row) {
      out.add(c.expected());
    }
    return out;
  }

  private static InetAddress inet(int a, int b, int c, int d) {
    try {
      return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
