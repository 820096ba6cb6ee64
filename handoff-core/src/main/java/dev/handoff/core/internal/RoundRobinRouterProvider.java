package dev.handoff.core.internal;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.api.spi.ShardRouterProvider;

/** Provides the {@code round-robin} router. */
public final class RoundRobinRouterProvider implements ShardRouterProvider {
  @Override
  public String name() {
    return "round-robin";
  }

  @Override
  public ShardRouter create() {
    return new RoundRobinRouter();
  }
}
