package dev.handoff.encoders.clickhouse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.type.ClickHouseType;
import org.junit.jupiter.api.Test;

/*
 * The String cache of a LowCardinality(String) column holds one key per distinct text: copies
 * of a value seen before are found by equals, ASCII or not, and do not pile up in the cache.
 */
class LowCardinalityColumnTest {

  private static LowCardinalityColumn column(String type) {
    return (LowCardinalityColumn) Column.of(ClickHouseType.parse(type), "c");
  }

  @Test
  void copiesOfOneValue_areOneCacheKeyAndOneEntry() {
    for (String text : new String[] {"ascii", "caf\u00e9", "\uD800", "x".repeat(200)}) {
      LowCardinalityColumn c = column("LowCardinality(String)");
      for (int i = 0; i < 1_000; i++) {
        c.appendString(new String(text.toCharArray()));
      }
      assertThat(c.count).isEqualTo(1_000);
      assertThat(c.entries()).as(text).isEqualTo(2); // the default and the value
      assertThat(c.cachedStrings()).as(text).isEqualTo(1);
    }
  }

  @Test
  void blockReset_emptiesTheCache_andTheColumnStartsOver() {
    LowCardinalityColumn c = column("LowCardinality(Nullable(String))");
    for (int i = 0; i < 300; i++) {
      c.appendString("v" + (i % 100));
    }
    assertThat(c.entries()).isEqualTo(102);
    assertThat(c.cachedStrings()).isEqualTo(100);
    c.truncate(0);
    assertThat(c.entries()).isEqualTo(2);
    assertThat(c.cachedStrings()).isZero();
    c.appendString("v7");
    assertThat(c.entries()).isEqualTo(3);
    assertThat(c.cachedStrings()).isEqualTo(1);
  }

  @Test
  void otherDictionaries_haveNoCache() {
    assertThat(column("LowCardinality(String)").hasStringDictionary()).isTrue();
    assertThat(column("LowCardinality(FixedString(2))").hasStringDictionary()).isFalse();
    assertThat(column("LowCardinality(Int32)").cachedStrings()).isZero();
  }
}
