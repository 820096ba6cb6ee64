package dev.handoff.core.internal;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.api.spi.ShardRouterProvider;

/** Provides the {@code single-shard} router (every record to shard 0). */
public final class SingleShardRouterProvider implements ShardRouterProvider {
  @Override
  public String name() {
    return "single-shard";
  }

  @Override
  public ShardRouter create() {
    return new SingleShardRouter(0);
  }
}
