package dev.handoff.api.spi;

/**
 * Creates {@link ShardRouter}s. Found with {@link java.util.ServiceLoader} like {@link
 * RowEncoderProvider}. Thread-safe.
 */
public interface ShardRouterProvider {

  /** Returns the router name users select it by, for example {@code key-hash}. Unique. */
  String name();

  /** Returns a new router. */
  ShardRouter create();
}
