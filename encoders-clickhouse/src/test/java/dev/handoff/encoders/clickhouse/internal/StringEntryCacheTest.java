package dev.handoff.encoders.clickhouse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/*
 * The String → entry cache on its own: found by the same instance and by an equal copy, kept
 * through growing, forgotten by clear, whose arrays are then reused.
 */
class StringEntryCacheTest {

  /** Returns the cached entry of {@code s}, or -1; caches it as {@code ifAbsent} if >= 0. */
  private static int lookup(StringEntryCache c, String s, int ifAbsent) {
    int h = LowCardinalityColumn.spread(s.hashCode());
    int e = c.find(s, h);
    if (e < 0 && ifAbsent >= 0) {
      c.put(-1 - e, s, h, ifAbsent);
    }
    return Math.max(e, -1);
  }

  @Test
  void findsTheSameInstanceAndEqualCopies_throughGrowth() {
    StringEntryCache c = new StringEntryCache();
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < 5_000; i++) {
      String s = "value-" + i;
      assertThat(lookup(c, s, i + 1)).isEqualTo(-1);
      expected.put(s, i + 1);
    }
    assertThat(c.size()).isEqualTo(5_000);
    expected.forEach((s, e) -> {
      assertThat(lookup(c, s, -1)).as(s).isEqualTo(e);
      assertThat(lookup(c, new String(s.toCharArray()), -1)).as("copy of " + s).isEqualTo(e);
    });
    assertThat(lookup(c, "value-5000", -1)).isEqualTo(-1);
  }

  @Test
  void stringsWithTheSameHash_areDifferentKeys() {
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    StringEntryCache c = new StringEntryCache();
    lookup(c, "Aa", 3);
    assertThat(lookup(c, "BB", -1)).isEqualTo(-1);
    lookup(c, "BB", 4);
    assertThat(lookup(c, "Aa", -1)).isEqualTo(3);
    assertThat(lookup(c, "BB", -1)).isEqualTo(4);
  }

  @Test
  void clear_forgetsEveryKey_andKeepsTheArrays() {
    StringEntryCache c = new StringEntryCache();
    for (int i = 0; i < 1_000; i++) {
      lookup(c, "k" + i, i);
    }
    long retained = c.retainedBytes();
    c.clear();
    assertThat(c.size()).isZero();
    for (int i = 0; i < 1_000; i++) {
      assertThat(lookup(c, "k" + i, -1)).isEqualTo(-1);
    }
    for (int i = 0; i < 1_000; i++) {
      lookup(c, "k" + i, 2 * i);
    }
    assertThat(lookup(c, "k7", -1)).isEqualTo(14);
    assertThat(c.retainedBytes()).isEqualTo(retained);
  }
}
