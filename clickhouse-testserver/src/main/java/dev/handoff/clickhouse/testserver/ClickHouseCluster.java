package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A ClickHouse cluster of throwaway local servers for integration tests: {@code shards x
 * replicas} servers started with {@link ClickHouseServer#start()}, each told about all of them
 * as the cluster {@link #name()} in {@code remote_servers}.
 *
 * <p>{@link #start} starts the servers, writes {@code config.d/remote_servers.xml} into every
 * server's directory (the ports are known only once the servers run) and waits until each server
 * has reloaded its config and lists the whole cluster in {@code system.clusters} (18.16 checks
 * its config files every 2 s, so this takes 2 to 4 s). The replicas of a shard are independent
 * servers: there is no ZooKeeper, so tables on them are plain ({@code MergeTree}, not {@code
 * Replicated}) and hold what was inserted into each. A {@code Distributed} table over the cluster
 * reads and writes them through their native (TCP) ports.
 *
 * <pre>{@code
 * try (ClickHouseCluster cluster = ClickHouseCluster.start("c2x2", 2, 2)) {
 *   for (ClickHouseServer s : cluster.servers()) {
 *     s.execute("CREATE TABLE db.local (id UInt64) ENGINE = MergeTree ORDER BY id");
 *   }
 *   cluster.server(0, 0).execute("CREATE TABLE db.dist AS db.local"
 *       + " ENGINE = Distributed(c2x2, db, local, id)");
 * }
 * }</pre>
 *
 * <p>{@link #close()} closes every server. Thread-safe as its servers are.
 */
public final class ClickHouseCluster implements AutoCloseable {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final long RELOAD_TIMEOUT_NANOS = 30_000_000_000L;

  private final String name;
  private final List<List<ClickHouseServer>> shards;

  private ClickHouseCluster(String name, List<List<ClickHouseServer>> shards) {
    this.name = name;
    this.shards = shards;
  }

  /**
   * Starts {@code shards x replicas} servers and makes them a cluster named {@code name}; every
   * shard has weight 1.
   *
   * @throws IllegalArgumentException unless {@code name} is a plain identifier and both counts
   *     are at least 1
   * @throws ClickHouseServerException when a server does not start, or a server does not list the
   *     cluster within 30 s (the message holds its logs)
   */
  public static ClickHouseCluster start(String name, int shards, int replicas) {
    if (!IDENTIFIER.matcher(name).matches() || shards < 1 || replicas < 1) {
      throw new IllegalArgumentException("cluster " + name + ", " + shards + " shards, "
          + replicas + " replicas (expected: an identifier, counts >= 1)");
    }
    List<List<ClickHouseServer>> servers = new ArrayList<>();
    ClickHouseCluster cluster = new ClickHouseCluster(name, servers);
    try {
      for (int s = 0; s < shards; s++) {
        List<ClickHouseServer> shard = new ArrayList<>();
        servers.add(shard);
        for (int r = 0; r < replicas; r++) {
          shard.add(ClickHouseServer.start());
        }
      }
      String xml = cluster.remoteServers();
      for (ClickHouseServer server : cluster.servers()) {
        Path dir = server.directory().resolve("config.d");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("remote_servers.xml"), xml, UTF_8);
      }
      for (ClickHouseServer server : cluster.servers()) {
        cluster.awaitReload(server, shards * replicas);
      }
      return cluster;
    } catch (IOException e) {
      cluster.close();
      throw new ClickHouseServerException("cannot write the cluster's config", e);
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** The cluster's name in {@code remote_servers} and {@code system.clusters}. */
  public String name() {
    return name;
  }

  /** The servers by shard, then replica, in the order of {@code system.clusters}. */
  public List<List<ClickHouseServer>> shards() {
    List<List<ClickHouseServer>> out = new ArrayList<>();
    for (List<ClickHouseServer> s : shards) {
      out.add(List.copyOf(s));
    }
    return out;
  }

  /** Replica {@code replica} of shard {@code shard}, both from 0. */
  public ClickHouseServer server(int shard, int replica) {
    return shards.get(shard).get(replica);
  }

  /** Every server, shard by shard. */
  public List<ClickHouseServer> servers() {
    List<ClickHouseServer> out = new ArrayList<>();
    for (List<ClickHouseServer> s : shards) {
      out.addAll(s);
    }
    return out;
  }

  /**
   * The HTTP URL of the server whose native-protocol port is {@code tcpPort}: what {@code
   * system.clusters} names ({@code host_name}, {@code port}) mapped to where a client sends HTTP.
   *
   * @throws IllegalArgumentException when no server of the cluster has that port
   */
  public String httpUrl(String host, int tcpPort) {
    for (ClickHouseServer s : servers()) {
      if (s.tcpPort() == tcpPort) {
        return s.httpUrl();
      }
    }
    throw new IllegalArgumentException("no server of cluster " + name + " has TCP port "
        + tcpPort + " (host " + host + ")");
  }

  /**
   * Closes every server, all at once (each may wait for its clients' idle connections);
   * idempotent.
   */
  @Override
  public void close() {
    List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> closing = new ArrayList<>();
    for (ClickHouseServer s : servers()) {
      Thread t = new Thread(() -> {
        try {
          s.close();
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }, "close " + s.httpUrl());
      t.start();
      closing.add(t);
    }
    for (Thread t : closing) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.subList(1, failures.size()).forEach(first::addSuppressed);
      throw first;
    }
  }

  private String remoteServers() {
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<!-- Written by"
        + " dev.handoff.clickhouse.testserver.ClickHouseCluster. -->\n<yandex>\n"
        + "  <remote_servers>\n    <" + name + ">\n");
    for (List<ClickHouseServer> shard : shards) {
      sb.append("      <shard>\n        <weight>1</weight>\n");
      for (ClickHouseServer s : shard) {
        sb.append("        <replica><host>").append(ClickHouseServer.LOOPBACK)
            .append("</host><port>").append(s.tcpPort()).append("</port></replica>\n");
      }
      sb.append("      </shard>\n");
    }
    return sb.append("    </").append(name).append(">\n  </remote_servers>\n</yandex>\n")
        .toString();
  }

  private void awaitReload(ClickHouseServer server, int expected) {
    long end = System.nanoTime() + RELOAD_TIMEOUT_NANOS;
    String sql = "SELECT count() FROM system.clusters WHERE cluster = '" + name + "'";
    while (!server.query(sql).strip().equals(String.valueOf(expected))) {
      if (System.nanoTime() - end > 0) {
        throw new ClickHouseServerException("server " + server.httpUrl() + " did not list"
            + " cluster " + name + " within 30 s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClickHouseServerException("interrupted while waiting for " + server, e);
      }
    }
  }
}
