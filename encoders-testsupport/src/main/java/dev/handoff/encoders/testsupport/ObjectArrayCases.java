package dev.handoff.encoders.testsupport;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Values per ClickHouse type for the encoders' {@code Object[]} fast-path tests: for each type a
 * fast path may handle, the Java values it takes (at the edges of the type's range) and the
 * values it must leave to the generic path (out of range, other classes, non-ASCII text at
 * block boundaries, 127/128 chars, NaN, finer decimal fractions, null). Both encoders' tests
 * compare the fast path with the generic path (through {@link DelegatingAccessor}) on them.
 */
public final class ObjectArrayCases {
  private ObjectArrayCases() {}

  private static final String LONG_ASCII = "x".repeat(127);

  /** Per type string, the values to try. */
  public static final Map<String, List<Object>> VALUES = Map.ofEntries(
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
          new long[] {1L << 40}, List.of(1, 2), new Object[] {3, null}, null, 5L,
          new BrokenList())),
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

  /**
   * A list whose elements cannot be read: the exception is not an encoder error, and the
   * encoders turn it into a DATA error naming the column, on every path.
   */
  static final class BrokenList extends AbstractList<Object> {
    @Override
    public Object get(int index) {
      throw new IllegalStateException("element " + index + " cannot be read");
    }

    @Override
    public int size() {
      return 2;
    }

    @Override
    public String toString() {
      return "BrokenList";
    }
  }

  private static List<Object> decimals() {
    return Arrays.asList(0.0, -0.0, 1.5, 0.1, 123.4567, -123.4567, 0.00005, 1e14, 1e15, 9.99e17,
        1e-18, 0.123456789012345678, Double.NaN, Double.POSITIVE_INFINITY, 42L, -42, 10_000_000L,
        Long.MAX_VALUE, new BigDecimal("123.4567"), new BigDecimal("1.23456"),
        new BigDecimal("1E+3"), new BigDecimal("-0.0001"), new BigDecimal("99999999.99"),
        new BigDecimal("0.000000000000000001"), new BigDecimal("123456789012345.6789"),
        new BigInteger("12"), "3.25", null, "x");
  }

}
