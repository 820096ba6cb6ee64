package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.FlowControl;
import dev.handoff.api.Frame;
import dev.handoff.api.HandoffException;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.Golden;
import dev.handoff.testkit.Gen;
import dev.handoff.testkit.RecordingAck;
import dev.handoff.testkit.SeedSweep;
import dev.handoff.testkit.Shrinker;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/*
 * The rowbinary encoder's errors and options, through the real provider and encoder: every bad
 * value the issue lists is a DATA HandoffException whose message names the column, its type,
 * the value and the reason, and nothing else ever escapes encode (also not with an adapter that
 * throws or lies about its values). Rollback and the per-frame header are checked through the
 * real SinkHandoff stage.
 */
final class RowBinaryEncoderTest {

  private static final RowBinaryEncoderProvider PROVIDER = new RowBinaryEncoderProvider();
  private static final Map<String, String> WITH_HEADER =
      Map.of(RowBinaryOptions.HEADER, RowBinaryOptions.HEADER_NAMES_AND_TYPES);

  /* ------------------------------------------------------------------ the errors */

  /**
   * Each case: column type, the bad value, and what the message must say about the value (its
   * rendering and kind) and the reason.
   */
  static Stream<Arguments> integersOutOfRange() {
    return Stream.of(
        Arguments.of("UInt8", 300, "value 300 (LONG)", "out of range 0..255"),
        Arguments.of("UInt8", -1, "value -1 (LONG)", "out of range 0..255"),
        Arguments.of("Int8", -129L, "value -129 (LONG)", "out of range -128..127"),
        Arguments.of("Int16", 40_000, "value 40000 (LONG)", "out of range -32768..32767"),
        Arguments.of("UInt32", 1L << 32, "value 4294967296 (LONG)", "out of range"),
        Arguments.of("Int32", BigInteger.ONE.shiftLeft(40), "1099511627776 (BIG_INTEGER)",
            "out of range"),
        Arguments.of("UInt64", -1L, "value -1 (LONG)", "out of range 0..18446744073709551615"),
        Arguments.of("UInt64", BigInteger.ONE.shiftLeft(64), "18446744073709551616",
            "out of range"),
        Arguments.of("Int64", "9223372036854775808", "\"9223372036854775808\" (TEXT)",
            "out of range"),
        Arguments.of("Int128", BigInteger.ONE.shiftLeft(127), "(BIG_INTEGER)", "out of range"),
        Arguments.of("UInt256", -1L, "value -1 (LONG)", "out of range 0..2^256-1"),
        Arguments.of("UInt16", 1.5e6, "value 1500000.0 (DOUBLE)", "out of range 0..65535"),
        Arguments.of("Int32", 2.5, "value 2.5 (DOUBLE)", "not an integer"));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("integersOutOfRange")
  void integerOutOfRange_isADataErrorNeverATruncation(String type, Object value,
      String valueText, String reason) {
    assertDataError(type, value, valueText, reason);
  }

  static Stream<Arguments> nonFiniteIntoDecimal() {
    return Stream.of(
        Arguments.of("Decimal(9, 2)", Double.NaN, "value NaN (DOUBLE)"),
        Arguments.of("Decimal(9, 2)", Double.POSITIVE_INFINITY, "value Infinity (DOUBLE)"),
        Arguments.of("Decimal(18, 4)", Double.NEGATIVE_INFINITY, "value -Infinity (DOUBLE)"),
        Arguments.of("Decimal(38, 10)", Float.NaN, "value NaN (DOUBLE)"),
        Arguments.of("Decimal(76, 0)", Double.POSITIVE_INFINITY, "value Infinity (DOUBLE)"),
        Arguments.of("Decimal(9, 2)", "nan", "value \"nan\" (TEXT)"),
        Arguments.of("Decimal(38, 2)", "-inf", "value \"-inf\" (TEXT)"));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("nonFiniteIntoDecimal")
  void nanOrInfinityIntoDecimal_isADataError(String type, Object value, String valueText) {
    assertDataError(type, value, valueText, "not finite; a Decimal holds no NaN or Infinity");
  }

  static Stream<Arguments> textIntoNumbers() {
    return Stream.of(
        Arguments.of("Int32", "abc"),
        Arguments.of("UInt8", " 1"),
        Arguments.of("Int64", "0x10"),
        Arguments.of("Float64", "1,5"),
        Arguments.of("Float32", "1.5f"),
        Arguments.of("Decimal(9, 2)", "12abc"),
        Arguments.of("Decimal(76, 2)", ""),
        Arguments.of("Int128", "1_000"),
        Arguments.of("Nullable(UInt16)", "seven"));
  }

  @ParameterizedTest(name = "{0} <- \"{1}\"")
  @MethodSource("textIntoNumbers")
  void textIntoNumberColumn_isADataError(String type, String value) {
    assertDataError(type, value, "value \"" + value + "\" (TEXT)", "is not a number");
  }

  @Test
  void fixedStringLongerThanN_isADataError() {
    assertDataError("FixedString(3)", "abcd", "value \"abcd\" (TEXT)",
        "4 UTF-8 bytes do not fit FixedString(3)");
    // Three characters, five bytes: the limit is in bytes.
    assertDataError("FixedString(3)", "h\u00e9\u00e9", "value \"h\u00e9\u00e9\" (TEXT)",
        "5 UTF-8 bytes do not fit FixedString(3)");
    assertDataError("FixedString(3)", new byte[] {1, 2, 3, 4}, "0x01020304 (4 bytes) (BYTES)",
        "4 bytes do not fit FixedString(3)");
    assertDataError("Nullable(FixedString(1))", "ab", "value \"ab\" (TEXT)",
        "do not fit FixedString(1)");
  }

  static Stream<String> nonNullableTypes() {
    return Stream.of("Int32", "UInt64", "Int256", "Float64", "Bool", "Decimal(9, 2)",
        "Decimal(40, 2)", "String", "FixedString(2)", "Date", "Date32", "DateTime",
        "DateTime64(3)", "UUID", "IPv4", "IPv6", "Enum8('a' = 1)", "Enum16('a' = 1000)",
        "LowCardinality(String)", "Array(Int32)", "Tuple(Int32, String)",
        "Tuple(a Int32, b String)", "Map(String, Int32)", "Nested(a Int32, b String)");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nonNullableTypes")
  void nullIntoNonNullableColumn_isADataError(String type) {
    assertDataError(type, null, "value null (NULL)", "null into a non-Nullable column");
  }

  @Test
  void nullInsideAContainerOfNonNullableElements_isADataErrorNamingTheElement() {
    HandoffException e = dataError(encoder("v", "Array(Int32)"), List.of(1), Arrays.asList(1, null));
    assertThat(e).hasMessageContaining("column \"v[]\" (Int32)")
        .hasMessageContaining("value null (NULL)")
        .hasMessageContaining("null into a non-Nullable column");

    Map<String, Object> nullValue = new HashMap<>();
    nullValue.put("k", null);
    e = dataError(encoder("m", "Map(String, Int32)"), Map.of("k", 1), nullValue);
    assertThat(e).hasMessageContaining("column \"m.value\" (Int32)")
        .hasMessageContaining("null into a non-Nullable column");

    e = dataError(encoder("t", "Tuple(a Int32, b String)"), List.of(1, "x"),
        Arrays.asList(1, null));
    assertThat(e).hasMessageContaining("column \"t.b\" (String)")
        .hasMessageContaining("null into a non-Nullable column");
  }

  @Test
  void unknownEnumName_isADataError() {
    String type = "Enum8('a' = 1, 'b' = 2)";
    assertDataError(type, "c", "value \"c\" (TEXT)", "is not a declared enum name");
    // Names are case-sensitive, as in ClickHouse.
    assertDataError(type, "A", "value \"A\" (TEXT)", "is not a declared enum name");
    assertDataError("Enum16('lo' = -32768, 'hi' = 32767)", "", "value \"\" (TEXT)",
        "is not a declared enum name");
  }

  @Test
  void unknownEnumNumber_isADataError() {
    assertDataError("Enum8('a' = 1, 'b' = 2)", 3, "value 3 (LONG)",
        "is not a declared enum value");
    assertDataError("Enum8('a' = 1, 'b' = 2)", 257, "value 257 (LONG)",
        "is not a declared enum value");
    assertDataError("Enum16('a' = 1000)", -1000L, "value -1000 (LONG)",
        "is not a declared enum value");
  }

  static Stream<Arguments> malformedUuidsIpsDatesAndTimes() {
    return Stream.of(
        Arguments.of("UUID", "550e8400-e29b-41d4-a716-44665544000"),
        Arguments.of("UUID", "550e8400e29b41d4a716446655440000x"),
        Arguments.of("UUID", "not-a-uuid"),
        Arguments.of("IPv4", "256.1.1.1"),
        Arguments.of("IPv4", "1.2.3"),
        Arguments.of("IPv4", "localhost"), // never resolved
        Arguments.of("IPv4", "::1"),
        Arguments.of("IPv6", "2001:db8::1::2"),
        Arguments.of("IPv6", "fe80::1%eth0"),
        Arguments.of("IPv6", "[::1]"),
        Arguments.of("IPv6", "example.com"),
        Arguments.of("Date", "2024-02-30"),
        Arguments.of("Date", "15.03.2024"),
        Arguments.of("Date32", "2024-3-15"),
        Arguments.of("DateTime", "2024-03-15 25:00:00"),
        Arguments.of("DateTime", "yesterday"),
        Arguments.of("DateTime('Asia/Tokyo')", "2024-03-15T14:30:00+25:00"),
        Arguments.of("DateTime64(3)", "2024-03-15T14:30:00.123Zjunk"),
        Arguments.of("DateTime64(6, 'UTC')", "14:30:00"));
  }

  @ParameterizedTest(name = "{0} <- \"{1}\"")
  @MethodSource("malformedUuidsIpsDatesAndTimes")
  void malformedUuidIpDateOrTime_isADataError(String type, String value) {
    HandoffException e = dataError(encoder("c", type), null, value);
    assertThat(e).hasMessageContaining("column \"c\" (" + canonical(type) + ")")
        .hasMessageContaining("value \"" + value + "\" (TEXT)")
        .hasMessageMatching("(?s).*\\(TEXT\\)[: ]+(is not|has) .+");
  }

  static Stream<Arguments> wrongContainers() {
    return Stream.of(
        Arguments.of("Array(Int32)", "1,2,3", "value \"1,2,3\" (TEXT)",
            "expected a list or an array but the value is TEXT"),
        Arguments.of("Array(Int32)", Map.of("a", 1), "(MAP)",
            "expected a list or an array but the value is MAP"),
        Arguments.of("Array(String)", 7, "value 7 (LONG)",
            "expected a list or an array but the value is LONG"),
        Arguments.of("Map(String, Int32)", List.of("a", 1), "(SEQUENCE)",
            "expected a map but the value is SEQUENCE"),
        Arguments.of("Map(String, Int32)", "{a: 1}", "(TEXT)", "expected a map"),
        Arguments.of("Tuple(Int32, String)", "(1, 'a')", "(TEXT)",
            "expected a list or an array but the value is TEXT"),
        Arguments.of("Tuple(Int32, String)", List.of(1), "(SEQUENCE)",
            "a tuple of 2 elements needs 2 values, not 1"),
        Arguments.of("Nested(a Int32, b String)", List.of(1, "x"), "column \"n[]\"",
            "expected a list or an array but the value is LONG"),
        Arguments.of("String", List.of("a"), "(SEQUENCE)", "cannot convert SEQUENCE to String"),
        Arguments.of("Int32", new int[] {1}, "(SEQUENCE)", "cannot convert SEQUENCE to Int32"));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("wrongContainers")
  void wrongContainerType_isADataError(String type, Object value, String valueText,
      String reason) {
    HandoffException e = dataError(encoder("n", type), null, value);
    assertThat(e).hasMessageContaining("column \"n").hasMessageContaining(valueText)
        .hasMessageContaining(reason);
  }

  @Test
  void arrayValueInAMessage_isShownByItsElementsNotItsIdentity() {
    HandoffException e = dataError(encoder("n", "Int32"), null, new int[] {1, 2});
    assertThat(e).hasMessageContaining("value [1, 2] (SEQUENCE)");

    e = dataError(encoder("n", "Float64"), null, new double[] {1.5, Double.NaN});
    assertThat(e).hasMessageContaining("value [1.5, NaN] (SEQUENCE)");

    e = dataError(encoder("n", "String"), null, new boolean[] {true});
    assertThat(e).hasMessageContaining("value [true] (SEQUENCE)");

    e = dataError(encoder("n", "UUID"), null, new Object[] {new long[] {7}, "x"});
    assertThat(e).hasMessageContaining("value [[7], x] (SEQUENCE)");
  }

  @Test
  void mapWithANullKey_isADataError() {
    Map<String, Integer> m = new HashMap<>();
    m.put("a", 1);
    m.put(null, 2);
    HandoffException e = dataError(encoder("m", "Map(String, Int32)"), Map.of("a", 1), m);
    assertThat(e).hasMessageContaining("column \"m\" (Map(String, Int32))")
        .hasMessageContaining("null, 2") // a map shows as its flattened entries
        .hasMessageContaining("a map key is null");

    Map<Integer, String> nullable = new HashMap<>();
    nullable.put(null, "x");
    e = dataError(encoder("m", "Map(LowCardinality(String), String)"), null, nullable);
    assertThat(e).hasMessageContaining("a map key is null");
  }

  @Test
  void arrayNestedAtTheWrongDepth_isADataErrorNamingTheElement() {
    // One level too shallow: the elements of Array(Array(Int32)) must be arrays.
    HandoffException e = dataError(encoder("v", "Array(Array(Int32))"), List.of(List.of(1)),
        List.of(1, 2));
    assertThat(e).hasMessageContaining("column \"v[]\" (Array(Int32))")
        .hasMessageContaining("value 1 (LONG)")
        .hasMessageContaining("expected a list or an array but the value is LONG");

    // One level too deep.
    e = dataError(encoder("v", "Array(Int32)"), List.of(1), List.of(List.of(1)));
    assertThat(e).hasMessageContaining("column \"v[]\" (Int32)")
        .hasMessageContaining("[1] (SEQUENCE)")
        .hasMessageContaining("cannot convert SEQUENCE to Int32");

    // Mixed depths in one value.
    e = dataError(encoder("v", "Array(Array(Array(String)))"), null,
        List.of(List.of(List.of("a")), List.of("b")));
    assertThat(e).hasMessageContaining("column \"v[][]\" (Array(String))")
        .hasMessageContaining("value \"b\" (TEXT)");
  }

  /* ------------------------------------------------------------------ nothing else escapes */

  /** Every family, nested and not, for the hostile-accessor sweeps. */
  static final List<String> ALL_TYPES = List.of("Int8", "UInt8", "Int16", "UInt16", "Int32",
      "UInt32", "Int64", "UInt64", "Int128", "UInt128", "Int256", "UInt256", "Float32",
      "Float64", "Bool", "Decimal(9, 2)", "Decimal(18, 4)", "Decimal(38, 10)", "Decimal(76, 20)",
      "String", "FixedString(4)", "Date", "Date32", "DateTime", "DateTime('Asia/Tokyo')",
      "DateTime64(3)", "DateTime64(9, 'UTC')", "UUID", "IPv4", "IPv6",
      "Enum8('a' = 1, 'b' = 2)", "Enum16('x' = -1000, 'y' = 1000)", "Nullable(Int32)",
      "Nullable(String)", "LowCardinality(String)", "LowCardinality(Nullable(String))",
      "Array(Int32)", "Array(Array(String))", "Array(Nullable(UUID))", "Tuple(Int32, String)",
      "Tuple(a Float64, b Array(Date))", "Map(String, UInt64)",
      "Map(LowCardinality(String), Array(Nullable(Int8)))", "Nested(a UInt8, b String)");

  static Stream<Arguments> typesAndKinds() {
    return ALL_TYPES.stream().flatMap(t -> Arrays.stream(ValueKind.values())
        .map(k -> Arguments.of(t, k)));
  }

  @ParameterizedTest(name = "{0}, kind {1}")
  @MethodSource("typesAndKinds")
  void accessorWhoseGettersThrow_givesOnlyADataErrorNamingColumnAndType(String type,
      ValueKind kind) {
    RuntimeException boom = kind.ordinal() % 2 == 0
        ? new ClassCastException("boom: not what the kind said")
        : new NullPointerException("boom: no value");
    RowAccessor<Object> hostile = new Hostile(kind, null, boom);

    Throwable t = encodeWith(type, hostile);

    if (kind == ValueKind.NULL && isNullable(type)) {
      assertThat(t).as("a NULL into a Nullable column needs no getter").isNull();
      return;
    }
    assertDataErrorOf(t, "c", type);
  }

  @ParameterizedTest(name = "{0}, kind {1}")
  @MethodSource("typesAndKinds")
  void accessorThatReturnsTheWrongClassForItsKind_givesOnlyADataError(String type,
      ValueKind kind) {
    // getObject returns a plain Object, whatever the kind; the default typed getters cast it.
    RowAccessor<Object> lying = new Hostile(kind, new Object(), null);

    Throwable t = encodeWith(type, lying);

    if (kind == ValueKind.NULL && isNullable(type)) {
      assertThat(t).isNull();
      return;
    }
    assertDataErrorOf(t, "c", type);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allTypes")
  void accessorWhoseKindThrowsOrIsNull_givesOnlyADataError(String type) {
    RowAccessor<Object> kindThrows = new Hostile(null, "x", null) {
      @Override
      public ValueKind kind(Object row, int field) {
        throw new IllegalStateException("boom in kind");
      }

      @Override
      public boolean isNull(Object row, int field) {
        throw new IllegalStateException("boom in isNull");
      }
    };
    assertDataErrorOf(encodeWith(type, kindThrows), "c", type);

    RowAccessor<Object> kindIsNull = new Hostile(null, "x", null) {
      @Override
      public boolean isNull(Object row, int field) {
        return false;
      }
    };
    assertDataErrorOf(encodeWith(type, kindIsNull), "c", type);
  }

  static Stream<String> allTypes() {
    return ALL_TYPES.stream();
  }

  @Test
  void accessorWhoseContainerSizeLies_givesOnlyADataError() {
    // The nested accessor claims more elements than the list holds.
    RowAccessor<Object> nestedLies = new Hostile(ValueKind.SEQUENCE, List.of(1, 2), null) {
      @Override
      public RowAccessor<Object> nested(Object row, int field) {
        RowAccessor<Object> values = RowAccessors.values();
        return new Hostile(null, null, null) {
          @Override
          public ValueKind kind(Object c, int i) {
            return values.kind(c, i);
          }

          @Override
          public Object getObject(Object c, int i) {
            return values.getObject(c, i);
          }

          @Override
          public long getLong(Object c, int i) {
            return values.getLong(c, i);
          }

          @Override
          public int size(Object c) {
            return 5;
          }
        };
      }
    };
    Throwable t = encodeWith("Array(Int32)", nestedLies);
    assertDataErrorOf(t, "c[]", "Int32");
    assertThat(t).hasMessageContaining("IndexOutOfBoundsException");

    t = encodeWith("Tuple(Int32, Int32, Int32, Int32, Int32)", nestedLies);
    assertDataErrorOf(t, "c.3", "Int32");
    assertThat(t).hasMessageContaining("IndexOutOfBoundsException");
  }

  @Test
  void adapterFailure_keepsTheAdapterExceptionAsTheCause() {
    ClassCastException boom = new ClassCastException("boom");
    Throwable t = encodeWith("String", new Hostile(ValueKind.TEXT, "shown", boom));

    assertDataErrorOf(t, "c", "String");
    assertThat(t).as("the adapter's bug must stay visible").hasRootCause(boom);
    assertThat(t).hasMessageContaining("ClassCastException").hasMessageContaining("boom");
  }

  @Test
  void adapterFailure_stillShowsTheValueWhenGetObjectWorks() {
    // getText throws, getObject works: the message can still show the value.
    for (String type : List.of("String", "FixedString(8)", "Int32", "UUID", "Array(String)")) {
      ValueKind kind = type.startsWith("Array") ? ValueKind.SEQUENCE : ValueKind.TEXT;
      Throwable t = encodeWith(type, new Hostile(kind, "shown-value",
          new ClassCastException("boom")));
      assertDataErrorOf(t, "c", type);
      assertThat(t).as(type).hasMessageContaining("shown-value");
    }
  }

  /** A random value for a random column: encode succeeds or throws DATA, and leaves no trace. */
  private record FuzzCase(String type, List<Object> values) {
    @Override
    public String toString() {
      return type + " <- " + Arrays.deepToString(values.toArray());
    }
  }

  @Test
  void anyJavaValueIntoAnyType_eitherEncodesOrIsADataErrorAndLeavesNoTrace() {
    Gen<FuzzCase> cases = random -> {
      String type = ALL_TYPES.get(random.nextInt(ALL_TYPES.size()));
      int n = random.nextInt(1, 9);
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        values.add(anyValue(random, 3));
      }
      return new FuzzCase(type, values);
    };

    SeedSweep.run("any value into any type is encoded or a DATA error, never a partial row",
        1, 2_000, cases::sample, RowBinaryEncoderTest::encodesOrRejectsCleanly,
        (failing, stillFails) -> new FuzzCase(failing.type(), Shrinker.shrinkList(
            failing.values(), v -> stillFails.test(new FuzzCase(failing.type(), v)))));
  }

  private static boolean encodesOrRejectsCleanly(FuzzCase c) {
    RowEncoder<Object[]> encoder = encoder("c", c.type());
    ChunkBuffer buffer = new ChunkBuffer(16);
    List<Object[]> good = new ArrayList<>();
    for (Object value : c.values()) {
      Object[] row = {value};
      int start = buffer.length();
      try {
        encoder.encode(row, buffer);
        good.add(row);
      } catch (HandoffException e) {
        assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
        assertThat(e).hasMessageContaining("column ").hasMessageContaining("c");
        buffer.truncate(start); // what the stage does
      }
    }
    // Other exceptions fail the property by escaping. The survivors encode alone to the same
    // bytes: a failed row left no state behind in the encoder.
    ChunkBuffer alone = new ChunkBuffer(16);
    RowEncoder<Object[]> fresh = encoder("c", c.type());
    for (Object[] row : good) {
      fresh.encode(row, alone);
    }
    assertThat(buffer.toByteArray()).isEqualTo(alone.toByteArray());
    return true;
  }

  private enum Color { RED, a }

  private static Object anyValue(SplittableRandom r, int depth) {
    int pick = r.nextInt(depth > 0 ? 44 : 38);
    switch (pick) {
      case 0: return null;
      case 1: return r.nextLong();
      case 2: return (long) r.nextInt(-300, 300);
      case 3: return r.nextInt();
      case 4: return (short) r.nextInt();
      case 5: return (byte) r.nextInt();
      case 6: return r.nextDouble() * 1e6 - 5e5;
      case 7: return Double.NaN;
      case 8: return Double.NEGATIVE_INFINITY;
      case 9: return (float) r.nextDouble();
      case 10: return "";
      case 11: return "abc";
      case 12: return Long.toString(r.nextLong());
      case 13: return "2024-03-15";
      case 14: return "2024-03-15 14:30:00.123";
      case 15: return "::ffff:10.0.0.1";
      case 16: return "127.0.0.1";
      case 17: return UUID.randomUUID().toString().substring(r.nextInt(2));
      case 18: return new UUID(r.nextLong(), r.nextLong());
      case 19: return new byte[r.nextInt(0, 20)];
      case 20: return new byte[16];
      case 21: return BigInteger.ONE.shiftLeft(r.nextInt(0, 300)).subtract(BigInteger.ONE);
      case 22: return BigDecimal.valueOf(r.nextLong(), r.nextInt(-5, 30));
      case 23: return Instant.ofEpochSecond(r.nextLong(-10_000_000_000L, 20_000_000_000L));
      case 24: return LocalDate.ofEpochDay(r.nextInt(-100_000, 100_000));
      case 25: return LocalDateTime.of(2024, 3, 15, 14, 30);
      case 26: return r.nextBoolean();
      case 27: return new Object();
      case 28: return Optional.empty();
      case 29: return Color.values()[r.nextInt(2)];
      case 30: return new char[] {'a', 'b'};
      case 31: return 'x';
      case 32: return new AtomicLong(r.nextInt(0, 3));
      case 33: return new int[] {1, 2, r.nextInt()};
      case 34: return new double[] {Double.NaN, 1.5};
      case 35: return "nan";
      case 36: return "1e400";
      case 37: return InetAddress.getLoopbackAddress();
      case 38: case 39: {
        List<Object> l = new ArrayList<>();
        for (int i = r.nextInt(0, 4); i > 0; i--) {
          l.add(anyValue(r, depth - 1));
        }
        return l;
      }
      case 40: {
        Object[] a = new Object[r.nextInt(0, 4)];
        for (int i = 0; i < a.length; i++) {
          a[i] = anyValue(r, depth - 1);
        }
        return a;
      }
      default: {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = r.nextInt(0, 3); i > 0; i--) {
          m.put(anyValue(r, 0), anyValue(r, depth - 1));
        }
        return m;
      }
    }
  }

  /* ------------------------------------------------------------------ reference models */

  @Test
  void stringColumn_isTheByteLengthThenTheUtf8OfAnyText() {
    // Lengths straddle the encoder's short-text path (at most 42 chars, a one-byte length
    // patched in afterwards) and the one-byte varint limit (127/128 bytes).
    Gen<String> texts = Gen.text(200);
    SeedSweep.run("String <- any text = varint(UTF-8 length) + UTF-8, unpaired surrogates as '?'",
        1, 3_000, texts::sample, text -> {
          byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
          ChunkBuffer expected = new ChunkBuffer(16);
          expected.writeVarUInt(utf8.length);
          expected.writeBytes(utf8);
          TableSchema schema = schema("s", "String", "ls", "LowCardinality(Nullable(String))",
              "fs", "FixedString(" + Math.max(1, utf8.length) + ")");
          byte[] actual = encodeAlone(schema, Map.of(),
              new Object[] {text, new StringBuilder(text), text});
          byte[] fixed = Arrays.copyOf(utf8, Math.max(1, utf8.length));
          byte[] row = concat(concat(expected.toByteArray(),
              concat(new byte[] {0}, expected.toByteArray())), fixed);
          assertThat(actual).isEqualTo(row);
          return true;
        });
  }

  @Test
  void fixedStringColumn_padsAnyTextThatFitsAndRejectsTheRest() {
    Gen<Object[]> cases = random -> new Object[] {Gen.text(40).next(random),
        random.nextInt(1, 50)};
    SeedSweep.run("FixedString(N) <- text: UTF-8 padded with zeros to N, or a DATA error",
        1, 2_000, cases::sample, c -> {
          String text = (String) c[0];
          int n = (Integer) c[1];
          byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
          RowEncoder<Object[]> encoder = encoder("f", "FixedString(" + n + ")");
          ChunkBuffer buffer = new ChunkBuffer(8);
          if (utf8.length <= n) {
            encoder.encode(new Object[] {text}, buffer);
            assertThat(buffer.toByteArray()).isEqualTo(Arrays.copyOf(utf8, n));
          } else {
            assertThat(catchThrowable(() -> encoder.encode(new Object[] {text}, buffer)))
                .isInstanceOf(HandoffException.class)
                .hasMessageContaining(utf8.length + " UTF-8 bytes do not fit FixedString(" + n);
          }
          return true;
        });
  }

  private static final List<String> INTEGER_TYPES = List.of("Int8", "UInt8", "Int16", "UInt16",
      "Int32", "UInt32", "Int64", "UInt64", "Int128", "UInt128", "Int256", "UInt256");

  @Test
  void integerColumn_writesInRangeValuesLittleEndianAndRejectsTheRestWhateverTheJavaType() {
    Gen<Object[]> cases = random -> {
      String type = INTEGER_TYPES.get(random.nextInt(INTEGER_TYPES.size()));
      BigInteger v = switch (random.nextInt(3)) {
        case 0 -> BigInteger.valueOf(Gen.longs().next(random));
        case 1 -> new BigInteger(random.nextInt(1, 260), new java.util.Random(random.nextLong()))
            .subtract(BigInteger.ONE.shiftLeft(random.nextInt(0, 257)));
        default -> BigInteger.ONE.shiftLeft(random.nextInt(0, 257))
            .add(BigInteger.valueOf(random.nextInt(-2, 2)));
      };
      return new Object[] {type, v};
    };
    SeedSweep.run("integer column <- Long, BigInteger, text: two's complement LE, or DATA",
        1, 5_000, cases::sample, c -> {
          String type = (String) c[0];
          BigInteger v = (BigInteger) c[1];
          int bits = ClickHouseType.parse(type).fixedWidth() * 8;
          boolean unsigned = type.startsWith("U");
          boolean fits = unsigned ? v.signum() >= 0 && v.bitLength() <= bits
              : v.bitLength() < bits;
          List<Object> inputs = new ArrayList<>(List.of(v, v.toString()));
          if (v.bitLength() < 64) {
            inputs.add(v.longValue());
          }
          for (Object input : inputs) {
            RowEncoder<Object[]> encoder = encoder("i", type);
            ChunkBuffer buffer = new ChunkBuffer(8);
            Throwable t = catchThrowable(() -> encoder.encode(new Object[] {input}, buffer));
            if (fits) {
              assertThat(t).as(type + " <- " + input).isNull();
              assertThat(buffer.toByteArray()).as(type + " <- " + input)
                  .isEqualTo(littleEndian(v, bits / 8));
            } else {
              assertThat(t).as(type + " <- " + input).isInstanceOf(HandoffException.class)
                  .hasMessageContaining("out of range");
            }
          }
          return true;
        });
  }

  /** The reference: {@code v} modulo 2^(8 width), least significant byte first. */
  private static byte[] littleEndian(BigInteger v, int width) {
    byte[] out = new byte[width];
    BigInteger u = v.mod(BigInteger.ONE.shiftLeft(8 * width));
    for (int i = 0; i < width; i++) {
      out[i] = u.shiftRight(8 * i).byteValue();
    }
    return out;
  }

  /* ------------------------------------------------------------------ rollback in the stage */

  @Test
  void badRowInTheMiddle_leavesNoPartialBytesInTheStagesFrame() {
    TableSchema schema = schema("id", "UInt32", "name", "String", "tags", "Array(String)",
        "ip", "Nullable(IPv6)");
    Object[] good1 = {1, "first", List.of("a", "b"), "::1"};
    // Fails in the last column's second element, after id, name and tags are written.
    Object[] bad = {2, "second", List.of("c"), List.of("::2")};
    Object[] badEarlier = {3, "third", List.of("d", List.of()), null};
    Object[] good2 = {4, "fourth", List.of(), null};

    List<Frame> frames = runStage(schema, Map.of(), 1 << 20, good1, bad, badEarlier, good2);

    assertThat(frames).hasSize(1);
    Golden.assertSameBytes("frame with a bad row in the middle",
        encodeAlone(schema, Map.of(), good1, good2), frames.get(0).toByteArray());
  }

  @Test
  void namesAndTypesHeader_startsEveryFrameExactlyOnceAlsoAfterARolledBackFirstRow() {
    TableSchema schema = schema("id", "UInt32", "m", "Map(String, UInt64)");
    byte[] header = Golden.hex(
        "02026964016d0655496e743332134d617028537472696e672c2055496e74363429");
    Object[] bad = {1, Map.of("k", -1)}; // the header is written, then the row fails
    List<Object[]> good = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      good.add(new Object[] {i, Map.of("k" + i, i)});
    }
    List<Object[]> pushed = new ArrayList<>();
    pushed.add(bad);
    pushed.addAll(good.subList(0, 3));
    pushed.add(bad);
    pushed.addAll(good.subList(3, 7));

    // A target of two rows (after the header) seals a frame every two good rows.
    int target = header.length + 2 * encodeAlone(schema, Map.of(), good.get(0)).length;
    List<Frame> frames = runStage(schema, WITH_HEADER, target, pushed.toArray(Object[][]::new));

    assertThat(frames).hasSize(4);
    int next = 0;
    for (Frame frame : frames) {
      byte[] bytes = frame.toByteArray();
      assertThat(Arrays.copyOf(bytes, header.length)).as("frame starts with the header")
          .isEqualTo(header);
      byte[] body = Arrays.copyOfRange(bytes, header.length, bytes.length);
      int rows = Math.min(2, good.size() - next);
      Golden.assertSameBytes("frame body: rows " + next + ".." + (next + rows - 1)
              + " without a second header", encodeAlone(schema, Map.of(),
          good.subList(next, next + rows).toArray(Object[][]::new)), body);
      next += rows;
    }
    assertThat(next).isEqualTo(good.size());
  }

  @Test
  void namesAndTypesHeader_isWrittenByTheFirstRowOfEachSplitBuffer() {
    TableSchema schema = schema("id", "UInt32");
    RowEncoder<Object[]> encoder = PROVIDER.create(schema, RowAccessors.objectArray(),
        WITH_HEADER);
    ChunkBuffer buffer = new ChunkBuffer(16);
    byte[] header = Golden.hex("0102696406" + "55496e743332");

    encoder.encode(new Object[] {1}, buffer);
    encoder.encode(new Object[] {2}, buffer);
    Frame first = buffer.split();
    encoder.encode(new Object[] {3}, buffer);

    Golden.assertSameBytes("first frame", concat(header, Golden.hex("01000000" + "02000000")),
        first.toByteArray());
    Golden.assertSameBytes("second frame", concat(header, Golden.hex("03000000")),
        buffer.toByteArray());
  }

  /* ------------------------------------------------------------------ options and setup */

  @Test
  void unknownOption_isAnIllegalArgumentNamingIt() {
    assertThatThrownBy(() -> PROVIDER.create(schema("a", "Int32"), RowAccessors.objectArray(),
        Map.of("heder", "none")))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'heder'")
        .hasMessageContaining(RowBinaryOptions.HEADER);
  }

  @Test
  void badHeaderValue_isAnIllegalArgumentNamingTheOptionAndTheValue() {
    assertThatThrownBy(() -> PROVIDER.create(schema("a", "Int32"), RowAccessors.objectArray(),
        Map.of(RowBinaryOptions.HEADER, "names")))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("header=names")
        .hasMessageContaining(RowBinaryOptions.HEADER_NONE)
        .hasMessageContaining(RowBinaryOptions.HEADER_NAMES_AND_TYPES);
  }

  @Test
  void headerNone_isTheDefaultAndMayBeSpelledOut() {
    TableSchema schema = schema("a", "Int32");
    assertThat(encodeAlone(schema, Map.of(RowBinaryOptions.HEADER, RowBinaryOptions.HEADER_NONE),
        new Object[] {5})).isEqualTo(encodeAlone(schema, Map.of(), new Object[] {5}))
        .isEqualTo(Golden.hex("05000000"));
  }

  static Stream<Arguments> malformedTypeStrings() {
    return Stream.of(
        Arguments.of("Array(Int32", 11),
        Arguments.of("Decimal(9, 2", 12),
        Arguments.of("Strng", 0),
        Arguments.of("Nullable(Array(Int32))", 9),
        Arguments.of("Enum8('a' = 1, 'b' 2)", 19),
        Arguments.of("FixedString(0)", 12),
        Arguments.of("DateTime('Mars/Olympus')", 9),
        Arguments.of("Nothing", 0),
        Arguments.of("Tuple(Int32, String))", 20));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedTypeStrings")
  void malformedTypeString_isAnIllegalArgumentNamingTheColumnAndThePosition(String type,
      int position) {
    assertThatThrownBy(() -> PROVIDER.create(schema("id", "UInt8", "bad_col", type),
        RowAccessors.objectArray(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column bad_col")
        .hasMessageContaining("\"" + type + "\"")
        .hasMessageContaining("at position " + position);
  }

  @Test
  void newInstance_givesIndependentEncodersThatInterleaveWithoutInterfering() {
    TableSchema schema = schema("ip", "IPv6", "s", "FixedString(4)", "n", "Nullable(Int128)",
        "a", "Array(Tuple(String, IPv6))");
    RowEncoder<Object[]> template = PROVIDER.create(schema, RowAccessors.objectArray(),
        WITH_HEADER);
    RowEncoder<Object[]> a = template.newInstance();
    RowEncoder<Object[]> b = template.newInstance();
    assertThat(a).isNotSameAs(b).isNotSameAs(template);

    Object[][] rowsA = {
        {"2001:db8::1", "ab", 1, List.of(List.of("x", "::2"))},
        {"::", "abcd", null, List.of()}};
    Object[][] rowsB = {
        {"::ffff:1.2.3.4", "z", BigInteger.TEN.pow(30), List.of(List.of("y", "fe80::1"))},
        {"1:2:3:4:5:6:7:8", "", -1, List.of()}};
    ChunkBuffer bufA = new ChunkBuffer(8);
    ChunkBuffer bufB = new ChunkBuffer(8);
    for (int i = 0; i < 2; i++) {
      a.encode(rowsA[i], bufA);
      // b also meets a bad row before each good one; like the stage, roll b's buffer back.
      int start = bufB.length();
      assertThat(catchThrowable(() -> b.encode(new Object[] {"bad ip", "", null, List.of()},
          bufB))).isInstanceOf(HandoffException.class);
      bufB.truncate(start);
      b.encode(rowsB[i], bufB);
    }

    Golden.assertSameBytes("encoder a", encodeAlone(schema, WITH_HEADER, rowsA),
        bufA.toByteArray());
    Golden.assertSameBytes("encoder b", encodeAlone(schema, WITH_HEADER, rowsB),
        bufB.toByteArray());
  }

  /* ------------------------------------------------------------------ helpers */

  private static TableSchema schema(String... namesAndTypes) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (int i = 0; i < namesAndTypes.length; i += 2) {
      columns.add(new ColumnSpec(namesAndTypes[i], namesAndTypes[i + 1]));
    }
    return new TableSchema(columns);
  }

  private static RowEncoder<Object[]> encoder(String column, String type) {
    return PROVIDER.create(schema(column, type), RowAccessors.objectArray(), Map.of());
  }

  static byte[] encodeAlone(TableSchema schema, Map<String, String> options, Object[]... rows) {
    RowEncoder<Object[]> encoder = PROVIDER.create(schema, RowAccessors.objectArray(), options);
    ChunkBuffer buffer = new ChunkBuffer(16);
    for (Object[] row : rows) {
      encoder.encode(row, buffer);
    }
    return buffer.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /**
   * Encodes {@code good} (when not null), then {@code bad}, then {@code good} again as one-column
   * rows, rolling the buffer back after {@code bad} as the stage does, and returns the DATA error
   * of {@code bad}; checks that the bytes are those of the good rows alone.
   */
  private static HandoffException dataError(RowEncoder<Object[]> encoder, Object good,
      Object bad) {
    ChunkBuffer buffer = new ChunkBuffer(16);
    if (good != null) {
      encoder.encode(new Object[] {good}, buffer);
    }
    int start = buffer.length();
    Throwable t = catchThrowable(() -> encoder.encode(new Object[] {bad}, buffer));
    assertThat(t).as("encoding " + describe(bad)).isExactlyInstanceOf(HandoffException.class);
    HandoffException e = (HandoffException) t;
    assertThat(e.errorClass()).as(e.getMessage()).isEqualTo(ErrorClass.DATA);
    if (good != null) {
      buffer.truncate(start);
      encoder.encode(new Object[] {good}, buffer);
      ChunkBuffer twice = new ChunkBuffer(16);
      RowEncoder<Object[]> fresh = encoder.newInstance();
      fresh.encode(new Object[] {good}, twice);
      fresh.encode(new Object[] {good}, twice);
      assertThat(buffer.toByteArray()).as("good, bad (rolled back), good")
          .isEqualTo(twice.toByteArray());
    }
    return e;
  }

  private static void assertDataError(String type, Object value, String valueText,
      String reason) {
    HandoffException e = dataError(encoder("col_x", type), null, value);
    assertThat(e).hasMessageContaining("column \"col_x\"")
        .hasMessageContaining("(" + mentionedType(type) + ")")
        .hasMessageContaining(valueText)
        .hasMessageContaining(reason);
  }

  private static void assertDataErrorOf(Throwable t, String column, String type) {
    assertThat(t).as(type).isExactlyInstanceOf(HandoffException.class);
    assertThat(((HandoffException) t).errorClass()).isEqualTo(ErrorClass.DATA);
    assertThat(t.getMessage()).as(type).contains(column)
        .contains(mentionedType(type));
  }

  private static Throwable encodeWith(String type, RowAccessor<Object> accessor) {
    RowEncoder<Object> encoder = PROVIDER.create(schema("c", type), accessor, Map.of());
    return catchThrowable(() -> encoder.encode("row", new ChunkBuffer(16)));
  }

  /** The type as the server (and the messages) spell it. */
  private static String canonical(String type) {
    return ClickHouseType.parse(type).toString();
  }

  /**
   * The type a message about a top-level value names: Nullable and LowCardinality are unwrapped
   * by then (their writers hand the value to the inner type's).
   */
  private static String mentionedType(String type) {
    ClickHouseType t = ClickHouseType.parse(type);
    while (t.kind() == TypeKind.NULLABLE || t.kind() == TypeKind.LOW_CARDINALITY) {
      t = t.element();
    }
    return t.toString();
  }

  private static boolean isNullable(String type) {
    return type.startsWith("Nullable(") || type.startsWith("LowCardinality(Nullable(");
  }

  private static String describe(Object v) {
    return v instanceof Object[] a ? Arrays.deepToString(a) : String.valueOf(v);
  }

  private List<Frame> runStage(TableSchema schema, Map<String, String> options, int targetBytes,
      Object[]... rows) {
    RowEncoder<Object[]> encoder = PROVIDER.create(schema, RowAccessors.objectArray(), options);
    ShardQueues queues = new ShardQueues(1, 64);
    SinkHandoff<Object[]> stage = SinkHandoff.builder(encoder, queues)
        .router(Routers.singleShard(0))
        .config(ChunkConfig.defaults().withTargetBytes(targetBytes))
        .build();
    RecordingAck ack = new RecordingAck(1);
    for (Object[] row : rows) {
      assertThat(stage.push(new Envelope<>(row, new RecordMeta(0, 0), ack)))
          .isEqualTo(FlowControl.CONTINUE);
    }
    assertThat(stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
    assertThat(stage.fatalError()).as("no bad row may stop the stage").isEmpty();
    List<Frame> frames = new ArrayList<>();
    for (EncodedChunk chunk : queues.drain(0)) {
      frames.add(chunk.frame());
    }
    stage.close();
    return frames;
  }

  /** A row accessor for one column whose kind and values are whatever a test says. */
  private static class Hostile implements RowAccessor<Object> {
    private final ValueKind kind;
    private final Object object;
    private final RuntimeException getterFailure;

    Hostile(ValueKind kind, Object object, RuntimeException getterFailure) {
      this.kind = kind;
      this.object = object;
      this.getterFailure = getterFailure;
    }

    @Override
    public ValueKind kind(Object row, int field) {
      return kind;
    }

    @Override
    public Object getObject(Object row, int field) {
      return object;
    }

    private void fail() {
      if (getterFailure != null) {
        throw getterFailure;
      }
    }

    @Override
    public boolean getBoolean(Object row, int field) {
      fail();
      return RowAccessor.super.getBoolean(row, field);
    }

    @Override
    public long getLong(Object row, int field) {
      fail();
      return RowAccessor.super.getLong(row, field);
    }

    @Override
    public double getDouble(Object row, int field) {
      fail();
      return RowAccessor.super.getDouble(row, field);
    }

    @Override
    public BigInteger getBigInteger(Object row, int field) {
      fail();
      return RowAccessor.super.getBigInteger(row, field);
    }

    @Override
    public BigDecimal getBigDecimal(Object row, int field) {
      fail();
      return RowAccessor.super.getBigDecimal(row, field);
    }

    @Override
    public CharSequence getText(Object row, int field) {
      fail();
      return RowAccessor.super.getText(row, field);
    }

    @Override
    public byte[] getBytes(Object row, int field) {
      fail();
      return RowAccessor.super.getBytes(row, field);
    }

    @Override
    public RowAccessor<Object> nested(Object row, int field) {
      fail();
      return RowAccessor.super.nested(row, field);
    }
  }
}
