package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.spi.ShardRouter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@link ShardRouter} contract: every route is a shard in range, a router routes the same way
 * in every JVM and in every instance, and a router that claims to spread records does.
 *
 * <p>A test class extends it once per router and supplies a fresh router and a few routes pinned
 * once, when the router was written (run the router, copy its answers into {@link
 * #pinnedRoutes()}): they fail the build when a change moves keys to other shards, which would
 * send a key's records to two shards across a restart.
 *
 * <pre>{@code
 * final class MyRouterContractTest extends ShardRouterContract {
 *   protected ShardRouter newRouter() { return new MyRouter(); }
 *   protected List<PinnedRoute> pinnedRoutes() {
 *     return List.of(new PinnedRoute(42L, 0L, 8, 5), new PinnedRoute(-1L, 0L, 3, 0));
 *   }
 * }
 * }</pre>
 *
 * <p>Routes are made in order on one fresh router per check, as a stage does on its pipeline
 * thread, so a stateful router (round-robin) is checked as it is used. Every check is seeded: a
 * failure repeats exactly.
 */
public abstract class ShardRouterContract {
  /** How many keys the range and determinism checks route per shard count. */
  private static final int KEYS = 10_000;

  /** How many keys the spread check routes per shard count. */
  private static final int SPREAD_KEYS = 100_000;

  /**
   * The standard normal quantile for a one-sided p of 1e-6: the chi-square bound below is crossed
   * by chance once in a million runs of a uniform router (the keys are seeded, so a run that passes
   * passes every time).
   */
  private static final double Z = 4.753;

  private static final long SEED = 0x5EED_7C4BL;

  /** Creates the suite; subclasses supply the router and the pinned routes. */
  protected ShardRouterContract() {}

  /**
   * One route pinned when the router was written: a fresh router, given the routes of {@link
   * #pinnedRoutes()} in order, routes this key to this shard.
   *
   * @param routingKey the record's routing key
   * @param eventTimeMs the record's event time
   * @param numShards the number of shards, {@code >= 1}
   * @param shard the shard the router chose, in {@code [0, numShards)}
   */
  public record PinnedRoute(long routingKey, long eventTimeMs, int numShards, int shard) {

    /** Checks that the shard is in range. */
    public PinnedRoute {
      if (numShards < 1 || shard < 0 || shard >= numShards) {
        throw new IllegalArgumentException(
            "shard " + shard + " of " + numShards + " (expected: 0 <= shard < numShards)");
      }
    }
  }

  /** Returns a new router, as its provider's {@code create} returns it. */
  protected abstract ShardRouter newRouter();

  /**
   * Returns routes pinned once (computed with the router and copied here): a fresh router routes
   * them, in this order, to exactly these shards in every JVM and every run. At least one; a few
   * keys over a few shard counts (1, a power of two, another number) are enough.
   */
  protected abstract List<PinnedRoute> pinnedRoutes();

  /**
   * Returns whether the router claims to spread random keys evenly over the shards. {@code true}
   * by default; a router that sends every record to one shard returns {@code false}, and the
   * spread check is then skipped.
   */
  protected boolean spreads() {
    return true;
  }

  /**
   * Returns the shard counts the checks use. By default 1 to 8, 10, 16, 31, 64, 100 and 1000: one
   * shard, powers of two and other numbers. A router that needs more shards than some of these (one
   * fixed to shard 3, say) returns the counts it accepts.
   */
  protected int[] shardCounts() {
    return new int[] {1, 2, 3, 4, 5, 6, 7, 8, 10, 16, 31, 64, 100, 1000};
  }

  /** Routes one record; the one place the suite calls the router. */
  private static int route(ShardRouter router, long routingKey, long eventTimeMs, int numShards) {
    return router.route(routingKey, eventTimeMs, numShards);
  }

  /** Checks that there is a pinned route and shard counts to check. */
  @Test
  public void samplesAreUsable() {
    assertThat(pinnedRoutes()).as("pinnedRoutes() must give at least one route").isNotEmpty();
    assertThat(shardCounts()).as("shardCounts() must give at least one count").isNotEmpty();
    assertThat(Arrays.stream(shardCounts()).min().orElse(1)).as("the smallest shard count")
        .isPositive();
  }

  /**
   * Checks that every route is in {@code [0, numShards)}, for random and edge keys and event times
   * and every count of {@link #shardCounts()}, and that routing does not throw.
   */
  @Test
  public void everyRouteIsAShardInRange() {
    for (int numShards : shardCounts()) {
      ShardRouter router = newRouter();
      long[][] keys = keys(SEED + numShards, KEYS);
      for (long[] k : keys) {
        routeChecked(router, k[0], k[1], numShards);
      }
    }
  }

  /**
   * Checks that a fresh router routes the pinned routes, in order, to the pinned shards: the
   * mapping is the same in every JVM and run.
   */
  @Test
  public void pinnedRoutesAreStable() {
    ShardRouter router = newRouter();
    List<PinnedRoute> pinned = pinnedRoutes();
    for (int i = 0; i < pinned.size(); i++) {
      PinnedRoute p = pinned.get(i);
      assertThat(routeChecked(router, p.routingKey(), p.eventTimeMs(), p.numShards()))
          .as("pinned route %d, key %d (event time %d) over %d shards: a router must route a key"
              + " to the same shard in every JVM and every run", i, p.routingKey(),
              p.eventTimeMs(), p.numShards())
          .isEqualTo(p.shard());
    }
  }

  /** Checks that two fresh routers, given the same records in the same order, agree on each. */
  @Test
  public void twoInstancesRouteAlike() {
    for (int numShards : shardCounts()) {
      ShardRouter a = newRouter();
      ShardRouter b = newRouter();
      for (long[] k : keys(SEED ^ numShards, KEYS)) {
        int shardA = routeChecked(a, k[0], k[1], numShards);
        int shardB = routeChecked(b, k[0], k[1], numShards);
        if (shardA != shardB) {
          throw new AssertionError("two instances routed key " + k[0] + " (event time " + k[1]
              + ", " + numShards + " shards) to " + shardA + " and " + shardB
              + ": routing must be deterministic");
        }
      }
    }
  }

  /**
   * Checks that a router that claims to spread keys does: over 100,000 random keys, and over
   * 100,000 consecutive ones, the shards' counts pass a chi-square test at p = 1e-6 for every
   * count of {@link #shardCounts()} above 1. Skipped when {@link #spreads()} is false.
   */
  @Test
  public void spreadsKeysEvenly() {
    Assumptions.assumeTrue(spreads(), "the router does not claim to spread keys");
    for (int numShards : shardCounts()) {
      if (numShards < 2) {
        continue;
      }
      SplittableRandom random = new SplittableRandom(SEED * 31 + numShards);
      long[] randomCounts = new long[numShards];
      long[] sequentialCounts = new long[numShards];
      ShardRouter forRandom = newRouter();
      ShardRouter forSequential = newRouter();
      for (int i = 0; i < SPREAD_KEYS; i++) {
        randomCounts[routeChecked(forRandom, random.nextLong(), i, numShards)]++;
        sequentialCounts[routeChecked(forSequential, i, i, numShards)]++;
      }
      assertSpread(randomCounts, "random keys");
      assertSpread(sequentialCounts, "the consecutive keys 0..99999");
    }
  }

  private static void assertSpread(long[] counts, String keys) {
    int n = counts.length;
    double expected = (double) SPREAD_KEYS / n;
    double chi2 = 0;
    for (long c : counts) {
      chi2 += (c - expected) * (c - expected) / expected;
    }
    // Wilson-Hilferty: the chi-square quantile with n - 1 degrees of freedom.
    double df = n - 1;
    double bound = df * Math.pow(1 - 2 / (9 * df) + Z * Math.sqrt(2 / (9 * df)), 3);
    long min = Arrays.stream(counts).min().orElse(0);
    long max = Arrays.stream(counts).max().orElse(0);
    assertThat(chi2)
        .as("%s over %d shards: chi-square %.1f exceeds %.1f (p = 1e-6); counts from %d to %d"
            + " around %.0f: a router that claims to spread keys must (or override spreads())",
            keys, n, chi2, bound, min, max, expected)
        .isLessThanOrEqualTo(bound);
  }

  /**
   * Routes, turning an exception or a shard out of range into a failure that names the route
   * (plain code rather than an assertion per call: the spread check routes 200,000 keys per count).
   */
  private static int routeChecked(ShardRouter router, long key, long eventTimeMs, int numShards) {
    int shard;
    try {
      shard = route(router, key, eventTimeMs, numShards);
    } catch (RuntimeException e) {
      throw new AssertionError("route(key " + key + ", event time " + eventTimeMs + ", "
          + numShards + " shards) threw " + e + "; a router must not throw for a valid shard"
          + " count", e);
    }
    if (shard < 0 || shard >= numShards) {
      throw new AssertionError("route(key " + key + ", event time " + eventTimeMs + ", "
          + numShards + " shards) returned " + shard + "; a route must be a shard in [0, "
          + numShards + ")");
    }
    return shard;
  }

  /**
   * Returns {@code count} pairs {key, event time}: edge values first (0, -1, 1, the extremes of
   * long and int), then seeded random ones.
   */
  private static long[][] keys(long seed, int count) {
    long[] edges = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE,
        Integer.MAX_VALUE, 1L << 32, 0xFFFF_FFFFL};
    List<long[]> out = new ArrayList<>(count);
    for (long e : edges) {
      out.add(new long[] {e, 0});
      out.add(new long[] {0, e});
    }
    SplittableRandom random = new SplittableRandom(seed);
    while (out.size() < count) {
      out.add(new long[] {random.nextLong(), random.nextLong()});
    }
    return out.toArray(new long[0][]);
  }
}
