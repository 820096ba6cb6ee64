package dev.handoff.core;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.tck.ShardRouterContract;
import java.util.List;

/**
 * The TCK's ShardRouterContract for {@code Routers.singleShard(3)}, checked with the shard counts
 * that have a shard 3 (with fewer, routing fails by design: RoutersTest checks that).
 */
final class SingleShardThreeRouterContractTest extends ShardRouterContract {

  @Override
  protected ShardRouter newRouter() {
    return Routers.singleShard(3);
  }

  @Override
  protected List<PinnedRoute> pinnedRoutes() {
    return List.of(new PinnedRoute(1L, 0L, 4, 3), new PinnedRoute(-1L, 0L, 1000, 3));
  }

  @Override
  protected boolean spreads() {
    return false;
  }

  @Override
  protected int[] shardCounts() {
    return new int[] {4, 5, 7, 8, 16, 100, 1000};
  }
}
