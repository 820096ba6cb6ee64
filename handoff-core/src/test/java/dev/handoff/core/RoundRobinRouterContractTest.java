package dev.handoff.core;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.tck.ShardRouterContract;
import java.util.List;

/**
 * The TCK's ShardRouterContract for {@link Routers#roundRobin()}: stateful, so its pinned routes
 * are the turns of a fresh router, whatever the keys.
 */
final class RoundRobinRouterContractTest extends ShardRouterContract {

  @Override
  protected ShardRouter newRouter() {
    return Routers.roundRobin();
  }

  @Override
  protected List<PinnedRoute> pinnedRoutes() {
    return List.of(
        new PinnedRoute(42L, 0L, 3, 0),
        new PinnedRoute(42L, 0L, 3, 1),
        new PinnedRoute(-7L, 5L, 3, 2),
        new PinnedRoute(0L, 0L, 3, 0),
        new PinnedRoute(0L, 0L, 3, 1));
  }
}
