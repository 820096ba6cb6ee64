package dev.handoff.core;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.core.internal.KeyHashRouter;
import dev.handoff.core.internal.RoundRobinRouter;
import dev.handoff.core.internal.SingleShardRouter;

/** The built-in routers, also available by name through {@link Providers#router(String)}. */
public final class Routers {
  private Routers() {}

  /**
   * Returns the {@code key-hash} router: equal routing keys go to the same shard in every run and
   * JVM. Stateless and shareable.
   */
  public static ShardRouter keyHash() {
    return KeyHashRouter.INSTANCE;
  }

  /** Returns a new {@code round-robin} router, which spreads records evenly in turn. */
  public static ShardRouter roundRobin() {
    return new RoundRobinRouter();
  }

  /** Returns a router that sends every record to {@code shard}. */
  public static ShardRouter singleShard(int shard) {
    return new SingleShardRouter(shard);
  }
}
