package dev.handoff.core.internal;

import dev.handoff.api.spi.ShardRouter;

/** Routes records to shards in turn. Used by one pipeline thread, like every router. */
public final class RoundRobinRouter implements ShardRouter {
  private int next;

  @Override
  public int route(long routingKey, long eventTimeMs, int numShards) {
    int shard = next;
    next = shard + 1 >= numShards ? 0 : shard + 1;
    return shard < numShards ? shard : 0;
  }
}
