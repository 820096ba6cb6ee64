package dev.handoff.core;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.tck.ShardRouterContract;
import java.util.List;

/**
 * The TCK's ShardRouterContract for {@code Routers.singleShard(0)}, valid for every shard count.
 * It does not claim to spread keys, so the spread check is skipped.
 */
final class SingleShardRouterContractTest extends ShardRouterContract {

  @Override
  protected ShardRouter newRouter() {
    return Routers.singleShard(0);
  }

  @Override
  protected List<PinnedRoute> pinnedRoutes() {
    return List.of(new PinnedRoute(1L, 0L, 1, 0), new PinnedRoute(-1L, 0L, 1000, 0));
  }

  @Override
  protected boolean spreads() {
    return false;
  }
}
