package dev.handoff.core;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.tck.ShardRouterContract;
import java.util.List;

/**
 * The TCK's ShardRouterContract for {@link Routers#keyHash()}. The pinned routes were computed
 * once from the router's mix and multiply-shift; a change that moves any of them moves keys to
 * other shards across a restart.
 */
final class KeyHashRouterContractTest extends ShardRouterContract {

  @Override
  protected ShardRouter newRouter() {
    return Routers.keyHash();
  }

  @Override
  protected List<PinnedRoute> pinnedRoutes() {
    return List.of(
        new PinnedRoute(0L, 0L, 8, 0),
        new PinnedRoute(1L, 0L, 2, 1),
        new PinnedRoute(1L, 0L, 8, 5),
        new PinnedRoute(1L, 1_700_000_000_000L, 1000, 704), // the event time plays no part
        new PinnedRoute(-1L, 0L, 10, 3),
        new PinnedRoute(42L, 0L, 1, 0),
        new PinnedRoute(42L, 0L, 31, 15),
        new PinnedRoute(Long.MIN_VALUE, 0L, 1000, 560),
        new PinnedRoute(0x0123_4567_89AB_CDEFL, -1L, 10, 5));
  }
}
