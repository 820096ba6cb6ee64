package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.clickhouse.NativeDifferentialCases.blockCount;
import static dev.handoff.encoders.clickhouse.NativeDifferentialCases.clientV2Limitation;
import static dev.handoff.encoders.clickhouse.NativeDifferentialCases.generate;
import static dev.handoff.encoders.clickhouse.NativeDifferentialCases.listCase;
import static dev.handoff.encoders.clickhouse.NativeDifferentialChecker.check;
import static dev.handoff.encoders.clickhouse.NativeDifferentialChecker.compare;
import static dev.handoff.encoders.clickhouse.NativeDifferentialChecker.encode;
import static dev.handoff.encoders.testsupport.DiffCheck.flip;
import static dev.handoff.encoders.testsupport.DiffComposites.arrayV;
import static dev.handoff.encoders.testsupport.DiffShrink.SHRINK;
import static dev.handoff.encoders.testsupport.DiffTypes.SCALARS;
import static org.assertj.core.api.Assertions.assertThat;

import com.clickhouse.client.api.data_formats.NativeFormatReader;
import com.clickhouse.client.api.data_formats.internal.BinaryStreamReader;
import com.clickhouse.client.api.query.QuerySettings;
import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffCheck;
import dev.handoff.encoders.testsupport.DiffModel.Bad;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.Column;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffValues.Bytes;
import dev.handoff.encoders.testsupport.DiffValues.F32;
import dev.handoff.encoders.testsupport.DiffValues.F64;
import dev.handoff.encoders.testsupport.GoldenFiles;
import dev.handoff.testkit.SeedSweep;
import dev.handoff.testkit.Shrinker;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Differential property: random schemas and random rows (edge values included), encoded by our
 * {@code native} encoder into one to three Native blocks and decoded by an independent
 * Native reader, {@code com.clickhouse:client-v2}'s {@code NativeFormatReader}, must come back
 * equal, and rows carrying a bad value must be refused with a {@code DATA} error and be absent
 * from the blocks (per-row rollback).
 *
 * <p>client-v2's Native reader decodes only scalars and {@code Array(scalar)} with equal array
 * lengths within a block, and reads one block per stream; the generator stays inside that
 * (see {@code NativeDifferentialCases.nativeReadable} and {@code clientV2Limitation}, proven on the server's golden
 * files). Nullable, LowCardinality, Tuple, Map and Nested are covered byte for byte by {@code
 * NativeGoldenTest} and against the real server by {@code NativeServerTest}. Covered here: Int and
 * UInt of 8 to 256 bits, Float32/64, Bool, Decimal of every width, String, FixedString, Date,
 * Date32, DateTime and DateTime64(P) with and without a time zone, UUID, IPv4, IPv6, Enum8/16,
 * and arrays of them. Rows reach the encoder as {@code List}s, {@code Object[]}s, {@code Map}s by
 * name or JSON lines through {@code JsonRows}.
 *
 * <p>Both sides are brought to one canonical form: BigInteger for integers, {@link F32}/{@link
 * F64} (so {@code -0.0 != 0.0} and NaN equals NaN) for floats, BigDecimal at the column's scale,
 * {@link Bytes} for String and FixedString, LocalDate for dates, Instant for DateTime/DateTime64,
 * {@link Ip} for IPs, the number for enums, Lists for arrays.
 *
 * <p>On failure the case is shrunk (columns and rows with the testkit {@link Shrinker}; then
 * composite types replaced by their elements, values by simpler ones) and {@link SeedSweep}
 * reports the seed, the original and the smallest failing schema and rows, and how to rerun that
 * one seed: {@code mvn -pl encoders-clickhouse test -Dtest=NativeDifferentialProperties
 * -Dhandoff.seed=<seed>}. More seeds: {@code -Dhandoff.differential.seeds=100000} (and {@code
 * -Dhandoff.differential.first=<seed>}).
 *
 * <p><b>Where client-v2 cannot be the judge.</b> client-v2 0.10.0's reader decodes every type
 * here, with two limits, each kept as narrow as possible:
 * <ul>
 *   <li>String and FixedString values inside Array, Tuple, Map and Nested are always decoded to
 *       {@code java.lang.String} ({@code BinaryStreamReader.readNestedValue} ignores {@code
 *       binary_string_support}), which replaces invalid UTF-8. So arbitrary bytes are generated
 *       only for top-level (possibly Nullable or LowCardinality) columns, where the reader
 *       returns the raw bytes; nested strings are valid UTF-8 (any text, unpaired surrogates
 *       included, which the encoder writes as {@code '?'}). See {@code
 *       DiffScalars.stringValue} in encoders-testsupport.
 *   <li>An {@code Array(IPv6)} mixing IPv4-mapped and other addresses: see {@code
 *       DiffTypes.clientV2Limitation} in encoders-testsupport and the proof, the rowbinary
 *       module's {@code clientV2CannotReadItsOwnArrayOfMixedIPv6}.
 * </ul>
 */
class NativeDifferentialProperties {

  /** How many seeds the sweep checks ({@code -Dhandoff.differential.seeds}); about 2 ms each. */
  static final int SEEDS = Integer.getInteger("handoff.differential.seeds", 1000);

  /** The first seed ({@code -Dhandoff.differential.first}). */
  static final long FIRST_SEED = Long.getLong("handoff.differential.first", 1);

  private static final GoldenFiles FILES = GoldenFiles.of(
      path -> NativeDifferentialProperties.class.getResourceAsStream(path));

  @Test
  void clientV2DecodesWhatWeEncode() {
    SeedSweep.run("client-v2's Native reader decodes our bytes to the input values"
            + " (rerun one seed: mvn -pl encoders-clickhouse test"
            + " -Dtest=NativeDifferentialProperties -Dhandoff.seed=<seed>)",
        FIRST_SEED, SEEDS, NativeDifferentialCases::generate,
        NativeDifferentialProperties::holds, SHRINK);
  }

  /**
   * The sweep's cases reach every type family and variant, every row shape and the header, so a
   * change to the generator cannot quietly narrow what the property checks.
   */
  @Test
  void theSweepCoversTheTypeModel() {
    Set<String> seen = new HashSet<>();
    for (long seed = FIRST_SEED; seed < FIRST_SEED + 1000; seed++) {
      Case c = generate(seed);
      seen.add("shape " + c.shape());
      seen.add("blocks " + blockCount(c));
      if (c.expectedRows().size() < c.rows().size()) {
        seen.add("bad rows");
      }
      for (Column col : c.columns()) {
        DiffCheck.features(col.type(), seen);
      }
    }
    Set<String> expected = new HashSet<>(List.of("shape 0", "shape 1", "shape 2", "shape 3",
        "blocks 1", "blocks 2", "blocks 3", "bad rows", "DateTime tz", "DateTime64 tz",
        "Decimal 4", "Decimal 8", "Decimal 16", "Decimal 32", "ARRAY"));
    for (TypeKind k : SCALARS) {
      expected.add(k.name());
    }
    assertThat(seen).containsAll(expected);
  }

  /* ================================================================== The checker can fail */

  /** A small case: Int32, String, Array(Float64); two equal rows in one block. */
  static Case sample() {
    List<Column> columns = List.of(new Column("i", ClickHouseType.parse("Int32")),
        new Column("s", ClickHouseType.parse("String")),
        new Column("a", ClickHouseType.parse("Array(Float64)")));
    List<V> row = List.of(V.of(7, BigInteger.valueOf(7)),
        V.of("héllo", new Bytes("héllo".getBytes(StandardCharsets.UTF_8))),
        arrayV(List.of(V.of(-0.0, new F64(-0.0))), 0));
    return listCase(columns, List.of(row, row), 1);
  }

  @Test
  void checkerReportsCorruptedBytes() {
    Case c = sample();
    assertThat(check(c)).isNull();
    byte[] good = encode(c);
    // 03 02 | 01 i 05 Int32 | 07 00 00 00 07 00 00 00 | 01 s 06 String | 06 héllo 06 héllo
    // | 01 a 0e Array(Float64) | 01 00..00 02 00..00 | -0.0 -0.0
    int ints = 2 + 2 + 6;
    int strings = ints + 8 + 2 + 7;
    int arrays = strings + 14 + 2 + 15;
    assertThat(good).hasSize(arrays + 16 + 16);
    assertThat(check(c, b -> flip(b, ints)))
        .startsWith("row 0 column i Int32: expected 7 but client-v2 decoded 6");
    assertThat(check(c, b -> flip(b, strings + 7 + 2))) // é (c3 a9) becomes © (c2 a9)
        .startsWith("row 1 column s String: expected \"héllo\" but client-v2 decoded \"h©llo\"");
    assertThat(check(c, b -> flip(b, b.length - 1, 0x80))) // the sign bit of the last -0.0
        .startsWith("row 1 column a Array(Float64): at [0] expected -0.0d but client-v2"
            + " decoded 0.0d");
    assertThat(check(c, b -> Arrays.copyOf(b, b.length - 1)))
        .startsWith("client-v2 could not decode our bytes");
    byte[] twice = Arrays.copyOf(good, 2 * good.length);
    System.arraycopy(good, 0, twice, good.length, good.length);
    assertThat(check(c, b -> twice)).startsWith("client-v2 left " + good.length + " byte(s)");
    assertThat(compare(c.columns(), c.expectedRows(), twice, List.of(good.length, twice.length)))
        .startsWith("client-v2 decoded 4 row(s), expected 2");
  }

  @Test
  void checkerReportsWrongExpectedValues() {
    Case c = sample();
    byte[] bytes = encode(c);
    List<Column> columns = c.columns();
    List<Object> row = c.expectedRows().get(0);
    assertThat(compare(columns, List.of(row, row), bytes)).isNull();

    List<Object> wrongInt = new ArrayList<>(row);
    wrongInt.set(0, BigInteger.valueOf(8));
    assertThat(compare(columns, List.of(row, wrongInt), bytes))
        .startsWith("row 1 column i Int32: expected 8 but client-v2 decoded 7");
    List<Object> positiveZero = new ArrayList<>(row);
    positiveZero.set(2, List.of(new F64(0.0)));
    assertThat(compare(columns, List.of(positiveZero, row), bytes))
        .startsWith("row 0 column a Array(Float64): at [0] expected 0.0d");
    assertThat(compare(columns, List.of(row), bytes))
        .startsWith("client-v2 decoded 2 row(s), expected 1");
  }

  /** A row the encoder should refuse but accepts, or one it refuses wrongly, is reported. */
  @Test
  void checkerReportsWrongRollbackExpectations() {
    Case c = sample();
    List<V> bad = new ArrayList<>(c.rows().get(0));
    bad.set(2, new V(5L, new Bad("5"), List.of()));
    Case withBad = listCase(c.columns(), List.of(c.rows().get(0), bad, c.rows().get(1)), 2);
    assertThat(check(withBad)).isNull();
    // A "bad" value the encoder takes: the row is reported.
    List<V> notBad = new ArrayList<>(c.rows().get(0));
    notBad.set(0, new V(8, new Bad("8"), List.of()));
    assertThat(check(listCase(c.columns(), List.of(notBad), 1)))
        .startsWith("our encoder accepted row 0, which carries a bad value");
    // A good value the encoder refuses.
    List<V> refused = new ArrayList<>(c.rows().get(0));
    refused.set(0, V.of("seven", BigInteger.valueOf(7)));
    assertThat(check(listCase(c.columns(), List.of(refused), 1)))
        .startsWith("our encoder rejected a valid value in row 0");
  }

  /**
   * A sweep whose bytes get the low bit of their last byte flipped fails at the first seed, and
   * the report shows a shrunk case of one column and one row, with the seed to rerun.
   */
  @Test
  void aFailingSweepShrinksToOneColumnAndOneRow() {
    DiffCheck.assertSabotagedSweepShrinksToOneColumnAndOneRow(NativeDifferentialCases::generate,
        NativeDifferentialChecker::check, SHRINK);
  }

  /** The property: {@code true}, or an AssertionError saying what differs. */
  static boolean holds(Case c) {
    return DiffCheck.holds(check(c));
  }

  /**
   * The proof of {@link NativeDifferentialCases#nativeReadable}: on Native blocks the server
   * itself wrote (the ClickHouse 18.16 golden files), client-v2 0.10.0's Native reader gets the
   * values right for a plain column and for an Array column whose rows have equal lengths, and
   * wrong for Nullable, LowCardinality and an Array whose lengths differ. (Tuple, Map, Nested,
   * Array(Nullable), Array(Array) and the like fail for the same reason, by the code quoted at
   * {@link NativeDifferentialCases#nativeReadable}: the RowBinary layout is read.)
   */
  @Test
  void clientV2MisreadsServerNativeBlocks() {
    Column int32 = new Column("v", ClickHouseType.parse("Int32"));
    List<List<Object>> int32Rows = new ArrayList<>();
    for (long v : new long[] {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE}) {
      int32Rows.add(List.of(BigInteger.valueOf(v)));
    }
    assertThat(compare(List.of(int32), int32Rows, golden("int32"))).isNull();

    Column nullable = new Column("v", ClickHouseType.parse("Nullable(Int32)"));
    assertThat(compare(List.of(nullable), rows(null, BigInteger.ONE, null,
        BigInteger.valueOf(-3), null), golden("nullable_int32"))).isNotNull();

    Column lc = new Column("v", ClickHouseType.parse("LowCardinality(Int32)"));
    assertThat(compare(List.of(lc), rows(BigInteger.valueOf(7), BigInteger.valueOf(-1),
        BigInteger.valueOf(7), BigInteger.ZERO), golden("lowcardinality_int32"))).isNotNull();

    // [[], [1], [1, 2, 3], [], [-1]]: offsets 0 1 4 4 5 read as sizes, every row as sizes[0] = 0
    Column array = new Column("v", ClickHouseType.parse("Array(Int32)"));
    BigInteger one = BigInteger.ONE;
    assertThat(compare(List.of(array), rows(List.of(), List.of(one),
        List.of(one, BigInteger.TWO, BigInteger.valueOf(3)), List.of(),
        List.of(BigInteger.valueOf(-1))), golden("array_int32")))
        .startsWith("client-v2 could not decode our bytes")
        .contains("ArrayIndexOutOfBoundsException");

    // Arrays that are all empty: client-v2 fails on the server's bytes too.
    assertThat(emptyOnlyType()).startsWith("Array(");
    assertThat(decodeAll(golden("array_empty_only"))).startsWith("failed:");

    // Three blocks of 2, 2 and 1 rows (max_block_size=2): read as one stream, client-v2 loses
    // rows; each block read alone is right.
    Column number = new Column("number", ClickHouseType.parse("UInt64"));
    List<List<Object>> numbers = rows(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO,
        BigInteger.valueOf(3), BigInteger.valueOf(4));
    byte[] multi = golden("multi_block_uint64");
    assertThat(compare(List.of(number), numbers, multi)).isNotNull();
    assertThat(compare(List.of(number), numbers, multi,
        List.of(blockEnd(multi, 1), blockEnd(multi, 2), multi.length))).isNull();
  }

  /**
   * The same column with equal lengths, from our encoder (which reproduces the golden bytes byte
   * for byte, see NativeGoldenTest): client-v2 decodes it.
   */
  @Test
  void clientV2ReadsArraysOfEqualLengths() {
    Column array = new Column("v", ClickHouseType.parse("Array(Int32)"));
    List<V> a = List.of(arrayV(List.of(V.of(1, BigInteger.ONE), V.of(2, BigInteger.TWO)), 0));
    List<V> b = List.of(arrayV(List.of(V.of(-1, BigInteger.valueOf(-1)), V.of(0,
        BigInteger.ZERO)), 0));
    assertThat(check(listCase(List.of(array), List.of(a, b, a), 1))).isNull();
    List<V> c = List.of(arrayV(List.of(V.of(3, BigInteger.valueOf(3))), 0));
    Case differing = listCase(List.of(array), List.of(a, c), 1);
    assertThat(clientV2Limitation(differing)).contains("arrays of different lengths");
    assertThat(compare(List.of(array), differing.expectedRows(), encode(differing)))
        .isNotNull();
  }

  private static String emptyOnlyType() {
    for (JsonNode k : FILES.json("clickhouse-18.16/cases.json").get("cases")) {
      if (k.get("name").asText().equals("array_empty_only")) {
        return k.get("columns").get(0).get("type").asText();
      }
    }
    throw new IllegalStateException("no array_empty_only case");
  }

  /** The end of the {@code k}th block (from 1) of single-UInt64-column blocks in {@code b}. */
  private static int blockEnd(byte[] b, int k) {
    int at = 0;
    for (int i = 0; i < k; i++) {
      int rows = b[at + 1];
      int nameLength = b[at + 2];
      int typeLength = b[at + 3 + nameLength];
      at += 4 + nameLength + typeLength + 8 * rows;
    }
    return at;
  }

  private static List<List<Object>> rows(Object... values) {
    List<List<Object>> out = new ArrayList<>();
    for (Object v : values) {
      out.add(Arrays.asList(v));
    }
    return out;
  }

  private static byte[] golden(String name) {
    return FILES.bytes("clickhouse-18.16/" + name + ".native.bin");
  }

  /** What client-v2's Native reader makes of {@code bytes}, as text (or the failure). */
  private static String decodeAll(byte[] bytes) {
    StringBuilder sb = new StringBuilder();
    try {
      NativeFormatReader reader = new NativeFormatReader(new ByteArrayInputStream(bytes),
          new QuerySettings().setUseTimeZone("UTC"),
          new BinaryStreamReader.DefaultByteBufferAllocator());
      while (reader.hasNext()) {
        reader.next();
        for (int i = 1; i <= reader.getSchema().getColumns().size(); i++) {
          sb.append(show(reader.readValue(i))).append(' ');
        }
        sb.append('\n');
      }
    } catch (RuntimeException e) {
      return "failed: " + e;
    }
    return sb.toString();
  }

  /** The golden case's rows as the server selected them, in the same text form. */
  private static String decodeAllRowBinary(String name) {
    JsonNode c = null;
    for (JsonNode k : FILES.json("clickhouse-18.16/cases.json").get("cases")) {
      if (k.get("name").asText().equals(name)) {
        c = k;
      }
    }
    return String.valueOf(Objects.requireNonNull(c, name).get("expected_rows"));
  }

  private static String show(Object v) {
    if (v instanceof BinaryStreamReader.ArrayValue a) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < a.length(); i++) {
        out.add(show(a.get(i)));
      }
      return out.toString();
    }
    if (v instanceof Object[] a) {
      List<String> out = new ArrayList<>();
      for (Object o : a) {
        out.add(show(o));
      }
      return out.toString();
    }
    return String.valueOf(v);
  }

}
