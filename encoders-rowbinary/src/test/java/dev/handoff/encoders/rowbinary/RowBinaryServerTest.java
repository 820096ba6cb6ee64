package dev.handoff.encoders.rowbinary;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.encoders.testsupport.ServerCanon.Bytes;
import dev.handoff.encoders.testsupport.ServerCanon.Cell;
import dev.handoff.encoders.testsupport.ServerValueGen;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code rowbinary} encoder against a real ClickHouse 18.16 server: for every type 18.16 has,
 * a table is created, its schema read back from {@code system.columns} (the exact type strings
 * the encoder is built from), rows encoded by us are inserted with {@code INSERT ... FORMAT
 * RowBinary} in several frames, and the table is read back twice: {@code FORMAT TabSeparated},
 * compared cell by cell with the values meant, and {@code FORMAT RowBinary}, which must return
 * exactly the bytes sent. See {@link ServerRoundTrip}.
 *
 * <p>The server is the harness's shared {@code clickhouse-server} (installed by {@code .ci/run}).
 * These tests never skip: without the binary, {@link ClickHouseServer#shared()} throws in {@code
 * @BeforeAll} and every test here fails with the harness's message saying how to install it.
 *
 * <p>18.16 lacks Int128/256, UInt128/256, Decimal256, Bool, Date32, DateTime64, IPv4, IPv6 and
 * Map; those are covered by the golden vectors instead. What 18.16 cannot print is still checked
 * exactly: dates after 2105 by their numbers and bytes, Decimal128 (which 18.16 prints with NUL
 * bytes for digits, and whose printing can crash it) against the same values parsed by the server
 * from text. Time: about 15 s, most of it the 100k-row run.
 */
final class RowBinaryServerTest {
  private static ClickHouseServer server;

  @BeforeAll
  static void startServer() {
    server = ClickHouseServer.shared();
  }

  private static Cell in(Object input, Object expected) {
    return new Cell(input, expected);
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  private static BigInteger big(String s) {
    return new BigInteger(s);
  }

  private static BigDecimal dec(String s) {
    return new BigDecimal(s);
  }

  /** The largest Decimal(P, S): P nines, S of them after the point. */
  private static BigDecimal maxDecimal(int p, int s) {
    return new BigDecimal(BigInteger.TEN.pow(p).subtract(BigInteger.ONE), s);
  }

  private static Instant at(String iso) {
    return Instant.parse(iso);
  }

  /* ------------------------------------------------------------------ integers */

  @Test
  void integers_everyWidthAtItsLimits_fromEveryInputKind() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "ints",
        "i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64");
    assertThat(rt.serverTypes()).containsExactly(
        "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64");

    BigInteger u64Max = big("18446744073709551615");
    rt.row((byte) -128, (short) -32768, Integer.MIN_VALUE, Long.MIN_VALUE, 0, 0, 0, 0L)
        .row((byte) 127, (short) 32767, Integer.MAX_VALUE, Long.MAX_VALUE,
            255, 65535, 4_294_967_295L, u64Max)
        .row(-1, -1, -1, -1L, 1, 1, 1, 1)
        // Byte order: every byte of the value distinct.
        .row(0x12, 0x1234, 0x12345678, 0x0102030405060708L, 0xAB, 0xABCD, 0xDEADBEEFL,
            new BigInteger("FEDCBA9876543210", 16))
        // Text, BigInteger, BigDecimal, double, boolean inputs.
        .row(in("-128", -128), in("32767", 32767), in("-2147483648", Integer.MIN_VALUE),
            in("-9223372036854775808", Long.MIN_VALUE), in("255", 255), in("+65535", 65535),
            in("4294967295", 4_294_967_295L), in("18446744073709551615", u64Max))
        .row(in(big("-7"), -7), in(new BigDecimal("-300.00"), -300), in(3.0, 3),
            in(big("9223372036854775807"), Long.MAX_VALUE), in(true, 1), in(false, 0),
            in(4.294967295e9, 4_294_967_295L), in(big("9223372036854775808"),
                big("9223372036854775808")))
        .row(in("1e2", 100), in(-0.0, 0), in(new BigDecimal("1E+4"), 10_000),
            in(-9.007199254740992e15, -9_007_199_254_740_992L), in((short) 200, 200),
            in(Integer.valueOf(60_000), 60_000), in("007", 7), in(Long.MAX_VALUE, Long.MAX_VALUE))
        .rejectedRow("is out of range 0..255", 0, 0, 0, 0L, 256, 0, 0, 0L)
        .rejectedRow("is out of range -128..127", "128", 0, 0, 0L, 0, 0, 0, 0L)
        .rejectedRow("is out of range 0..18446744073709551615", 0, 0, 0, 0L, 0, 0, 0, -1L)
        .rejectedRow("is out of range 0..18446744073709551615", 0, 0, 0, 0L, 0, 0, 0,
            u64Max.add(BigInteger.ONE))
        .rejectedRow("is not an integer", 0, 0, 1.5, 0L, 0, 0, 0, 0L)
        .rejectedRow("is not a number", 0, 0, 0, "12abc", 0, 0, 0, 0L)
        .rejectedRow("null into a non-Nullable column", 0, null, 0, 0L, 0, 0, 0, 0L)
        .row(in("-0", 0), 0, 0, 0L, 0, 0, 0, 0L);

    ServerRoundTrip.Result result = rt.run();

    assertThat(result.rows()).isEqualTo(8);
    assertThat(result.inserts()).isEqualTo(3);
  }

  /* ------------------------------------------------------------------ floats */

  @Test
  void floats_signedZeroNaNInfinitiesSubnormalsAndLimits() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "floats", "f32 Float32, f64 Float64");
    assertThat(rt.serverTypes()).containsExactly("Float32", "Float64");

    rt.row(-0.0f, -0.0)
        .row(0.0f, 0.0)
        .row(Float.NaN, Double.NaN)
        .row(Float.POSITIVE_INFINITY, Double.POSITIVE_INFINITY)
        .row(Float.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY)
        .row(Float.MIN_VALUE, Double.MIN_VALUE) // smallest subnormals
        .row(-Float.MIN_VALUE, -Double.MIN_VALUE)
        .row(Float.intBitsToFloat(0x007F_FFFF), Double.longBitsToDouble(0x000F_FFFF_FFFF_FFFFL))
        .row(Float.MIN_NORMAL, Double.MIN_NORMAL)
        .row(Float.MAX_VALUE, Double.MAX_VALUE)
        .row(-Float.MAX_VALUE, -Double.MAX_VALUE)
        .row(0.1f, 0.1)
        .row(in(0.1, 0.1f), in(0.1f, (double) 0.1f)) // a double rounds to the nearest float
        .row(in("nan", Float.NaN), in("NaN", Double.NaN))
        .row(in("-inf", Float.NEGATIVE_INFINITY), in("Infinity", Double.POSITIVE_INFINITY))
        .row(in("1e-45", Float.MIN_VALUE), in("4.9e-324", Double.MIN_VALUE))
        .row(in("-0", -0.0f), in("-0.0", -0.0))
        .row(in(16_777_216L, 16_777_216f), in(9_007_199_254_740_992L, 9.007199254740992e15))
        .row(in(new BigDecimal("3.14159"), 3.14159f), in(new BigDecimal("2.718281828459045"),
            2.718281828459045))
        .row(in("3.4028235e38", Float.MAX_VALUE), in("1.7976931348623157E308", Double.MAX_VALUE))
        .row(in(big("-16777216"), -16_777_216f), in(big("-9007199254740992"),
            -9.007199254740992e15))
        // Rounded once, to the nearest float: through a double it would become 1.0000002.
        .row(in(HALFWAY_TEXT, Float.parseFloat(HALFWAY_TEXT)), in("9007199254740992",
            9.007199254740992e15))
        .row(in(new BigDecimal(HALFWAY_TEXT), Float.parseFloat(HALFWAY_TEXT)),
            in(new BigDecimal(HALFWAY_TEXT), Double.parseDouble(HALFWAY_TEXT)))
        .rejectedRow("is not exactly representable as a Float32", 16_777_217L, 0.0)
        .rejectedRow("is out of range for a Float32", 1e39, 0.0)
        .rejectedRow("is not exactly representable as a Float64", 0f, 9_007_199_254_740_993L)
        .rejectedRow("is not a number", 0f, "1,5")
        .rejectedRow("is not exactly representable as a Float64", 0f, "9007199254740993");
    assertThat(Float.parseFloat(HALFWAY_TEXT)).isNotEqualTo((float) Double.parseDouble(HALFWAY_TEXT));

    rt.run();
  }

  /** Just below the midpoint of two floats, but rounds to the midpoint as a double. */
  private static final String HALFWAY_TEXT = "1.00000017881393432617187499";

  @Test
  void floats_keepEveryBit_NaNPayloadsAndSignsIncluded() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "float_bits", "f32 Float32, f64 Float64");
    float nanPayload32 = Float.intBitsToFloat(0x7FC0_0001);
    float negativeNan32 = Float.intBitsToFloat(0xFFC0_0000);
    double nanPayload64 = Double.longBitsToDouble(0x7FF8_0000_0000_0001L);
    double negativeNan64 = Double.longBitsToDouble(0xFFF8_0000_0000_0000L);
    rt.row(nanPayload32, nanPayload64).row(negativeNan32, negativeNan64).row(-0.0f, -0.0);

    ServerRoundTrip.Result result = rt.run(); // the server returned exactly these bytes

    // id (4 bytes), then the float and the double, little-endian, bits untouched.
    assertThat(HexFormat.of().formatHex(result.sent())).isEqualTo(
        "00000000" + "0100c07f" + "010000000000f87f"
            + "01000000" + "0000c0ff" + "000000000000f8ff"
            + "02000000" + "00000080" + "0000000000000080");
  }

  /* ------------------------------------------------------------------ decimals */

  @Test
  void decimals_ofEveryWidthAndSpelling_atTheirLimits() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "decimals",
        "a Decimal32(2), b Decimal64(4), c Decimal128(10), d Decimal(1, 0), e Decimal(9, 9),"
            + " f Decimal(10, 3), g Decimal(18, 18), h Decimal(19, 0), i Decimal(38, 0),"
            + " j Decimal(38, 38), k DEC(5, 1)");
    // The server prints every spelling as Decimal(P, S); the encoder takes the width from P.
    assertThat(rt.serverTypes()).containsExactly("Decimal(9, 2)", "Decimal(18, 4)",
        "Decimal(38, 10)", "Decimal(1, 0)", "Decimal(9, 9)", "Decimal(10, 3)", "Decimal(18, 18)",
        "Decimal(19, 0)", "Decimal(38, 0)", "Decimal(38, 38)", "Decimal(5, 1)");

    int[][] ps = {{9, 2}, {18, 4}, {38, 10}, {1, 0}, {9, 9}, {10, 3}, {18, 18}, {19, 0}, {38, 0},
        {38, 38}, {5, 1}};
    Object[] max = new Object[ps.length];
    Object[] min = new Object[ps.length];
    Object[] ulp = new Object[ps.length];
    Object[] minusUlp = new Object[ps.length];
    Object[] zero = new Object[ps.length];
    Object[] maxAsText = new Object[ps.length];
    for (int i = 0; i < ps.length; i++) {
      BigDecimal m = maxDecimal(ps[i][0], ps[i][1]);
      max[i] = m;
      min[i] = m.negate();
      ulp[i] = BigDecimal.ONE.movePointLeft(ps[i][1]);
      minusUlp[i] = in(BigDecimal.ONE.movePointLeft(ps[i][1]).negate().toString(),
          BigDecimal.ONE.movePointLeft(ps[i][1]).negate());
      zero[i] = in(0L, BigDecimal.ZERO);
      maxAsText[i] = in(m.toPlainString(), m);
    }
    rt.row(max).row(min).row(ulp).row(minusUlp).row(zero).row(maxAsText)
        .row(in(1.25, dec("1.25")), in("-12345.6789", dec("-12345.6789")),
            in(big("12345"), dec("12345")), in(-9L, dec("-9")), in("0.000000001", dec("1e-9")),
            in("1234567.891", dec("1234567.891")), in(0.5, dec("0.5")),
            in(Long.MIN_VALUE, dec("-9223372036854775808")),
            in(big("-12345678901234567890123456789012345678"),
                dec("-12345678901234567890123456789012345678")),
            in("1e-38", dec("1e-38")), in(-1234.5, dec("-1234.5")))
        .row(in("1.2000", dec("1.2")), in(new BigDecimal("100E-2"), dec("1")),
            in(0.1, dec("0.1")), in("-0", dec("0")), in("+0.000000001", dec("0.000000001")),
            in(new BigDecimal("-9999999.999"), dec("-9999999.999")),
            in(new BigDecimal("0.123456789012345678"), dec("0.123456789012345678")),
            in(big("9999999999999999999"), dec("9999999999999999999")),
            in("17014118346046923173168730371588410572",
                dec("17014118346046923173168730371588410572")),
            in(BigDecimal.ONE.movePointLeft(38).negate().toPlainString(), dec("-1e-38")),
            in(9999.9, dec("9999.9")))
        // Doubles into Decimal128: the double's shortest decimal form (Double.toString), not its
        // exact binary value (2^63 is 9.223372036854776E18, not 9223372036854775808).
        .row(zero[0], zero[1], in(1e20, dec("100000000000000000000")), zero[3], zero[4],
            zero[5], zero[6], in(-1e18, dec("-1000000000000000000")),
            in(1.2345678901234567e37, dec("12345678901234568000000000000000000000")),
            in(1e-38, dec("1e-38")), zero[10])
        .row(zero[0], zero[1], in(123456789.123, dec("123456789.123")), zero[3], zero[4],
            zero[5], zero[6], in(0x1p63, dec("9223372036854776000")),
            in(-0.0, dec("0")), in(0.1, dec("0.1")), zero[10])
        .rejectedRow("has more fraction digits than the scale 2", withFirst(zero, "1.234"))
        .rejectedRow("is out of range", withFirst(zero, "10000000"))
        .rejectedRow("is out of range", withFirst(zero, 10_000_000L))
        .rejectedRow("is not finite", withFirst(zero, Double.NaN))
        .rejectedRow("is not finite", withFirst(zero, "inf"));

    rt.run();
  }

  private static Object[] withFirst(Object[] row, Object first) {
    Object[] copy = row.clone();
    copy[0] = first;
    return copy;
  }

  /* ------------------------------------------------------------------ strings */

  @Test
  void strings_utf8_invalidUtf8_nul_escapes_andEveryVarintLengthSize() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "strings",
        "s String, fs1 FixedString(1), fs4 FixedString(4), fs16 FixedString(16)");
    assertThat(rt.serverTypes())
        .containsExactly("String", "FixedString(1)", "FixedString(4)", "FixedString(16)");

    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    rt.row("", "", "", "")
        .row("hello", "a", "abcd", "0123456789abcdef")
        .row("héllo wörld € 中文 😀", "\0", "hé", "😀😀😀😀")
        .row(bytes(0xFF, 0xFE, 0x80, 0xC3), bytes(0xFF), bytes(0, 0, 0, 1),
            bytes(0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC))
        .row("a\0b\0", bytes(0), "a\0b", "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0x")
        .row("tab\there\nnew\\line 'quote' \"dq\" \r\b\f [1,2] ('x',NULL) \\N", "'",
            "\\\t\n", "[1,2]('x')\\N")
        .row(all, in("\\", bytes('\\')), in(new StringBuilder("ab"), "ab"),
            in("x".toCharArray(), "x"))
        .row("\\N", "N", "NULL", "\\N")
        // An unpaired surrogate becomes '?', as String.getBytes(UTF_8) makes it, short or long.
        .row(in("a\uD800b\uDC00", "a?b?"), in("\uDFFF", "?"), in("\uD83D", "?"),
            in("x\uD83D\uDE00\uDE00", "x😀?"))
        .row(in("\uD800".repeat(200) + "é", "?".repeat(200) + "é"), "1", "2", "3")
        // Lengths at each varint size: 1 byte up to 127, 2 up to 16383, 3 up to 2097151, 4 above.
        .row("x".repeat(127), "1", "2", "3")
        .row("y".repeat(128), "1", "2", "3")
        .row("é".repeat(8191) + "z", "1", "2", "3") // 16383 bytes from 8192 chars
        .row("€".repeat(5461) + "z", "1", "2", "3") // 16384 bytes
        .row("中".repeat(42), "1", "2", "3") // 126 bytes, written with a patched length byte
        .row("中".repeat(43), "1", "2", "3") // 129 bytes
        .row("😀".repeat(31) + "abc", "1", "2", "3") // 127 bytes of surrogate pairs and ASCII
        .row(in(filled(2_097_151), new Bytes(filled(2_097_151))), "1", "2", "3")
        .row("q".repeat(2_097_152), "1", "2", "3")
        .rejectedRow("do not fit FixedString(4)", "", "", "abcde", "")
        .rejectedRow("do not fit FixedString(1)", "", "é", "", "")
        .rejectedRow("17 bytes do not fit FixedString(16)", "", "", "", new byte[17])
        .rejectedRow("null into a non-Nullable column", null, "", "", "");

    ServerRoundTrip.Result result = rt.run();

    assertThat(result.rows()).isEqualTo(19);
  }

  private static byte[] filled(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  /* ------------------------------------------------------------------ dates and times */

  @Test
  void datesAndDateTimes_inTheirZones_fromEveryTemporalInput() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "dates",
        "d Date, dt DateTime, tk DateTime('Asia/Tokyo'), ny DateTime('America/New_York')");
    assertThat(rt.serverTypes()).containsExactly("Date", "DateTime", "DateTime('Asia/Tokyo')",
        "DateTime('America/New_York')");

    ZoneId tokyo = ZoneId.of("Asia/Tokyo");
    ZoneId newYork = ZoneId.of("America/New_York");
    Instant lastSecond = at("2105-12-31T23:59:59Z");
    rt.row(LocalDate.EPOCH, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH) // 0000-00-00 on 18.16
        // 18.16 prints a local time before 1970 wrongly (New York at 1 s is 1969-12-31 19:00:01,
        // printed 1970-01-01 12:00:01), so that column starts a day later.
        .row(LocalDate.of(1970, 1, 2), at("1970-01-01T00:00:01Z"), at("1970-01-01T00:00:01Z"),
            at("1970-01-02T00:00:01Z"))
        .row(LocalDate.of(2105, 12, 31), lastSecond, lastSecond, lastSecond)
        .row(LocalDate.of(2000, 2, 29), at("2024-03-15T14:30:00Z"),
            in(LocalDateTime.of(2024, 3, 15, 23, 30), at("2024-03-15T14:30:00Z")),
            // 03:30 on the day New York springs forward: after the gap, EDT (UTC-4).
            in(LocalDateTime.of(2024, 3, 10, 3, 30), at("2024-03-10T07:30:00Z")))
        .row(in(11_016L, LocalDate.of(2000, 2, 29)), in("2024-03-15T14:30:00.999Z",
                at("2024-03-15T14:30:00Z")), // a fraction of a second is dropped
            in(ZonedDateTime.of(2024, 3, 15, 10, 30, 0, 0, newYork), at("2024-03-15T14:30:00Z")),
            in(OffsetDateTime.of(2024, 11, 3, 3, 30, 0, 0, ZoneOffset.ofHours(-5)),
                at("2024-11-03T08:30:00Z"))) // after New York's fall-back night
        .row(in("2024-03-15", LocalDate.of(2024, 3, 15)),
            in(LocalDate.of(2024, 3, 15), at("2024-03-15T00:00:00Z")),
            in(LocalDate.of(2024, 3, 15), at("2024-03-14T15:00:00Z")), // midnight in Tokyo
            in("1710513000", at("2024-03-15T14:30:00Z")))
        .row(in(at("2024-03-15T23:59:59Z"), LocalDate.of(2024, 3, 15)),
            in(1_710_513_000L, at("2024-03-15T14:30:00Z")),
            in("2024-03-16 00:00:00", at("2024-03-15T15:00:00Z")),
            in("2105-12-31 18:59:59", lastSecond))
        .row(in(LocalDateTime.of(2024, 3, 15, 23, 59), LocalDate.of(2024, 3, 15)),
            in(4_291_747_199L, lastSecond),
            in(ZonedDateTime.of(2105, 12, 31, 23, 59, 59, 0, ZoneOffset.UTC).withZoneSameInstant(
                tokyo), lastSecond),
            in(at("1999-12-31T23:59:59.999999999Z"), at("1999-12-31T23:59:59Z")))
        .rejectedRow("is out of range", LocalDate.of(1969, 12, 31), Instant.EPOCH, Instant.EPOCH,
            Instant.EPOCH)
        .rejectedRow("is out of range", LocalDate.EPOCH, -1L, Instant.EPOCH, Instant.EPOCH)
        .rejectedRow("is out of range", LocalDate.EPOCH, Instant.EPOCH,
            at("2106-02-07T06:28:16Z"), Instant.EPOCH)
        .rejectedRow("is not a valid date", "2024-02-30", Instant.EPOCH, Instant.EPOCH,
            Instant.EPOCH)
        .rejectedRow("is not a valid date", LocalDate.EPOCH, "yesterday", Instant.EPOCH,
            Instant.EPOCH);

    rt.run();
  }

  @Test
  void datesAndDateTimes_beyondWhat1816Prints_stillRoundTripExactly() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "dates_max",
        "d Date, dt DateTime, tk DateTime('Asia/Tokyo')").withoutTextCheck();
    rt.row(LocalDate.of(2149, 6, 6), at("2106-02-07T06:28:15Z"),
            in(4_294_967_295L, at("2106-02-07T06:28:15Z")))
        .row(in(49_673L, LocalDate.of(2106, 1, 1)), at("2106-01-01T00:00:00Z"),
            at("2106-01-01T00:00:00Z"));

    rt.run(); // the bytes come back unchanged

    // The server's numbers for them are ours, although its text for them is wrong.
    assertThat(server.query("SELECT toUInt16(d), toUInt32(dt), toUInt32(tk) FROM " + rt.table()
        + " ORDER BY id FORMAT TabSeparated"))
        .isEqualTo("65535\t4294967295\t4294967295\n49673\t4291747200\t4291747200\n");
  }

  /* ------------------------------------------------------------------ UUID, enums */

  @Test
  void uuidsAndEnums_byValueNameAndNumber() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "uuid_enum",
        "u UUID, e8 Enum8('neg' = -128, 'a' = 1, 'quote\\'s' = 2, 'ü' = 3, 'max' = 127),"
            + " e16 Enum16('lo' = -32768, 'ü\"x' = 1000, 'tab\\tname' = 5, 'hi' = 32767)");
    assertThat(rt.serverTypes()).containsExactly("UUID",
        "Enum8('neg' = -128, 'a' = 1, 'quote\\'s' = 2, 'ü' = 3, 'max' = 127)",
        "Enum16('lo' = -32768, 'tab\\tname' = 5, 'ü\"x' = 1000, 'hi' = 32767)");

    UUID sample = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
    rt.row(sample, "neg", "lo")
        .row(new UUID(0, 0), "max", "hi")
        .row(new UUID(-1, -1), "quote's", "ü\"x")
        .row(in("550E8400-E29B-41D4-A716-446655440000",
            UUID.fromString("550e8400-e29b-41d4-a716-446655440000")), "ü", "tab\tname")
        .row(in("00112233-4455-6677-8899-aabbccddeeff", sample), in(-128L, "neg"),
            in(32_767, "hi"))
        .row(in(bytes(0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB,
            0xCC, 0xDD, 0xEE, 0xFF), sample), in(2, "quote's"), in((short) -32768, "lo"))
        .row(sample, in(Letter.a, "a"), in(Letter.hi, "hi"))
        .rejectedRow("is not a declared enum name", sample, "nope", "lo")
        .rejectedRow("is not a declared enum value", sample, 0L, "lo")
        .rejectedRow("is not a declared enum value", sample, "a", 1L)
        .rejectedRow("is not a UUID", "0-0-0-0-0", "a", "lo");

    rt.run();
  }

  /** A Java enum meets an Enum column by name. */
  private enum Letter { a, hi }

  /* ------------------------------------------------------------------ Nullable */

  @Test
  void nullables_ofManyTypes_nullAndValues() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "nullables",
        "ni Nullable(Int32), nu Nullable(UInt64), nf Nullable(Float64), nf32 Nullable(Float32),"
            + " nd Nullable(Decimal(38, 2)), ns Nullable(String), nfs Nullable(FixedString(2)),"
            + " ne Nullable(Enum16('x' = -32768, 'y' = 32767)), nuu Nullable(UUID),"
            + " ndt Nullable(DateTime('Asia/Tokyo')), ndate Nullable(Date), ni8 Nullable(Int8),"
            + " plain String");
    assertThat(rt.serverTypes()).contains("Nullable(Decimal(38, 2))",
        "Nullable(Enum16('x' = -32768, 'y' = 32767))", "Nullable(DateTime('Asia/Tokyo'))");

    UUID u = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
    Object[] nulls = new Object[13];
    nulls[12] = "";
    rt.row(nulls)
        .row(-5, big("18446744073709551615"), Double.NaN, -0.0f, dec("-0.01"), "", "ab", "x", u,
            at("2024-03-15T14:30:00Z"), LocalDate.of(2105, 12, 31), -128, "not null")
        .row(null, 0L, null, Float.MIN_VALUE, null, "\\N", null, "y", null, Instant.EPOCH, null,
            127, "")
        .row(0, null, 0.0, null, dec("0"), null, in(new byte[0], ""), null, new UUID(0, 0),
            null, LocalDate.EPOCH, null, "NULL")
        .row(in("7", 7), in(big("1"), 1L), in("-inf", Double.NEGATIVE_INFINITY),
            in("nan", Float.NaN), in("99999999999999999999999999999999999.99",
                dec("99999999999999999999999999999999999.99")), "NULL", "\0\0", in(-32768, "x"),
            in(u.toString(), u), in(4_291_747_199L, at("2105-12-31T23:59:59Z")),
            in("2000-02-29", LocalDate.of(2000, 2, 29)), in("-1", -1), "\\N")
        .rejectedRow("null into a non-Nullable column",
            1, 1L, 1.0, 1f, dec("1"), "s", "ab", "x", u, Instant.EPOCH, LocalDate.EPOCH, 1, null)
        .rejectedRow("is out of range", 1, -1L, null, null, null, null, null, null, null, null,
            null, null, "");

    rt.run();
  }

  /* ------------------------------------------------------------------ arrays */

  @Test
  void arrays_nestedThreeDeep_nullableElements_andEveryContainerKind() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "arrays",
        "a3 Array(Array(Array(Int32))), ans Array(Nullable(String)), astr Array(String),"
            + " au64 Array(UInt64), af Array(Float64), af32 Array(Float32),"
            + " afs Array(FixedString(2)), ad Array(Date), adt Array(DateTime('Asia/Tokyo')),"
            + " adec Array(Decimal(18, 4)), ae Array(Enum8('a' = 1, 'b' = 2)), au Array(UUID),"
            + " alc Array(LowCardinality(String)), aan Array(Array(Nullable(UInt8))),"
            + " ai8 Array(Int8)");
    assertThat(rt.serverTypes()).contains("Array(Array(Array(Int32)))",
        "Array(Nullable(String))", "Array(LowCardinality(String))",
        "Array(Array(Nullable(UInt8)))");

    UUID u = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
    List<Object> empty = List.of();
    rt.row(empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty,
            empty, empty, empty)
        .row(List.of(List.of(List.of())), Arrays.asList((Object) null), List.of(""),
            List.of(0L), List.of(-0.0), List.of(-0.0f), List.of(""), List.of(LocalDate.EPOCH),
            List.of(Instant.EPOCH), List.of(dec("0")), List.of("a"), List.of(u), List.of(""),
            List.of(List.of()), List.of(-128))
        .row(List.of(List.of(List.of(1, 2), List.of()), List.of(), List.of(List.of(3),
                List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, -1))),
            Arrays.asList("a", null, "", "NULL", null, "it's"),
            List.of("x".repeat(200), "é€😀", "\t\n\\'"),
            in(new long[] {0, Long.MAX_VALUE, 1}, List.of(0L, Long.MAX_VALUE, 1L)),
            in(new double[] {Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1.5},
                List.of(Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1.5)),
            in(new float[] {Float.MAX_VALUE, Float.NaN, -0.0f},
                List.of(Float.MAX_VALUE, Float.NaN, -0.0f)),
            List.of("ab", "a", "", bytes(0xFF, 0)),
            List.of(LocalDate.of(2105, 12, 31), LocalDate.of(2000, 2, 29)),
            List.of(at("2105-12-31T23:59:59Z"), at("2024-03-15T14:30:00Z")),
            List.of(maxDecimal(18, 4), maxDecimal(18, 4).negate(), dec("0.0001")),
            List.of("a", "b", "b", "a"), List.of(u, new UUID(-1, -1)),
            List.of("x", "x", "y", "x", ""),
            List.of(Arrays.asList(1, null, 255), List.of(), Arrays.asList((Object) null)),
            in(new int[] {-128, 127, 0}, List.of(-128, 127, 0)))
        .row(in(new Object[] {new Object[] {new int[] {7}}, List.of(new int[0])},
                List.of(List.of(List.of(7)), List.of(List.of()))),
            in(new Object[] {null, "s"}, Arrays.asList(null, "s")),
            in(new LinkedHashSet<>(List.of("first", "second", "third")),
                List.of("first", "second", "third")),
            in(List.of("18446744073709551615", big("9223372036854775808")),
                List.of(big("18446744073709551615"), big("9223372036854775808"))),
            in(List.of("nan", "-0", 1, big("2")), List.of(Double.NaN, -0.0, 1.0, 2.0)),
            in(new Object[] {0.1, "0.5"}, List.of(0.1f, 0.5f)),
            in(new String[] {"zz", "z"}, List.of("zz", "z")),
            in(List.of(0L, "2024-03-15"), List.of(LocalDate.EPOCH, LocalDate.of(2024, 3, 15))),
            in(List.of(LocalDateTime.of(2024, 3, 15, 23, 30), 0L),
                List.of(at("2024-03-15T14:30:00Z"), Instant.EPOCH)),
            in(List.of("1.5", 2L, 0.25), List.of(dec("1.5"), dec("2"), dec("0.25"))),
            in(List.of(1, 2L), List.of("a", "b")),
            in(List.of(u.toString()), List.of(u)),
            in(new StringBuilder[] {new StringBuilder("sb")}, List.of("sb")),
            in(new Object[] {new Integer[] {null}, new long[] {5}}, List.of(
                Arrays.asList((Object) null), List.of(5))),
            in(new Object[] {(byte) 1, "2", big("-3")}, List.of(1, 2, -3)))
        .rejectedRow("expected a list or an array but the value is LONG", List.of(1, 2), empty,
            empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty,
            empty)
        .rejectedRow("expected a list or an array but the value is TEXT", empty, "x", empty,
            empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty)
        .rejectedRow("is out of range", empty, empty, empty, empty, empty, empty, empty, empty,
            empty, empty, empty, empty, empty, empty, List.of(1, 2, 128))
        .rejectedRow("null into a non-Nullable column", empty, empty, Arrays.asList("a", null),
            empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty, empty);

    rt.run();
  }

  /* ------------------------------------------------------------------ tuples */

  @Test
  void tuples_asColumns_insideArrays_andTopLevelArrayOfTupleSplitBy1816() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "tuples",
        "t1 Tuple(UInt8, String),"
            + " t2 Tuple(Array(String), Nullable(Int32), Tuple(UInt8, Nullable(String))),"
            + " t3 Array(Array(Tuple(UInt8, String))),"
            + " t4 Tuple(LowCardinality(String), Array(Tuple(Int8, String))),"
            + " t5 Tuple(Float64, Decimal(9, 2), Date, DateTime('Asia/Tokyo'), UUID,"
            + " FixedString(3), Enum8('a' = 1)),"
            + " at Array(Tuple(UInt8, String))");
    // 18.16 keeps Tuple columns, and Array(Tuple) below the top level, but splits a top-level
    // Array(Tuple(...)) column into one array per element, like Nested.
    assertThat(rt.serverNames()).containsExactly("t1", "t2", "t3", "t4", "t5", "at.1", "at.2");
    assertThat(rt.serverTypes()).containsExactly("Tuple(UInt8, String)",
        "Tuple(Array(String), Nullable(Int32), Tuple(UInt8, Nullable(String)))",
        "Array(Array(Tuple(UInt8, String)))",
        "Tuple(LowCardinality(String), Array(Tuple(Int8, String)))",
        "Tuple(Float64, Decimal(9, 2), Date, DateTime('Asia/Tokyo'), UUID, FixedString(3),"
            + " Enum8('a' = 1))",
        "Array(UInt8)", "Array(String)");

    UUID u = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
    rt.row(List.of(0, ""), List.of(List.of(), 0, Arrays.asList(0, null)), List.of(),
            List.of("", List.of()),
            List.of(-0.0, dec("0"), LocalDate.EPOCH, Instant.EPOCH, new UUID(0, 0), "", "a"),
            List.of(), List.of())
        .row(new Object[] {255, "tuple's"}, new Object[] {List.of("a", "b"), null,
                new Object[] {7, "x"}},
            List.of(List.of(List.of(1, "a"), new Object[] {2, "b"}), List.of(),
                List.of(List.of(3, ""))),
            List.of("lc", List.of(List.of(-128, "n"), List.of(127, "p"))),
            Arrays.asList(Double.NaN, dec("-9999999.99"), LocalDate.of(2105, 12, 31),
                at("2105-12-31T23:59:59Z"), u, "abc", "a"),
            List.of(1, 2, 3), List.of("one", "two", "three"))
        .row(in(List.of("255", bytes(0xFF)), List.of(255, bytes(0xFF))),
            in(Arrays.asList(new String[] {"\t"}, "-5", List.of(1L, "s")),
                List.of(List.of("\t"), -5, List.of(1, "s"))),
            List.of(List.of()),
            in(new Object[] {new StringBuilder("sb"), new Object[0]}, List.of("sb", List.of())),
            in(List.of("inf", "1.5", 11_016L, 1_710_513_000L, u.toString(), bytes(0, 1), 1L),
                List.of(Double.POSITIVE_INFINITY, dec("1.5"), LocalDate.of(2000, 2, 29),
                    at("2024-03-15T14:30:00Z"), u, bytes(0, 1), "a")),
            in(new int[] {0}, List.of(0)), List.of("only"))
        .rejectedRow("a tuple of 2 elements needs 2 values, not 3", List.of(1, "a", "extra"),
            List.of(List.of(), 0, List.of(0, "")), List.of(), List.of("", List.of()),
            List.of(0.0, 0, 0L, 0L, u, "", "a"), List.of(), List.of())
        .rejectedRow("expected a list or an array but the value is TEXT", "(1,'a')",
            List.of(List.of(), 0, List.of(0, "")), List.of(), List.of("", List.of()),
            List.of(0.0, 0, 0L, 0L, u, "", "a"), List.of(), List.of());

    rt.run();
  }

  /* ------------------------------------------------------------------ LowCardinality */

  @Test
  void lowCardinality_isInvisibleInRowBinary() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "lowcard",
        "lc LowCardinality(String), lcn LowCardinality(Nullable(String)),"
            + " lcfs LowCardinality(FixedString(3)), lcu LowCardinality(Nullable(UInt32)),"
            + " lcd LowCardinality(Date), lcdt LowCardinality(DateTime), lcf LowCardinality(Float64)");
    assertThat(rt.serverTypes()).containsExactly("LowCardinality(String)",
        "LowCardinality(Nullable(String))", "LowCardinality(FixedString(3))",
        "LowCardinality(Nullable(UInt32))", "LowCardinality(Date)", "LowCardinality(DateTime)",
        "LowCardinality(Float64)");

    String[] words = {"", "a", "b", "a", "", "ccc", "a"};
    for (int i = 0; i < 21; i++) {
      String w = words[i % words.length];
      rt.row(w, i % 3 == 0 ? null : w, w.length() > 3 ? "abc" : w, i % 4 == 0 ? null : i % 5,
          LocalDate.ofEpochDay(i % 3 * 20_000), Instant.ofEpochSecond(i % 2 * 1_710_513_000L),
          i % 2 == 0 ? -0.0 : (double) (i % 5));
    }
    rt.row("x".repeat(20_000), "\\N", bytes(0xFF, 0, 0xFF), 4_294_967_295L,
            LocalDate.of(2105, 12, 31), at("2105-12-31T23:59:59Z"), Double.NaN)
        .rejectedRow("null into a non-Nullable column", null, null, "", null, LocalDate.EPOCH,
            Instant.EPOCH, 0.0);

    rt.run();
  }

  /* ------------------------------------------------------------------ Nested */

  @Test
  void nested_isWrittenAsTheArraysTheServerListsForIt() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "nested",
        "n Nested(a UInt8, b String),"
            + " m Nested(d Decimal(9, 2), t DateTime('Asia/Tokyo'), s Nullable(String))");
    // 18.16 always flattens Nested: the encoder is built from the arrays DESCRIBE lists.
    assertThat(rt.serverNames()).containsExactly("n.a", "n.b", "m.d", "m.t", "m.s");
    assertThat(rt.serverTypes()).containsExactly("Array(UInt8)", "Array(String)",
        "Array(Decimal(9, 2))", "Array(DateTime('Asia/Tokyo'))", "Array(Nullable(String))");

    rt.row(List.of(), List.of(), List.of(), List.of(), List.of())
        .row(List.of(1, 255, 0), List.of("one", "", "\0"), List.of(dec("0.01")),
            List.of(at("2024-03-15T14:30:00Z")), Arrays.asList((Object) null))
        .row(in(new int[] {7}, List.of(7)), List.of("seven"),
            List.of(maxDecimal(9, 2), maxDecimal(9, 2).negate()),
            List.of(Instant.EPOCH, at("2105-12-31T23:59:59Z")), Arrays.asList("s", null));

    rt.run();

    assertThat(server.query("SELECT n.a, n.b FROM " + rt.table()
        + " ARRAY JOIN n WHERE id = 1 FORMAT TabSeparated"))
        .isEqualTo("1\tone\n255\t\n0\t\\0\n");
  }

  /* ------------------------------------------------------------------ wide tables */

  /** Every 18.16 type family in one table, read back from the server. */
  private static final String WIDE_COLUMNS =
      "i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64,"
          + " f32 Float32, f64 Float64, d32 Decimal32(3), d64 Decimal64(9), d128 Decimal128(20),"
          + " dfull Decimal(38, 38), s String, fs FixedString(5), d Date, dt DateTime,"
          + " dtk DateTime('Asia/Tokyo'), u UUID,"
          + " e8 Enum8('neg' = -128, 'zero' = 0, 'q\\'uote' = 5, 'max' = 127),"
          + " e16 Enum16('lo' = -32768, 'ü' = 1000, 'hi' = 32767),"
          + " ni Nullable(Int64), ns Nullable(String), nf Nullable(Float32),"
          + " nd Nullable(Decimal(18, 2)), nfs Nullable(FixedString(3)), ndt Nullable(DateTime),"
          + " ndate Nullable(Date), nuuid Nullable(UUID), ne Nullable(Enum8('a' = 1, 'b' = 2)),"
          + " a3 Array(Array(Array(Int32))), ans Array(Nullable(String)), ai64 Array(Int64),"
          + " af64 Array(Float64), adec Array(Decimal(38, 4)), aenum Array(Enum16('x' = 1)),"
          + " adate Array(Nullable(Date)), alc Array(LowCardinality(String)),"
          + " t Tuple(String, Nullable(UInt8), Array(Int16), Tuple(Float64, UUID)),"
          + " tat Array(Array(Tuple(Date, Nullable(String)))),"
          + " lc LowCardinality(String), lcn LowCardinality(Nullable(String)),"
          + " lcu LowCardinality(UInt64), lcfs LowCardinality(Nullable(FixedString(2))),"
          + " n Nested(a UInt8, b String), pairs Array(Tuple(String, UInt64)),"
          + " tiny TINYINT, big BIGINT, dbl DOUBLE, flt FLOAT, txt VARCHAR, blob BLOB";

  @Test
  void wideTable_everyTypeInOneLogTable_randomRowsWithEdgesInSixInserts() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "wide", WIDE_COLUMNS, "Log");
    assertThat(rt.serverNames()).contains("n.a", "n.b", "pairs.1", "pairs.2");
    assertThat(rt.serverTypes()).contains("Decimal(9, 3)", "Decimal(18, 9)", "Decimal(38, 20)",
        "Int8", "Int64", "Float64", "Float32", "String");
    ServerValueGen gen = new ServerValueGen(0x5EED_0001L);
    fill(rt, gen, 1_234);
    // Bad values mid-frame, late in the row: the encoder has written most of the row when it
    // fails; the row is rolled back and the rows around it land intact.
    Object[] bad = randomRow(rt, gen);
    bad[rt.serverNames().indexOf("s")] = null;
    rt.rejectedRow("null into a non-Nullable column", bad);
    Object[] bad2 = randomRow(rt, gen);
    bad2[rt.serverNames().indexOf("a3")] = List.of(List.of(List.of(1)), List.of(List.of("x")));
    rt.rejectedRow("is not a number", bad2);
    fill(rt, gen, 1_766);

    ServerRoundTrip.Result result = rt.rowsPerFrame(500).run();

    assertThat(result.inserts()).isEqualTo(6);
    assertThat(result.rows()).isEqualTo(3_000);
    rt.drop();
  }

  @Test
  void randomized_100kRows_multiTypeTable_fiveInserts_byteIdenticalAndCellByCell() {
    ServerRoundTrip rt = ServerRoundTrip.create(server, "random100k",
        "u8 UInt8, i32 Int32, u64 UInt64, i64 Int64, f32 Float32, f64 Float64,"
            + " d Decimal(18, 4), dd Decimal(38, 10), s String, fs FixedString(8), date Date,"
            + " dt DateTime, dtk DateTime('Asia/Tokyo'), u UUID, e Enum8('a' = 1, 'b' = -2),"
            + " ns Nullable(String), ni Nullable(Int16), ai Array(Int32),"
            + " ans Array(Nullable(String)), aai Array(Array(UInt16)),"
            + " t Tuple(String, Nullable(Decimal(9, 2))), lc LowCardinality(String),"
            + " lcn LowCardinality(Nullable(String)), n Nested(x Int8, y String)");
    ServerValueGen gen = new ServerValueGen(20_240_315L);
    fill(rt, gen, 100_000);

    ServerRoundTrip.Result result = rt.rowsPerFrame(20_000).run();

    assertThat(result.inserts()).isEqualTo(5);
    assertThat(result.rows()).isEqualTo(100_000);
    // The server's own aggregates agree with the values sent.
    assertThat(server.query("SELECT count(), uniqExact(id), min(id), max(id) FROM "
        + rt.table() + " FORMAT TabSeparated")).isEqualTo("100000\t100000\t0\t99999\n");
    rt.drop(); // frees the shared server's memory
  }

  /** Adds {@code rows} random rows; the arrays of one Nested (or split Array(Tuple)) match. */
  private static void fill(ServerRoundTrip rt, ServerValueGen gen, int rows) {
    for (int i = 0; i < rows; i++) {
      rt.row(randomRow(rt, gen));
    }
  }

  private static Object[] randomRow(ServerRoundTrip rt, ServerValueGen gen) {
    return gen.row(rt.serverNames(), rt.types());
  }

  /* ------------------------------------------------------------------ sanity of the helpers */

  @Test
  void theTextParser_readsWhatThisServerPrints() {
    // Guards the comparison itself: values the server computes, parsed by ServerTsv.
    byte[] out = server.queryBytes("SELECT toFloat32(-0.), -inf, nan, toDecimal32(-0.5, 2),"
        + " toDate(0), toDateTime(0, 'Asia/Tokyo'), toDateTime(1710513000, 'Asia/Tokyo'),"
        + " [toNullable('a\\'b'), NULL], ('x\\t', [1, 2]), unhex('00FF0A5C27'),"
        + " toFixedString('a', 3), CAST('q\\'uote' AS Enum8('q\\'uote' = 1))"
        + " FORMAT TabSeparated");
    List<ClickHouseType> types = List.of("Float32", "Float64", "Float64", "Decimal(9, 2)", "Date",
        "DateTime('Asia/Tokyo')", "DateTime('Asia/Tokyo')", "Array(Nullable(String))",
        "Tuple(String, Array(UInt8))", "String", "FixedString(3)", "Enum8('q\\'uote' = 1)")
        .stream().map(ClickHouseType::parse).toList();

    List<Object> row = ServerTsv.parse(out, types).get(0).values();

    assertThat(row).containsExactly(-0.0f, Double.NEGATIVE_INFINITY, Double.NaN, dec("-0.50"),
        LocalDate.EPOCH, Instant.EPOCH, at("2024-03-15T14:30:00Z"),
        Arrays.asList(Bytes.utf8("a'b"), null), List.of(Bytes.utf8("x\t"),
            List.of(BigInteger.ONE, BigInteger.TWO)),
        new Bytes(bytes(0, 0xFF, 0x0A, 0x5C, 0x27)), new Bytes(bytes('a', 0, 0)), "q'uote");
    assertThat(new String(out, UTF_8)).contains("0000-00-00");
  }
}
