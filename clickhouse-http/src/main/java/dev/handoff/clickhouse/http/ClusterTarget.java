package dev.handoff.clickhouse.http;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where inserts go: a list of shards, each a list of replica endpoints (HTTP URLs). handoff shard
 * {@code i} writes to shard {@code i} of the target; an insert goes to one healthy replica of its
 * shard and fails over to the next on a transient error (see {@link ClickHouseWriter}).
 *
 * <p>A target of one shard takes the inserts of every handoff shard: that is how one server
 * ({@link #single(String)}) is written. Give the replicas explicitly ({@link #of(List)}), or read
 * them from a server's {@code system.clusters} and a {@code Distributed} table ({@link
 * ClickHouseHttp#clusterOf(DistributedTable, java.util.function.BiFunction)}), which also gives
 * the local table every shard holds and the sharding key.
 *
 * <p>Immutable and thread-safe.
 */
public final class ClusterTarget {
  private final String cluster;
  private final List<Shard> shards;
  private final DistributedTable distributed;

  /**
   * One shard of a target.
   *
   * @param number the shard's number in {@code system.clusters} (from 1), or its position from 1
   *     when given explicitly
   * @param weight the shard's weight (how the {@code Distributed} table splits rows), {@code >= 0}
   * @param replicas the replicas' HTTP URLs, in the order they are tried; at least one
   */
  public record Shard(int number, int weight, List<URI> replicas) {

    /** Validates the fields and copies the replicas. */
    public Shard {
      if (number < 1 || weight < 0) {
        throw new IllegalArgumentException("shard number " + number + ", weight " + weight
            + " (expected: number >= 1, weight >= 0)");
      }
      replicas = List.copyOf(replicas);
      if (replicas.isEmpty()) {
        throw new IllegalArgumentException("shard " + number + " has no replica");
      }
      for (URI u : replicas) {
        String scheme = u.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)
            || u.getHost() == null) {
          throw new IllegalArgumentException("shard " + number + ": not an http(s) URL: " + u);
        }
      }
    }
  }

  private ClusterTarget(String cluster, List<Shard> shards, DistributedTable distributed) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.shards = List.copyOf(shards);
    if (this.shards.isEmpty()) {
      throw new IllegalArgumentException("cluster " + cluster + " has no shard");
    }
    this.distributed = distributed;
  }

  /** Returns a target of one server: one shard of one replica, written by every handoff shard. */
  public static ClusterTarget single(String url) {
    return of(List.of(List.of(url)));
  }

  /**
   * Returns a target of the given shards, each a list of replica URLs tried in order, every shard
   * of weight 1.
   *
   * @throws IllegalArgumentException when there is no shard, a shard has no replica or a URL is
   *     not http(s)
   */
  public static ClusterTarget of(List<List<String>> shards) {
    List<Shard> out = new ArrayList<>();
    for (List<String> replicas : shards) {
      List<URI> urls = new ArrayList<>();
      for (String url : replicas) {
        urls.add(URI.create(Objects.requireNonNull(url, "url")));
      }
      out.add(new Shard(out.size() + 1, 1, urls));
    }
    return new ClusterTarget("", out, null);
  }

  /**
   * Returns a target of the named cluster's shards, with the {@code Distributed} table it was
   * read for ({@code null} when none).
   */
  public static ClusterTarget of(String cluster, List<Shard> shards, DistributedTable distributed) {
    return new ClusterTarget(cluster, shards, distributed);
  }

  /** Returns the cluster's name in {@code system.clusters}, or {@code ""} when given explicitly. */
  public String cluster() {
    return cluster;
  }

  /** Returns the shards, in order: handoff shard {@code i} writes to {@code shards().get(i)}. */
  public List<Shard> shards() {
    return shards;
  }

  /** Returns the number of shards. */
  public int shardCount() {
    return shards.size();
  }

  /** Returns the sum of the shards' weights. */
  public long totalWeight() {
    long sum = 0;
    for (Shard s : shards) {
      sum += s.weight();
    }
    return sum;
  }

  /** Returns the {@code Distributed} table this target was read for, if any. */
  public Optional<DistributedTable> distributed() {
    return Optional.ofNullable(distributed);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterTarget t && t.cluster.equals(cluster) && t.shards.equals(shards)
        && Objects.equals(t.distributed, distributed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cluster, shards, distributed);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("ClusterTarget{");
    if (!cluster.isEmpty()) {
      sb.append(cluster).append(", ");
    }
    for (Shard s : shards) {
      sb.append("shard ").append(s.number()).append(" (weight ").append(s.weight()).append(") ")
          .append(s.replicas()).append(", ");
    }
    distributed().ifPresent(d -> sb.append("local table ").append(d.localDatabase()).append('.')
        .append(d.localTable()).append(", sharding key ").append(d.shardingKey().orElse("none"))
        .append(", "));
    sb.setLength(sb.length() - 2);
    return sb.append('}').toString();
  }
}
