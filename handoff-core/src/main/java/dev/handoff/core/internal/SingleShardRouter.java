package dev.handoff.core.internal;

import dev.handoff.api.spi.ShardRouter;

/** Routes every record to one shard. */
public record SingleShardRouter(int shard) implements ShardRouter {

  /** Validates the shard. */
  public SingleShardRouter {
    if (shard < 0) {
      throw new IllegalArgumentException("shard : " + shard + " (expected: >= 0)");
    }
  }

  @Override
  public int route(long routingKey, long eventTimeMs, int numShards) {
    if (shard >= numShards) {
      throw new IllegalStateException(
          "single-shard router fixed to shard " + shard + " but the stage has " + numShards);
    }
    return shard;
  }
}
