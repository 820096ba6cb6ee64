package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.value.Conversions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteFields} against the conversions it stands in for: wherever it reads a value from
 * bytes, {@code Conversions} gives the same value for the same text (a date, a date-time in
 * fixed offsets, a UUID), {@code new BigInteger(text)} the same integer and Jackson's tree the
 * same decimal (digits and scale); and it reads every text of the common shapes (so the fast
 * path is taken). Random texts near the shapes (a digit or a separator changed, days past the
 * month's end, leap days, the ends of each range) check that it declines what it cannot read.
 */
class ByteFieldsTest {

  /** One text field, as the conversions read it. */
  static final RowAccessor<String> TEXT = new RowAccessor<>() {
    @Override
    public ValueKind kind(String row, int field) {
      return ValueKind.TEXT;
    }

    @Override
    public Object getObject(String row, int field) {
      return row;
    }

    @Override
    public CharSequence getText(String row, int field) {
      return row;
    }
  };

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The conversion's value, or {@code null} where it rejects the text. */
  private static Long convert(java.util.function.Supplier<Number> f) {
    try {
      return f.get().longValue();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static final char[] NOISE = "0123456789-: TZ+x".toCharArray();

  /** {@code s} with one char changed, one char dropped or one added, at random. */
  private static String mutate(SplittableRandom r, String s) {
    StringBuilder b = new StringBuilder(s);
    int at = r.nextInt(s.length());
    switch (r.nextInt(3)) {
      case 0 -> b.setCharAt(at, NOISE[r.nextInt(NOISE.length)]);
      case 1 -> b.deleteCharAt(at);
      default -> b.insert(at, NOISE[r.nextInt(NOISE.length)]);
    }
    return b.toString();
  }

  private static String date(SplittableRandom r) {
    int year = r.nextInt(10) == 0 ? r.nextInt(10_000) : 1890 + r.nextInt(420);
    return String.format("%04d-%02d-%02d", year, 1 + r.nextInt(12), 1 + r.nextInt(31));
  }

  /**
   * {@link ByteFields#smallInteger} against {@code Long.parseLong} of the
   * strings {@code -?[0-9]{1,18}}: digits with a junk byte at every place, 1 to 22 digits,
   * within larger arrays and at their end.
   */
  @Test
  void smallInteger_readsWhatParseLongReadsUpTo18Digits() {
    byte[] junk = {'-', '+', '.', '/', ':', ' ', 'e', (byte) 0xFA, (byte) 0xFF, 0};
    for (long seed = 1; seed <= 20_000; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      StringBuilder t = new StringBuilder(r.nextInt(5) == 0 ? "-" : "");
      for (int n = r.nextInt(23); n > 0; n--) {
        t.append((char) ('0' + r.nextInt(10)));
      }
      byte[] text = t.toString().getBytes(StandardCharsets.ISO_8859_1);
      if (text.length > 0 && r.nextInt(4) == 0) {
        text[r.nextInt(text.length)] = junk[r.nextInt(junk.length)];
      }
      String s = new String(text, StandardCharsets.ISO_8859_1);
      long want = s.matches("-?[0-9]{1,18}") ? Long.parseLong(s) : ByteFields.NONE;
      int before = r.nextInt(10);
      byte[] b = new byte[before + text.length + r.nextInt(10)];
      for (int k = 0; k < b.length; k++) {
        b[k] = (byte) ('0' + r.nextInt(10)); // digits around it too: only [from, to) counts
      }
      System.arraycopy(text, 0, b, before, text.length);
      assertThat(ByteFields.smallInteger(b, before, before + text.length))
          .as("seed %d: '%s'", seed, s).isEqualTo(want);
    }
  }

  @Test
  void epochDay_isTheConversionsDay() {
    ClickHouseType date = ClickHouseType.parse("Date");
    ClickHouseType date32 = ClickHouseType.parse("Date32");
    SplittableRandom r = new SplittableRandom(16);
    for (int i = 0; i < 200_000; i++) {
      String s = date(r);
      if (r.nextInt(3) == 0) {
        s = mutate(r, s);
      }
      byte[] b = bytes(s);
      long got = ByteFields.epochDay(b, 0, b.length);
      Long want;
      try {
        want = LocalDate.parse(s).toEpochDay();
      } catch (RuntimeException e) {
        want = null;
      }
      if (s.length() == 10 && s.matches("\\d{4}-\\d{2}-\\d{2}")) {
        // The common shape: read exactly when the calendar has the day.
        assertThat(got == ByteFields.NONE ? null : got).as(s).isEqualTo(want);
      } else {
        assertThat(got).as(s).isEqualTo(ByteFields.NONE);
      }
      if (got != ByteFields.NONE) {
        String text = s;
        for (ClickHouseType t : new ClickHouseType[] {date, date32}) {
          Long c = convert(() -> Conversions.toEpochDay(TEXT, text, 0, t, "d"));
          if (c != null) {
            assertThat(got).as(s + " " + t).isEqualTo(c);
          }
        }
      }
    }
    // The ends of the ranges the plan checks, and leap days.
    for (String s : new String[] {"1970-01-01", "2149-06-06", "2149-06-07", "1900-01-01",
        "2299-12-31", "2000-02-29", "1900-02-29", "2024-02-29", "2023-02-29", "0000-01-01"}) {
      byte[] b = bytes(s);
      long got = ByteFields.epochDay(b, 0, b.length);
      Long want = convert(() -> LocalDate.parse(s).toEpochDay());
      assertThat(got == ByteFields.NONE ? null : got).as(s).isEqualTo(want);
    }
  }

  @Test
  void epochSecond_isTheConversionsSecond_inFixedOffsets() {
    SplittableRandom r = new SplittableRandom(17);
    String[] zones = {"UTC", "+05:30", "-08:00", "Etc/GMT+3"};
    for (int i = 0; i < 200_000; i++) {
      String zone = zones[r.nextInt(zones.length)];
      ClickHouseType type = ClickHouseType.parse("DateTime('" + zone + "')");
      int offset = type.zone().getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds();
      String s = (r.nextInt(20) == 0 ? String.format("%04d-%02d-%02d", 1969 + r.nextInt(3),
          1 + r.nextInt(12), 1 + r.nextInt(31)) : date(r))
          + (r.nextBoolean() ? " " : "T")
          + String.format("%02d:%02d:%02d", r.nextInt(25), r.nextInt(61), r.nextInt(61))
          + (r.nextInt(4) == 0 ? "Z" : "");
      if (r.nextInt(3) == 0) {
        s = mutate(r, s);
      }
      String text = s;
      byte[] b = bytes(s);
      long got = ByteFields.epochSecond(b, 0, b.length, offset);
      Long want = convert(() -> Conversions.toEpochSecond(TEXT, text, 0, type, "ts"));
      if (got != ByteFields.NONE && got >= 0 && got <= Conversions.DATETIME_MAX) {
        assertThat(got).as(s + " in " + zone).isEqualTo(want);
      } else if (s.matches("\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}Z?")) {
        // The common shape, declined: then the conversion rejects it too (a day or a time the
        // calendar does not have, or a second outside DateTime's range).
        assertThat(want).as(s + " in " + zone + " declined").isNull();
      }
    }
    for (String s : new String[] {"1970-01-01 00:00:00", "2106-02-07 06:28:15",
        "2106-02-07 06:28:16", "1969-12-31 23:59:59", "2024-02-29T23:59:59Z",
        "2023-12-31 24:00:00", "2023-12-31 23:60:00", "2023-12-31 23:59:60"}) {
      ClickHouseType type = ClickHouseType.parse("DateTime('UTC')");
      byte[] b = bytes(s);
      long got = ByteFields.epochSecond(b, 0, b.length, 0);
      Long want = convert(() -> Conversions.toEpochSecond(TEXT, s, 0, type, "ts"));
      boolean inRange = got >= 0 && got <= Conversions.DATETIME_MAX;
      assertThat(got != ByteFields.NONE && inRange ? (Long) got : null).as(s).isEqualTo(want);
    }
  }

  @Test
  void uuid_isTheConversionsUuid() {
    ClickHouseType type = ClickHouseType.parse("UUID");
    SplittableRandom r = new SplittableRandom(18);
    char[] hex = "0123456789abcdefABCDEFgG-".toCharArray();
    for (int i = 0; i < 100_000; i++) {
      String s = new UUID(r.nextLong(), r.nextLong()).toString();
      if (r.nextBoolean()) {
        s = s.toUpperCase(java.util.Locale.ROOT);
      }
      if (r.nextInt(3) == 0) {
        StringBuilder b = new StringBuilder(s);
        b.setCharAt(r.nextInt(s.length()), hex[r.nextInt(hex.length)]);
        s = r.nextInt(10) == 0 ? b.substring(1) : b.toString();
      }
      String text = s;
      byte[] b = bytes(s);
      UUID got = ByteFields.uuid(b, 0, b.length);
      UUID want;
      try {
        want = Conversions.toUuid(TEXT, text, 0, type, "u");
      } catch (RuntimeException e) {
        want = null;
      }
      assertThat(got).as(s).isEqualTo(want);
    }
  }

  @Test
  void bigInteger_isTheTextsInteger_upTo64UnsignedBits() {
    SplittableRandom r = new SplittableRandom(19);
    BigInteger limit = BigInteger.ONE.shiftLeft(64);
    for (int i = 0; i < 100_000; i++) {
      BigInteger v = new BigInteger(66, new java.util.Random(r.nextLong()));
      if (r.nextInt(4) == 0) {
        v = limit.subtract(BigInteger.valueOf(r.nextInt(3) - 1)); // 2^64 - 1, 2^64, 2^64 + 1
      }
      if (r.nextBoolean()) {
        v = v.negate();
      }
      String s = v.toString();
      int digits = v.abs().toString().length();
      if (digits < 19) {
        continue; // the scanner reads these as longs
      }
      byte[] b = bytes(s);
      BigInteger got = ByteFields.bigInteger(b, 0, b.length);
      if (v.abs().compareTo(limit) < 0) {
        assertThat(got).as(s).isEqualTo(new BigInteger(s));
      } else {
        assertThat(got).as(s).isNull();
      }
    }
    byte[] max = bytes("18446744073709551615");
    assertThat(ByteFields.bigInteger(max, 0, max.length)).isEqualTo(limit.subtract(BigInteger.ONE));
    byte[] over = bytes("18446744073709551616");
    assertThat(ByteFields.bigInteger(over, 0, over.length)).isNull();
  }

  @Test
  void simpleDouble_isTheCorrectlyRoundedDouble_upTo15Digits() {
    SplittableRandom r = new SplittableRandom(22);
    for (int i = 0; i < 300_000; i++) {
      StringBuilder s = new StringBuilder(r.nextBoolean() ? "-" : "");
      int intDigits = 1 + r.nextInt(r.nextInt(4) == 0 ? 17 : 8);
      for (int k = 0; k < intDigits; k++) {
        s.append(k == 0 && intDigits > 1 ? 1 + r.nextInt(9) : r.nextInt(10));
      }
      int fraction = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(16);
      if (fraction > 0) {
        s.append('.');
        for (int k = 0; k < fraction; k++) {
          s.append(r.nextInt(10));
        }
      }
      String text = s.toString();
      byte[] b = bytes(text);
      double got = ByteFields.simpleDouble(b, 0, b.length);
      if (intDigits + fraction <= 15) {
        assertThat(Double.doubleToRawLongBits(got)).as(text)
            .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(text)));
      } else {
        assertThat(got).as(text).isNaN();
      }
    }
    for (String bad : new String[] {"", "-", ".5", "5.", "1e5", "1.5e3", "+1", "1..2", "1.2.3"}) {
      byte[] b = bytes(bad);
      assertThat(ByteFields.simpleDouble(b, 0, b.length)).as(bad).isNaN();
    }
    byte[] negativeZero = bytes("-0.0");
    assertThat(Double.doubleToRawLongBits(ByteFields.simpleDouble(negativeZero, 0, 4)))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void decimal_isTheTreesDecimal_digitsAndScale() throws Exception {
    ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    SplittableRandom r = new SplittableRandom(20);
    int read = 0;
    for (int i = 0; i < 100_000; i++) {
      StringBuilder s = new StringBuilder(r.nextBoolean() ? "-" : "");
      int intDigits = 1 + r.nextInt(12);
      s.append(r.nextInt(3) == 0 ? "0" : String.valueOf(1 + r.nextInt(9)));
      if (!s.toString().endsWith("0")) {
        for (int k = 1; k < intDigits; k++) {
          s.append(r.nextInt(10));
        }
      }
      s.append('.');
      for (int k = 1 + r.nextInt(10); k > 0; k--) {
        s.append(r.nextInt(4) == 0 ? 0 : r.nextInt(10));
      }
      String text = s.toString();
      byte[] b = bytes(text);
      BigDecimal got = ByteFields.decimal(b, 0, b.length);
      BigDecimal tree = mapper.readTree(text).decimalValue();
      if (got != null) {
        read++;
        assertThat(got).as(text).isEqualTo(tree); // equals: the same digits and scale
        assertThat(got.unscaledValue()).isEqualTo(tree.unscaledValue());
      } else {
        // Declined: 19 digits or more.
        long digits = text.chars().filter(Character::isDigit).count();
        assertThat(digits > 18).as(text).isTrue();
      }
    }
    assertThat(read).isGreaterThan(90_000);
    for (String text : new String[] {"0.0", "-0.0", "0.000", "10.0", "100.00", "-2.50", "0.10",
        "12345678901234.5670", "1.5", "90000000000000000.0"}) {
      byte[] b = bytes(text);
      BigDecimal tree = mapper.readTree(text).decimalValue();
      assertThat(ByteFields.decimal(b, 0, b.length)).as(text).isEqualTo(tree);
      assertThat(ByteFields.decimal(b, 0, b.length).unscaledValue()).as(text)
          .isEqualTo(tree.unscaledValue());
    }
  }
}
