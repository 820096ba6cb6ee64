package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.spi.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code Object[]} rows ({@link RowAccessors#objectArray()}) take the encoder's fast path for
 * common classes; everything else goes through the column's writer. The same rows through an
 * accessor that only delegates to {@code objectArray()} (so the encoder does not recognize it)
 * always take the writers: both must give the same bytes and, for rejected values, the same
 * error.
 */
final class ObjectArrayFastPathTest {

  private static final String LONG_ASCII = "x".repeat(127);

  private static final Map<String, List<Object>> VALUES = Map.ofEntries(
      Map.entry("Int8", ints(Byte.MIN_VALUE, Byte.MAX_VALUE)),
      Map.entry("UInt8", ints(0, 255)),
      Map.entry("Int16", ints(Short.MIN_VALUE, Short.MAX_VALUE)),
      Map.entry("UInt16", ints(0, 65535)),
      Map.entry("Int32", ints(Integer.MIN_VALUE, Integer.MAX_VALUE)),
      Map.entry("UInt32", ints(0, 0xFFFF_FFFFL)),
      Map.entry("Int64", ints(Long.MIN_VALUE, Long.MAX_VALUE)),
      Map.entry("UInt64", ints(0, Long.MAX_VALUE)),
      Map.entry("LowCardinality(UInt16)", ints(0, 65535)),
      Map.entry("Float64", Arrays.asList(0.0, -0.0, 1.5, Double.NaN, Double.NEGATIVE_INFINITY,
          Double.MIN_VALUE, 3L, 7, 2.5f, "4.25", null, "x")),
      Map.entry("DateTime", Arrays.asList(Instant.EPOCH, Instant.ofEpochSecond(0xFFFF_FFFFL),
          Instant.ofEpochSecond(0xFFFF_FFFFL, 999_999_999), Instant.ofEpochSecond(1L << 32),
          Instant.ofEpochSecond(-1), Instant.ofEpochSecond(-1, 500_000_000),
          Instant.ofEpochSecond(1_710_000_000, 123_000_000), 1_710_000_000L, null, "x")),
      Map.entry("DateTime('Asia/Kolkata')", Arrays.asList(Instant.ofEpochSecond(1_710_000_000),
          Instant.ofEpochSecond(-5), LocalDate.of(2024, 3, 15))),
      Map.entry("Date", Arrays.asList(LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31),
          LocalDate.ofEpochDay(65_535), LocalDate.ofEpochDay(65_536), LocalDate.of(2024, 3, 15),
          19_000L, Instant.ofEpochSecond(1_710_000_000), null, "2024-03-15", "x")),
      Map.entry("Date32", Arrays.asList(LocalDate.of(1969, 12, 31), LocalDate.of(2024, 3, 15))),
      Map.entry("String", strings()),
      Map.entry("LowCardinality(String)", strings()),
      Map.entry("Nullable(String)", strings()),
      Map.entry("LowCardinality(Nullable(String))", strings()),
      Map.entry("UUID", Arrays.asList(new UUID(0x0123456789ABCDEFL, 0xFEDCBA9876543210L),
          new UUID(-1, -1), "01234567-89ab-cdef-0123-456789abcdef", null, 5L)),
      Map.entry("Array(Int32)", Arrays.asList(new int[0], new int[] {1, -1, Integer.MIN_VALUE},
          new long[] {1L << 40}, List.of(1, 2), new Object[] {3, null}, null, 5L)),
      Map.entry("Decimal64(4)", decimals()),
      Map.entry("Decimal(9, 2)", decimals()),
      Map.entry("Decimal(18, 0)", decimals()),
      Map.entry("Decimal(18, 18)", decimals()),
      Map.entry("Decimal128(4)", decimals()));

  private static List<Object> ints(long min, long max) {
    List<Object> v = new ArrayList<>(Arrays.asList(min, max, min - 1, max + 1, 0L, 1, -1,
        (int) Math.max(Integer.MIN_VALUE, min), (int) Math.min(Integer.MAX_VALUE, max),
        (short) 7, (byte) -3, 2.0, 2.5, "12", new BigInteger("18446744073709551615"), null, "x"));
    if (max == Long.MAX_VALUE) {
      v.add(Long.MIN_VALUE);
    }
    return v;
  }

  private static List<Object> strings() {
    return Arrays.asList("", "a", "hello world", "caf\u00E9", "\u0141od\u017A",
        "\u20AC and \uD83D\uDE00", "bad \uD800 surrogate", LONG_ASCII, LONG_ASCII + "y",
        "x".repeat(126) + "\u00E9", "abcdefghijklmnopqrstuvwxyz0123456789abcd\u0080",
        "0123456789".repeat(40), new StringBuilder("sb"), new byte[] {1, 2, (byte) 0xFF}, 'c',
        null, 42L);
  }

  private static List<Object> decimals() {
    return Arrays.asList(0.0, -0.0, 1.5, 0.1, 123.4567, -123.4567, 0.00005, 1e14, 1e15, 9.99e17,
        1e-18, 0.123456789012345678, Double.NaN, Double.POSITIVE_INFINITY, 42L, -42, 10_000_000L,
        Long.MAX_VALUE, new BigDecimal("123.4567"), new BigDecimal("1.23456"),
        new BigDecimal("1E+3"), new BigDecimal("-0.0001"), new BigDecimal("99999999.99"),
        new BigDecimal("0.000000000000000001"), new BigDecimal("123456789012345.6789"),
        new BigInteger("12"), "3.25", null, "x");
  }

  @Test
  void everyValue_givesTheBytesOrTheErrorOfTheGenericPath() {
    int checked = 0;
    for (Map.Entry<String, List<Object>> e : VALUES.entrySet()) {
      for (Object value : e.getValue()) {
        // Alone, and between two other columns (the fast path keeps going after a fallback).
        checkRow(List.of(e.getKey()), Arrays.asList(value));
        checkRow(List.of("String", e.getKey(), "UInt8"), Arrays.asList("pre", value, 7));
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(300);
  }

  @Test
  void randomRowsOfMixedSchemas_sameBytesAsTheGenericPath() {
    List<String> types = new ArrayList<>(VALUES.keySet());
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      int n = 1 + r.nextInt(6);
      List<String> schema = new ArrayList<>();
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        String t = types.get(r.nextInt(types.size()));
        List<Object> values = VALUES.get(t);
        schema.add(t);
        row.add(values.get(r.nextInt(values.size())));
      }
      checkRow(schema, row);
    }
  }

  @Test
  void shortRow_isTheGenericPathsError() {
    checkRow(List.of("UInt8", "String"), Arrays.asList(1));
  }

  private static void checkRow(List<String> types, List<Object> row) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      columns.add(new ColumnSpec("c" + i, types.get(i)));
    }
    TableSchema schema = new TableSchema(columns);
    RowEncoder<Object[]> fast =
        new RowBinaryEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
    RowEncoder<Object[]> generic =
        new RowBinaryEncoderProvider().create(schema, new Delegating(), Map.of());
    String expected = outcome(() -> {
      ChunkBuffer b = new ChunkBuffer(4);
      b.writeByte(0x5A);
      generic.encode(row.toArray(), b);
      return b;
    });
    String actual = outcome(() -> {
      ChunkBuffer b = new ChunkBuffer(4);
      b.writeByte(0x5A);
      fast.encode(row.toArray(), b);
      return b;
    });
    assertThat(actual).as("%s %s", types, row).isEqualTo(expected);
  }

  /** {@code objectArray()} under another identity: the encoder's generic path. */
  private static final class Delegating implements RowAccessor<Object[]> {
    private final RowAccessor<Object[]> d = RowAccessors.objectArray();

    @Override
    public ValueKind kind(Object[] row, int field) {
      return d.kind(row, field);
    }

    @Override
    public Object getObject(Object[] row, int field) {
      return d.getObject(row, field);
    }

    @Override
    public boolean isNull(Object[] row, int field) {
      return d.isNull(row, field);
    }

    @Override
    public boolean getBoolean(Object[] row, int field) {
      return d.getBoolean(row, field);
    }

    @Override
    public long getLong(Object[] row, int field) {
      return d.getLong(row, field);
    }

    @Override
    public double getDouble(Object[] row, int field) {
      return d.getDouble(row, field);
    }

    @Override
    public BigInteger getBigInteger(Object[] row, int field) {
      return d.getBigInteger(row, field);
    }

    @Override
    public BigDecimal getBigDecimal(Object[] row, int field) {
      return d.getBigDecimal(row, field);
    }

    @Override
    public CharSequence getText(Object[] row, int field) {
      return d.getText(row, field);
    }

    @Override
    public byte[] getBytes(Object[] row, int field) {
      return d.getBytes(row, field);
    }

    @Override
    public RowAccessor<Object> nested(Object[] row, int field) {
      return d.nested(row, field);
    }

    @Override
    public int size(Object[] row) {
      return d.size(row);
    }
  }

  private interface Encoding {
    ChunkBuffer run();
  }

  private static String outcome(Encoding encoding) {
    try {
      return "bytes " + Arrays.toString(encoding.run().toByteArray());
    } catch (HandoffException e) {
      return "error " + e.errorClass() + " " + e.getMessage();
    }
  }
}
