package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class RoutingKeysTest {

  /*
   * Keys decide shards, so they must never change between releases: these literals were
   * computed once (and cross-checked against an independent FNV-1a + MurmurHash3 fmix64) and
   * pinned. If one of these fails, the algorithm changed and data would move between shards.
   */

  @Test
  void ofText_returnsPinnedValues() {
    assertThat(RoutingKeys.of("")).isEqualTo(0xefd01f60ba992926L);
    assertThat(RoutingKeys.of("a")).isEqualTo(0x82a2a958a9bece5bL);
    assertThat(RoutingKeys.of("hello")).isEqualTo(0xe9c562c0fdb23244L);
    assertThat(RoutingKeys.of("caf\u00E9")).isEqualTo(0xf50b1f8e2c0682e6L);
    assertThat(RoutingKeys.of("\u20AC")).isEqualTo(0x970485f2258ff304L);
    assertThat(RoutingKeys.of("\uD83D\uDE00")).isEqualTo(0xda89b0991f06f386L);
  }

  @Test
  void ofBytes_returnsPinnedValues() {
    assertThat(RoutingKeys.of(new byte[0])).isEqualTo(0xefd01f60ba992926L);
    assertThat(RoutingKeys.of(new byte[] {0, 1, 2, (byte) 0xFF})).isEqualTo(0xb636ac73d8989741L);
  }

  @Test
  void ofLong_returnsPinnedValues() {
    assertThat(RoutingKeys.of(0L)).isEqualTo(0L);
    assertThat(RoutingKeys.of(1L)).isEqualTo(0xb456bcfc34c2cb2cL);
    assertThat(RoutingKeys.of(42L)).isEqualTo(0x810879608e4259ccL);
    assertThat(RoutingKeys.of(-1L)).isEqualTo(0x64b5720b4b825f21L);
    assertThat(RoutingKeys.of(Long.MIN_VALUE)).isEqualTo(0x8f780810af31a493L);
  }

  @Test
  void ofText_hashesAnUnpairedSurrogateLikeItsUtf8ReplacementQuestionMark() {
    assertThat(RoutingKeys.of("\uD800")).isEqualTo(RoutingKeys.of("?"));
    assertThat(RoutingKeys.of("x\uDC00y")).isEqualTo(RoutingKeys.of("x?y"));
  }

  @Test
  void ofText_equalsOfItsUtf8BytesForRandomStringsIncludingSurrogates() {
    SplittableRandom random = new SplittableRandom(7L);
    for (int i = 0; i < 5_000; i++) {
      String text = ChunkBufferTest.randomText(random, random.nextInt(32));
      long fromBytes = RoutingKeys.of(text.getBytes(StandardCharsets.UTF_8));
      assertThat(RoutingKeys.of(text)).as("string #%d", i).isEqualTo(fromBytes);
      assertThat(RoutingKeys.of(new StringBuilder(text))).as("builder #%d", i)
          .isEqualTo(fromBytes);
    }
  }

  @Test
  void ofLong_spreadsNeighbouringIds() {
    // Consecutive ids must not collide, and their low bits (shard choice) must vary.
    Set<Long> keys = new HashSet<>();
    Set<Long> lowBits = new HashSet<>();
    for (long id = 0; id < 1_000; id++) {
      long key = RoutingKeys.of(id);
      keys.add(key);
      lowBits.add(key & 7);
    }
    assertThat(keys).hasSize(1_000);
    assertThat(lowBits).hasSize(8);
  }
}
