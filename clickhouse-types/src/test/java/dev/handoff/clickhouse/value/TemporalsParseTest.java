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
import org.junit.jupiter.api.Test;

/**
 * {@link Temporals#parse} chooses the result type from the fields the text has, without trying
 * each type in turn; it returns what {@code parseBest} in that order returns.
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
}
