package dev.handoff.core.internal;

import dev.handoff.api.spi.ShardRouter;

/**
 * Routes by the record's routing key: equal keys always go to the same shard, in every run and
 * every JVM (the mapping depends only on the key and the shard count).
 */
public enum KeyHashRouter implements ShardRouter {
  /** The only instance; the router is stateless. */
  INSTANCE;

  @Override
  public int route(long routingKey, long eventTimeMs, int numShards) {
    return shardOf(routingKey, numShards);
  }

  /**
   * Maps a key to a shard: mixes the key so that every bit matters, then scales the high 32 bits
   * into {@code [0, numShards)} with a multiply-shift (no division, no modulo bias worth noting).
   */
  public static int shardOf(long key, int numShards) {
    long z = key;
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    z ^= z >>> 33;
    return (int) (((z >>> 32) * numShards) >>> 32);
  }
}
