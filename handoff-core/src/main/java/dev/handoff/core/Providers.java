package dev.handoff.core;

import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.api.spi.ShardRouterProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds encoder and router providers with {@link ServiceLoader}, by name.
 *
 * <p>Every provider that fails to load is reported: logged as a warning when the lookup still
 * succeeds, and listed in the exception when it does not. Two providers with the same name are
 * an error naming both classes. A lookup never returns {@code null}.
 */
public final class Providers {
  private static final Logger LOG = LoggerFactory.getLogger(Providers.class);

  private Providers() {}

  /**
   * Returns the encoder provider called {@code name} (for example {@code rowbinary}).
   *
   * @throws IllegalArgumentException if none is called so; the message lists the names found and
   *     the providers that failed to load
   */
  public static RowEncoderProvider encoder(String name) {
    return find(ServiceLoader.load(RowEncoderProvider.class), RowEncoderProvider::name,
        "row encoder", name);
  }

  /** Returns the names of every encoder provider found, sorted. */
  public static List<String> encoderNames() {
    return List.copyOf(scan(ServiceLoader.load(RowEncoderProvider.class),
        RowEncoderProvider::name, "row encoder").found.keySet());
  }

  /**
   * Returns a new router from the provider called {@code name} ({@code key-hash}, {@code
   * round-robin}, {@code single-shard}, or a vendor's).
   *
   * @throws IllegalArgumentException if none is called so; the message lists the names found
   */
  public static ShardRouter router(String name) {
    return find(ServiceLoader.load(ShardRouterProvider.class), ShardRouterProvider::name,
        "shard router", name).create();
  }

  /** Returns the names of every router provider found, sorted. */
  public static List<String> routerNames() {
    return List.copyOf(scan(ServiceLoader.load(ShardRouterProvider.class),
        ShardRouterProvider::name, "shard router").found.keySet());
  }

  static <P> P find(Iterable<P> loader, Function<P, String> nameOf, String kind, String name) {
    Scan<P> scan = scan(loader, nameOf, kind);
    P p = scan.found.get(name);
    if (p != null) {
      for (String failure : scan.failures) {
        LOG.warn("a {} provider failed to load (found '{}' anyway): {}", kind, name, failure);
      }
      return p;
    }
    throw new IllegalArgumentException("no " + kind + " provider named '" + name + "'; found "
        + scan.found.keySet()
        + (scan.failures.isEmpty() ? "" : "; failed to load: " + scan.failures));
  }

  static <P> Scan<P> scan(Iterable<P> loader, Function<P, String> nameOf, String kind) {
    Map<String, P> found = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    Iterator<P> it = loader.iterator();
    while (true) {
      P p;
      try {
        if (!it.hasNext()) {
          break;
        }
        p = it.next();
      } catch (ServiceConfigurationError e) {
        // One broken provider must not hide the others; report it and keep going.
        failures.add(e.getMessage()
            + (e.getCause() != null ? " (cause: " + e.getCause() + ")" : ""));
        continue;
      }
      String n;
      try {
        n = nameOf.apply(p);
      } catch (RuntimeException e) {
        failures.add(p.getClass().getName() + ".name() threw " + e);
        continue;
      }
      P previous = found.putIfAbsent(n, p);
      if (previous != null) {
        throw new IllegalStateException("two " + kind + " providers are named '" + n + "': "
            + previous.getClass().getName() + " and " + p.getClass().getName());
      }
    }
    Map<String, P> sorted = new java.util.TreeMap<>(found);
    return new Scan<>(sorted, failures);
  }

  record Scan<P>(Map<String, P> found, List<String> failures) {}
}
