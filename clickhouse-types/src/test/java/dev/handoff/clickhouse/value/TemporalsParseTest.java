package dev.handoff.clickhouse.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAccessor;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Temporals#parse} chooses the result type from the fields the text has, without trying
 * each type in turn; it returns what {@code parseBest} in that order returns. Its hand-written
 * path for the common shapes ({@link Temporals#parseCommon}) agrees with the formatter on every
 * text it accepts, and leaves every other text to it.
 */
final class TemporalsParseTest {

  /** The formatter Temporals documents, for the reference answers. */
  private static final DateTimeFormatter REFERENCE = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart().appendLiteral('T').append(DateTimeFormatter.ISO_LOCAL_TIME)
      .optionalStart().appendOffsetId().optionalEnd()
      .optionalStart().appendLiteral('[').parseCaseSensitive().appendZoneRegionId()
      .appendLiteral(']').optionalEnd()
      .optionalEnd()
      .toFormatter(Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);

  @Test
  void parse_returnsWhatParseBestReturns() {
    for (String text : List.of("2024-03-15", "2024-02-29", "2024-03-15T14:30",
        "2024-03-15T14:30:00", "2024-03-15T14:30:00.123456789", "2024-03-15T14:30:00Z",
        "2024-03-15T14:30:00+05:30", "2024-03-15T14:30:00+01:00[Europe/Paris]",
        "2024-03-15T14:30:00[Europe/Paris]", "2024-03-15T14:30:00Z[UTC]")) {
      TemporalAccessor expected = REFERENCE.parseBest(text, OffsetDateTime::from,
          ZonedDateTime::from, LocalDateTime::from, LocalDate::from);

      assertThat(Temporals.parse(text)).as(text).isEqualTo(expected);
    }
    assertThat(Temporals.parse("2024-03-15 14:30:00"))
        .isEqualTo(LocalDateTime.of(2024, 3, 15, 14, 30));
  }

  @Test
  void parse_rejectsWhatIsNotADateStrictly() {
    for (String text : List.of("2024-02-30", "2024-03-15T24:00", "15/03/2024", "2024-03-15T",
        "2024-03-15T14:30:00[Nowhere/Land]", "")) {
      assertThatThrownBy(() -> Temporals.parse(text)).as(text).isInstanceOf(Rejected.class);
    }
  }

  @Test
  void parseCommon_agreesWithTheFormatterOnEveryTextItAcceptsAndLeavesTheRestToIt() {
    long seeds = Long.getLong("handoff.temporalSeeds", 200_000);
    int accepted = 0;
    for (long seed = 0; seed < seeds; seed++) {
      String text = nearIso(new SplittableRandom(seed));
      Object common = Temporals.parseCommon(text);
      Object iso;
      try {
        iso = Temporals.parseIso(text);
      } catch (Rejected e) {
        iso = null;
      }
      if (common != null) {
        accepted++;
        assertThat(common).as("seed %d: \"%s\"", seed, text).isEqualTo(iso);
        assertThat(Temporals.parse(text)).isEqualTo(iso);
      }
    }
    // The generator aims at the common shapes: most texts must take the hand-written path, or
    // this test would prove little.
    assertThat(accepted).as("texts the hand-written path parsed").isGreaterThan((int) (seeds / 4));
  }

  @Test
  void parseCommon_leavesTheEdgesToTheFormatter() {
    for (String text : List.of("2024-03-15T14:30:00-00:00", "2024-03-15T14:30:00.",
        "2024-03-15T14:30:00.1234567890", "2024-03-15T14:30:00+05", "2024-03-15t14:30",
        "2024-03-15T14:30:00z", "+2024-03-15", "2024-3-15", "2024-03-15T14:30:00+05:30[Asia/Kolkata]",
        "2024-02-30", "2024-03-15T24:00", "2024-03-15T14:30:00+19:00")) {
      assertThat(Temporals.parseCommon(text)).as(text).isNull();
    }
  }

  /**
   * A text in or near the common shapes: valid parts, then with some probability a digit, a
   * separator or a length changed, so both paths meet texts one step off each rule.
   */
  private static String nearIso(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    b.append(pad(r.nextInt(10) == 0 ? r.nextInt(10_000) : 1900 + r.nextInt(300), 4)).append('-')
        .append(pad(r.nextInt(8) == 0 ? r.nextInt(100) : 1 + r.nextInt(12), 2)).append('-')
        .append(pad(r.nextInt(8) == 0 ? r.nextInt(100) : 1 + r.nextInt(31), 2));
    if (r.nextInt(4) > 0) {
      b.append(r.nextBoolean() ? 'T' : ' ')
          .append(pad(r.nextInt(10) == 0 ? r.nextInt(100) : r.nextInt(24), 2)).append(':')
          .append(pad(r.nextInt(10) == 0 ? r.nextInt(100) : r.nextInt(60), 2));
      if (r.nextInt(4) > 0) {
        b.append(':').append(pad(r.nextInt(10) == 0 ? r.nextInt(100) : r.nextInt(60), 2));
        if (r.nextBoolean()) {
          b.append('.');
          int digits = r.nextInt(11);
          for (int i = 0; i < digits; i++) {
            b.append((char) ('0' + r.nextInt(10)));
          }
        }
      }
      switch (r.nextInt(6)) {
        case 0 -> b.append('Z');
        case 1, 2 -> b.append(r.nextBoolean() ? '+' : '-')
            .append(pad(r.nextInt(6) == 0 ? r.nextInt(100) : r.nextInt(19), 2)).append(':')
            .append(pad(r.nextInt(6) == 0 ? r.nextInt(100) : r.nextInt(4) * 15, 2));
        default -> { }
      }
    }
    if (r.nextInt(10) == 0 && b.length() > 0) {
      // one character replaced, dropped or added
      int at = r.nextInt(b.length());
      String pool = "0123456789-:T .Z+zt/";
      char c = pool.charAt(r.nextInt(pool.length()));
      switch (r.nextInt(3)) {
        case 0 -> b.setCharAt(at, c);
        case 1 -> b.deleteCharAt(at);
        default -> b.insert(at, c);
      }
    }
    return b.toString();
  }

  private static String pad(int v, int width) {
    String s = Integer.toString(v);
    return "0".repeat(Math.max(0, width - s.length())) + s;
  }
}
