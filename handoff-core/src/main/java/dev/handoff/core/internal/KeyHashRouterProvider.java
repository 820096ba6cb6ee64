package dev.handoff.core.internal;

import dev.handoff.api.spi.ShardRouter;
import dev.handoff.api.spi.ShardRouterProvider;

/** Provides the {@code key-hash} router. */
public final class KeyHashRouterProvider implements ShardRouterProvider {
  @Override
  public String name() {
    return "key-hash";
  }

  @Override
  public ShardRouter create() {
    return KeyHashRouter.INSTANCE;
  }
}
