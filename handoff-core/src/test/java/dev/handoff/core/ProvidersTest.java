package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.api.spi.ShardRouterProvider;
import dev.handoff.core.internal.KeyHashRouter;
import dev.handoff.core.internal.RoundRobinRouter;
import dev.handoff.core.internal.SingleShardRouter;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;

/*
 * The public lookups go through the real ServiceLoader on the module path (core's module-info
 * declares the uses and provides clauses). The package-private scan is fed hand-made iterables so
 * that failing providers can be staged without broken jars.
 */
final class ProvidersTest {

  private static final RecordMeta META = new RecordMeta(0L, 42L);

  @Test
  void router_findsTheThreeBuiltInRoutersByName() {
    ShardRouter keyHash = Providers.router("key-hash");
    ShardRouter roundRobin = Providers.router("round-robin");
    ShardRouter single = Providers.router("single-shard");

    assertThat(keyHash).isSameAs(KeyHashRouter.INSTANCE);
    assertThat(roundRobin).isInstanceOf(RoundRobinRouter.class);
    assertThat(single).isEqualTo(new SingleShardRouter(0));

    assertThat(keyHash.route(META.routingKey(), META.eventTimeMs(), 8)).isEqualTo(KeyHashRouter.shardOf(42L, 8));
    assertThat(roundRobin.route(META.routingKey(), META.eventTimeMs(), 3)).isZero();
    assertThat(roundRobin.route(META.routingKey(), META.eventTimeMs(), 3)).isEqualTo(1);
    assertThat(single.route(META.routingKey(), META.eventTimeMs(), 5)).isZero();
  }

  @Test
  void router_returnsAFreshRoundRobinPerLookup() {
    ShardRouter a = Providers.router("round-robin");
    ShardRouter b = Providers.router("round-robin");
    assertThat(a).isNotSameAs(b);
    a.route(META.routingKey(), META.eventTimeMs(), 4);
    assertThat(b.route(META.routingKey(), META.eventTimeMs(), 4)).as("b's turn is its own").isZero();
  }

  @Test
  void routerNames_listsTheBuiltInsSorted() {
    assertThat(Providers.routerNames()).containsExactly("key-hash", "round-robin", "single-shard");
  }

  @Test
  void unknownRouter_failsListingTheNamesFound() {
    assertThatThrownBy(() -> Providers.router("consistent-hash"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'consistent-hash'")
        .hasMessageContaining("[key-hash, round-robin, single-shard]")
        .hasMessageNotContaining("failed to load");
  }

  @Test
  void unknownEncoder_failsListingTheNamesFoundEvenWhenThereAreNone() {
    // No encoder module is on core's test module path yet; the message must still say what
    // was found (nothing) rather than fail some other way.
    assertThatThrownBy(() -> Providers.encoder("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row encoder")
        .hasMessageContaining("'nope'")
        .hasMessageContaining("found " + Providers.encoderNames());
  }

  @Test
  void scan_reportsAProviderThatFailsToLoadAndKeepsScanning() {
    Iterable<ShardRouterProvider> loader = () -> new Staged(
        new Named("alpha"),
        new ServiceConfigurationError("Provider com.acme.BrokenRouterProvider could not be"
            + " instantiated", new ExceptionInInitializerError("boom in static init")),
        new Named("beta"));

    Providers.Scan<ShardRouterProvider> scan =
        Providers.scan(loader, ShardRouterProvider::name, "shard router");

    assertThat(scan.found()).containsOnlyKeys("alpha", "beta");
    assertThat(scan.failures()).singleElement().asString()
        .contains("com.acme.BrokenRouterProvider")
        .contains("boom in static init");
  }

  @Test
  void find_ofAnUnknownName_listsBothTheFoundNamesAndTheLoadFailures() {
    Iterable<ShardRouterProvider> loader = () -> new Staged(
        new Named("beta"),
        new ServiceConfigurationError("Provider com.acme.BrokenRouterProvider not found"),
        new Named("alpha"));

    assertThatThrownBy(() -> Providers.find(loader, ShardRouterProvider::name, "shard router",
        "gamma"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no shard router provider named 'gamma'")
        .hasMessageContaining("found [alpha, beta]")
        .hasMessageContaining("failed to load")
        .hasMessageContaining("com.acme.BrokenRouterProvider not found");
  }

  @Test
  void find_ofAnotherName_stillSucceedsWhenOneProviderFailsToLoad() {
    Named beta = new Named("beta");
    Iterable<ShardRouterProvider> loader = () -> new Staged(
        new ServiceConfigurationError("Provider com.acme.BrokenRouterProvider not found"),
        beta);

    assertThat(Providers.find(loader, ShardRouterProvider::name, "shard router", "beta"))
        .isSameAs(beta);
  }

  @Test
  void scan_reportsAFailureFromHasNextToo() {
    Iterable<ShardRouterProvider> loader = () -> new Iterator<>() {
      int step;

      @Override
      public boolean hasNext() {
        if (step == 0) {
          step = 1;
          throw new ServiceConfigurationError("bad META-INF/services file: line 3");
        }
        return step == 1;
      }

      @Override
      public ShardRouterProvider next() {
        if (step != 1) {
          throw new NoSuchElementException();
        }
        step = 2;
        return new Named("alpha");
      }
    };

    Providers.Scan<ShardRouterProvider> scan =
        Providers.scan(loader, ShardRouterProvider::name, "shard router");

    assertThat(scan.found()).containsOnlyKeys("alpha");
    assertThat(scan.failures()).singleElement().asString().contains("line 3");
  }

  @Test
  void scan_reportsAProviderWhoseNameThrows() {
    ShardRouterProvider broken = new Named("ignored") {
      @Override
      public String name() {
        throw new IllegalStateException("no name today");
      }
    };
    Iterable<ShardRouterProvider> loader = () -> new Staged(broken, new Named("alpha"));

    Providers.Scan<ShardRouterProvider> scan =
        Providers.scan(loader, ShardRouterProvider::name, "shard router");

    assertThat(scan.found()).containsOnlyKeys("alpha");
    assertThat(scan.failures()).singleElement().asString()
        .contains(broken.getClass().getName())
        .contains("no name today");
  }

  @Test
  void duplicateNames_failNamingBothClasses() {
    Iterable<ShardRouterProvider> loader =
        () -> new Staged(new Named("dup"), new OtherNamed("dup"));

    assertThatThrownBy(() -> Providers.scan(loader, ShardRouterProvider::name, "shard router"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'dup'")
        .hasMessageContaining(Named.class.getName())
        .hasMessageContaining(OtherNamed.class.getName());
  }

  @Test
  void scan_sortsTheNamesFound() {
    Iterable<ShardRouterProvider> loader =
        () -> new Staged(new Named("zeta"), new Named("alpha"), new Named("mu"));
    assertThat(Providers.scan(loader, ShardRouterProvider::name, "shard router").found().keySet())
        .containsExactly("alpha", "mu", "zeta");
  }

  /** Yields providers in order, throwing each {@link ServiceConfigurationError} from next(). */
  private static final class Staged implements Iterator<ShardRouterProvider> {
    private final List<Object> items;
    private int index;

    Staged(Object... items) {
      this.items = List.of(items);
    }

    @Override
    public boolean hasNext() {
      return index < items.size();
    }

    @Override
    public ShardRouterProvider next() {
      if (index >= items.size()) {
        throw new NoSuchElementException();
      }
      Object item = items.get(index++);
      if (item instanceof ServiceConfigurationError e) {
        throw e;
      }
      return (ShardRouterProvider) item;
    }
  }

  private static class Named implements ShardRouterProvider {
    private final String name;

    Named(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public ShardRouter create() {
      return KeyHashRouter.INSTANCE;
    }
  }

  private static final class OtherNamed extends Named {
    OtherNamed(String name) {
      super(name);
    }
  }
}
