package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@link ClickHouseType#withDefaultZone}: the server's zone for date-times that name none. */
final class DefaultZoneTest {

  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  @Test
  void dateTimeWithoutAZone_takesTheDefault_itsSpellingStays() {
    ClickHouseType t = ClickHouseType.parse("DateTime").withDefaultZone(BERLIN);

    assertThat(t.zone()).isEqualTo(BERLIN);
    assertThat(t.timeZone()).isNull();
    assertThat(t).hasToString("DateTime").isEqualTo(ClickHouseType.parse("DateTime"));
    assertThat(ClickHouseType.parse("DateTime64(3)").withDefaultZone(BERLIN).zone())
        .isEqualTo(BERLIN);
  }

  @Test
  void aColumnsOwnZone_wins() {
    ClickHouseType t = ClickHouseType.parse("DateTime('Asia/Tokyo')").withDefaultZone(BERLIN);

    assertThat(t.zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
  }

  @Test
  void nestedDateTimes_takeTheDefault_otherTypesAreUnchanged() {
    ClickHouseType t = ClickHouseType.parse(
        "Tuple(a Array(Nullable(DateTime)), b DateTime('UTC'), c String)").withDefaultZone(BERLIN);

    assertThat(t.elements().get(0).element().element().zone()).isEqualTo(BERLIN);
    assertThat(t.elements().get(1).zone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(t).hasToString("Tuple(a Array(Nullable(DateTime)), b DateTime('UTC'), c String)");
    ClickHouseType s = ClickHouseType.parse("Array(String)");
    assertThat(s.withDefaultZone(BERLIN)).isSameAs(s);
    assertThat(ClickHouseType.parse("DateTime").zone()).isEqualTo(ZoneOffset.UTC);
  }
}
