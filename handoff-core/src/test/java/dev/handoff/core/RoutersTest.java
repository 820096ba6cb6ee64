package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.RecordMeta;
import dev.handoff.api.RoutingKeys;
import dev.handoff.api.spi.ShardRouter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class RoutersTest {

  private static int keyHash(long key, int numShards) {
    return Routers.keyHash().route(key, 0L, numShards);
  }

  /*
   * Pinned values: key-hash must map a key to the same shard in every run and JVM, because data
   * already written per shard depends on it. If this test fails, the algorithm changed; that is a
   * breaking change for anyone who partitions by shard, not a test to update casually.
   */
  @Test
  void keyHash_mapsKnownKeysToPinnedShards() {
    assertThat(keyHash(0L, 8)).isEqualTo(0);
    assertThat(keyHash(1L, 2)).isEqualTo(1);
    assertThat(keyHash(1L, 8)).isEqualTo(5);
    assertThat(keyHash(1L, 16)).isEqualTo(11);
    assertThat(keyHash(1L, 64)).isEqualTo(45);
    assertThat(keyHash(42L, 8)).isEqualTo(4);
    assertThat(keyHash(42L, 64)).isEqualTo(32);
    assertThat(keyHash(-1L, 8)).isEqualTo(3);
    assertThat(keyHash(-1L, 64)).isEqualTo(25);
    assertThat(keyHash(Long.MIN_VALUE, 64)).isEqualTo(35);
    assertThat(keyHash(Long.MAX_VALUE, 64)).isEqualTo(42);
    assertThat(keyHash(123_456_789L, 16)).isEqualTo(8);
    // Text keys through RoutingKeys, as a source would route by a tenant or user id.
    assertThat(keyHash(RoutingKeys.of("tenant-a"), 8)).isEqualTo(5);
    assertThat(keyHash(RoutingKeys.of("user-42"), 5)).isEqualTo(2);
    assertThat(keyHash(RoutingKeys.of("ключ"), 5)).isEqualTo(3);
  }

  @Test
  void keyHash_ignoresEventTimeAndIsRepeatable() {
    ShardRouter router = Routers.keyHash();
    for (long key = -500; key < 500; key++) {
      int first = router.route(key, 1L, 7);
      assertThat(router.route(key, 999_999L, 7)).isEqualTo(first);
    }
  }

  @Test
  void keyHash_spreadsSequentialKeysEvenlyOverEightShards() {
    int shards = 8;
    int keys = 100_000;
    int[] counts = new int[shards];
    for (long key = 0; key < keys; key++) {
      counts[keyHash(key, shards)]++;
    }
    double mean = (double) keys / shards;
    for (int s = 0; s < shards; s++) {
      assertThat((double) counts[s]).as("shard %s of %s", s, Arrays.toString(counts))
          .isBetween(mean * 0.9, mean * 1.1);
    }
  }

  @Test
  void keyHash_spreadsRandomKeysEvenlyOverEightShards() {
    int shards = 8;
    int[] counts = new int[shards];
    SplittableRandom random = new SplittableRandom(2026);
    for (int i = 0; i < 100_000; i++) {
      counts[keyHash(random.nextLong(), shards)]++;
    }
    for (int s = 0; s < shards; s++) {
      assertThat(counts[s]).as("shard %s", s).isBetween(11_250, 13_750);
    }
  }

  @Test
  void keyHash_staysInRangeForEveryShardCountAndExtremeKeys() {
    List<Long> keys = new ArrayList<>(List.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE,
        Long.MIN_VALUE + 1, Integer.MIN_VALUE * 1L, 0x8000_0000L, 0xFFFF_FFFFL));
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 2_000; i++) {
      keys.add(random.nextLong());
      keys.add(-random.nextLong(1, Long.MAX_VALUE));
    }
    for (int n = 1; n <= 64; n++) {
      for (long key : keys) {
        int shard = keyHash(key, n);
        if (shard < 0 || shard >= n) {
          throw new AssertionError("key " + key + " -> shard " + shard + " of " + n);
        }
      }
    }
    assertThat(keyHash(Long.MIN_VALUE, 1)).isZero();
  }

  @Test
  void keyHash_usesEveryShardForEachShardCount() {
    for (int n = 1; n <= 64; n++) {
      boolean[] hit = new boolean[n];
      for (long key = 0; key < 50 * n; key++) {
        hit[keyHash(key, n)] = true;
      }
      for (int s = 0; s < n; s++) {
        assertThat(hit[s]).as("shard %s of %s never hit", s, n).isTrue();
      }
    }
  }

  @Test
  void roundRobin_cyclesThroughTheShardsInTurn() {
    ShardRouter router = Routers.roundRobin();
    RecordMeta meta = new RecordMeta(0L, 77L);
    List<Integer> shards = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      shards.add(router.route(meta.routingKey(), meta.eventTimeMs(), 3));
    }
    assertThat(shards).containsExactly(0, 1, 2, 0, 1, 2, 0);
  }

  @Test
  void roundRobin_staysInRangeWhenTheShardCountShrinks() {
    ShardRouter router = Routers.roundRobin();
    RecordMeta meta = new RecordMeta(0L, 0L);
    for (int i = 0; i < 6; i++) {
      router.route(meta.routingKey(), meta.eventTimeMs(), 8);
    }
    for (int i = 0; i < 10; i++) {
      assertThat(router.route(meta.routingKey(), meta.eventTimeMs(), 2)).isBetween(0, 1);
    }
    assertThat(router.route(meta.routingKey(), meta.eventTimeMs(), 1)).isZero();
  }

  @Test
  void roundRobin_instancesAreIndependent() {
    ShardRouter a = Routers.roundRobin();
    ShardRouter b = Routers.roundRobin();
    RecordMeta meta = new RecordMeta(0L, 0L);
    a.route(meta.routingKey(), meta.eventTimeMs(), 4);
    a.route(meta.routingKey(), meta.eventTimeMs(), 4);
    assertThat(b.route(meta.routingKey(), meta.eventTimeMs(), 4)).isZero();
    assertThat(a.route(meta.routingKey(), meta.eventTimeMs(), 4)).isEqualTo(2);
  }

  @Test
  void singleShard_sendsEverythingToItsShard() {
    ShardRouter router = Routers.singleShard(2);
    for (long key = -10; key < 10; key++) {
      assertThat(router.route(key, 0L, 3)).isEqualTo(2);
    }
  }

  @Test
  void singleShard_throwsWhenTheStageHasTooFewShards() {
    ShardRouter router = Routers.singleShard(3);
    assertThatThrownBy(() -> router.route(0L, 0L, 3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("shard 3")
        .hasMessageContaining("has 3");
    assertThatThrownBy(() -> Routers.singleShard(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }
}
