package dev.handoff.clickhouse.hash;

import dev.handoff.api.spi.ShardRouter;
import java.util.Arrays;

/**
 * A {@link ShardRouter} that places a routing key on the shard a ClickHouse {@code Distributed}
 * table would choose for the same sharding-key value.
 *
 * <p>The server gives shard {@code i} (in the cluster's order) {@code weight[i]} consecutive
 * slots and sends a row to the shard of slot {@code value % totalWeight}, the value read as an
 * unsigned number. Keys from a {@link ShardingKey} are already in that unsigned form (values of
 * types up to 32 bits widened to 32 bits as the server does), so this router takes the unsigned
 * remainder of the key. A shard of weight 0 gets no rows.
 *
 * <p>handoff shard {@code i} is ClickHouse shard {@code i}: the sink must have as many shards as
 * there are weights. Instances are immutable; {@link #route} allocates nothing.
 */
public final class WeightedShardRouter implements ShardRouter {
  private final int[] weights;
  private final int[] slots;

  private WeightedShardRouter(int[] weights) {
    this.weights = weights.clone();
    long total = 0;
    for (int i = 0; i < weights.length; i++) {
      if (weights[i] < 0) {
        throw new IllegalArgumentException(
            "shard " + i + " has weight " + weights[i] + ": weights must not be negative");
      }
      total += weights[i];
    }
    if (total == 0 || total > 1 << 20) {
      throw new IllegalArgumentException("the weights " + Arrays.toString(weights) + " add up to "
          + total + ": the total must be between 1 and 1048576");
    }
    this.slots = new int[(int) total];
    int slot = 0;
    for (int shard = 0; shard < weights.length; shard++) {
      for (int w = 0; w < weights[shard]; w++) {
        slots[slot++] = shard;
      }
    }
  }

  /**
   * Returns a router for shards of these weights, in the order the cluster lists its shards
   * ({@code system.clusters} by {@code shard_num}).
   *
   * @throws IllegalArgumentException if there are no weights, one is negative, or they add up to
   *     0 or more than 2^20
   */
  public static WeightedShardRouter of(int... weights) {
    if (weights.length == 0) {
      throw new IllegalArgumentException("a cluster has at least one shard; no weights given");
    }
    return new WeightedShardRouter(weights);
  }

  /** Returns a router for {@code shards} shards of weight 1 each. */
  public static WeightedShardRouter uniform(int shards) {
    int[] weights = new int[shards];
    Arrays.fill(weights, 1);
    return of(weights);
  }

  /** Returns the number of shards. */
  public int shards() {
    return weights.length;
  }

  /** Returns the sum of the weights, the divisor of the sharding-key value. */
  public int totalWeight() {
    return slots.length;
  }

  /** Returns a copy of the weights, one per shard. */
  public int[] weights() {
    return weights.clone();
  }

  /** Returns the shard of a sharding-key value: the owner of slot {@code key % totalWeight}. */
  public int shardOf(long key) {
    return slots[(int) Long.remainderUnsigned(key, slots.length)];
  }

  /**
   * Returns {@link #shardOf shardOf(routingKey)}; the event time plays no part.
   *
   * @throws IllegalArgumentException if {@code numShards} is not the number of weights
   */
  @Override
  public int route(long routingKey, long eventTimeMs, int numShards) {
    if (numShards != weights.length) {
      throw new IllegalArgumentException("the sink has " + numShards + " shards but the router "
          + weights.length + " weights " + Arrays.toString(weights)
          + "; give the sink one shard per ClickHouse shard");
    }
    return shardOf(routingKey);
  }

  /** Returns the weights, as in {@code WeightedShardRouter[1, 2, 3]}. */
  @Override
  public String toString() {
    return "WeightedShardRouter" + Arrays.toString(weights);
  }
}
