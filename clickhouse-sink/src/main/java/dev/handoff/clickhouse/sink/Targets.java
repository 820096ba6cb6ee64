package dev.handoff.clickhouse.sink;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpException;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClusterTarget;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** What the builder needs to know about a cluster target: shard count, a server to ask. */
final class Targets {
  private Targets() {}

  /**
   * The sink's shard count for {@code target}: the builder's own for a one-shard target, else the
   * target's, which {@code requested} (-1 when {@code shards(...)} was not called) must equal.
   */
  static int shardCount(ClusterTarget target, int requested, int builderShards) {
    if (target.shardCount() == 1) {
      return builderShards;
    }
    if (requested != -1 && requested != target.shardCount()) {
      throw new IllegalArgumentException("shards(" + requested + ", ...) but the target has "
          + target.shardCount() + " shards: " + target);
    }
    return target.shardCount();
  }

  /**
   * A client of the first replica, shard by shard, that answers {@code SELECT 1}: the server
   * that gives the schema and the settings. A replica that cannot be reached is skipped; any
   * other failure is thrown.
   *
   * @throws ClickHouseHttpException the last failure when no replica answers
   */
  static ClickHouseHttp firstAnswering(ClusterTarget target, ClickHouseHttpOptions options) {
    ClickHouseHttpException last = null;
    for (ClusterTarget.Shard s : target.shards()) {
      for (URI url : s.replicas()) {
        ClickHouseHttp replica = ClickHouseHttp.create(options.toBuilder()
            .url(url.toString()).build());
        try {
          replica.query("SELECT 1");
          return replica;
        } catch (ClickHouseHttpException e) {
          if (!e.isTransient()) {
            throw e;
          }
          last = e;
        }
      }
    }
    throw last;
  }

  /** The default HTTP URL of a replica {@code system.clusters} names: port 8123 of its host. */
  static String port8123(String host, Integer tcpPort) {
    return "http://" + host + ":8123";
  }

  /**
   * The columns the sink writes: all of {@code all}, or those named in {@code columns} in that
   * order.
   *
   * @throws IllegalArgumentException if a named column is not an insertable column of the table
   */
  static TableSchema columns(TableSchema all, List<String> columns, String table) {
    if (columns == null) {
      return all;
    }
    List<ColumnSpec> picked = new ArrayList<>();
    for (String name : columns) {
      int i = all.indexOf(name);
      if (i < 0) {
        throw new IllegalArgumentException("table " + table + " has no insertable"
            + " column " + name + "; it has " + all.columns());
      }
      picked.add(all.column(i));
    }
    return new TableSchema(picked);
  }
}
