package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.FlowControl;
import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.http.DistributedTable;
import dev.handoff.clickhouse.http.ReplicaStatus;
import dev.handoff.clickhouse.testserver.ClickHouseCluster;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.sink.RetryPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster of four real 18.16 servers, 2 shards x 2 replicas (plain MergeTree local tables, no
 * ZooKeeper) under a {@code Distributed} table sharded by {@code id}: a million rows through the
 * sink, built from the {@code Distributed} table's definition, with an {@code id % 2} router, and
 * the active replica of shard 0 killed (SIGKILL) half-way.
 */
final class ClusterServerTest {
  private static final int ROWS = 1_000_000;
  private static ClickHouseCluster cluster;

  /** A row of {@code db.local (id UInt64, payload String)}. */
  public record Event(long id, String payload) {}

  @BeforeAll
  static void startCluster() {
    cluster = ClickHouseCluster.start("c2x2", 2, 2);
    for (ClickHouseServer s : cluster.servers()) {
      s.createDatabase("db");
      s.execute("CREATE TABLE db.local (id UInt64, payload String)"
          + " ENGINE = MergeTree ORDER BY tuple()");
      s.execute("SYSTEM STOP MERGES"); // one part per insert: part order is insertion order
    }
    cluster.server(0, 0).execute("CREATE TABLE db.dist AS db.local"
        + " ENGINE = Distributed(c2x2, 'db', local, id)");
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aMillionRows_landOnTheirShards_andSurviveAKilledReplica() throws Exception {
    ClickHouseServer killed = cluster.server(0, 0);
    long started = System.nanoTime();
    ClickHouseSink<Event> sink = ClickHouseSink.forRecords(Event.class)
        .url(killed.httpUrl())
        .distributedTable("db.dist")
        .replicaUrls(cluster::httpUrl)
        .routingKey(Event::id)
        .router((key, time, n) -> (int) Long.remainderUnsigned(key, n)) // the key `id`, weights 1:1
        .chunkTargetBytes(256 * 1024)
        .maxInsert(8L << 20, 20_000) // about 25 inserts per shard: parts to order
        .retry(new RetryPolicy(20, Duration.ofMillis(50), Duration.ofMillis(500), 0.2,
            Duration.ofSeconds(30)))
        .build();

    ClusterTarget target = sink.target();
    assertThat(target.shardCount()).isEqualTo(2);
    assertThat(target.shards()).allSatisfy(s -> assertThat(s.replicas()).hasSize(2));
    assertThat(target.shards().get(0).replicas().get(1).toString())
        .isEqualTo(cluster.server(0, 1).httpUrl());
    DistributedTable dist = target.distributed().orElseThrow();
    assertThat(dist.localDatabase() + "." + dist.localTable()).isEqualTo("db.local");
    assertThat(dist.shardingKey()).isEqualTo(Optional.of("id"));
    assertThat(dist.shardingColumn()).isEqualTo(Optional.of("id"));
    assertThat(sink.workerMetrics().shards()).as("one handoff shard per ClickHouse shard")
        .hasSize(2);

    long killedAt = -1;
    for (long id = 0; id < ROWS; id++) {
      if (sink.push(new Event(id, "p" + id)) == FlowControl.BLOCKED) {
        assertThat(sink.awaitRoom(Duration.ofSeconds(30))).isTrue();
      }
      if (id == ROWS / 2) {
        awaitShard0Written(sink);
        ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly(); // SIGKILL
        killedAt = sink.workerMetrics().shard(0).rowsWritten();
      }
    }
    DeliveryReport report = sink.close(Duration.ofSeconds(60));
    long seconds = (System.nanoTime() - started) / 1_000_000;
    System.out.println("cluster run: " + report.summary() + "; " + seconds + " ms; shard 0 had "
        + killedAt + " rows written at the kill; replicas " + sink.replicas());

    assertThat(report.allDelivered()).as(report.summary()).isTrue();
    assertThat(report.rowsWritten()).isEqualTo(ROWS);
    List<ReplicaStatus> replicas = sink.replicas();
    assertThat(replicas.get(0).failures()).as("the killed replica failed").isPositive();
    assertThat(replicas.get(1).rows()).as("shard 0 went on on its other replica").isPositive();
    assertThat(replicas.get(2).rows()).as("shard 1 stayed on its first replica")
        .isEqualTo(ROWS / 2);
    assertThat(replicas.get(3).inserts()).isZero();
    assertThat(replicas.get(0).rows() + replicas.get(1).rows()).as("shard 0's rows acknowledged")
        .isEqualTo(ROWS / 2);

    killed.resume(); // MergeTree parts survive a SIGKILL: count what it wrote before
    killed.execute("SYSTEM STOP MERGES");
    long duplicates = 0;
    for (int shard = 0; shard < 2; shard++) {
      long[] all = new long[0];
      for (int replica = 0; replica < 2; replica++) {
        ClickHouseServer s = cluster.server(shard, replica);
        long[] ids = ids(s);
        for (long id : ids) {
          assertThat(id % 2).as("id %d on shard %d", id, shard).isEqualTo(shard);
        }
        assertInsertionOrder(s);
        all = concat(all, ids);
      }
      long distinct = Arrays.stream(all).sorted().distinct().count();
      assertThat(distinct).as("distinct ids of shard %d over its replicas", shard)
          .isEqualTo(ROWS / 2);
      duplicates += all.length - distinct;
    }
    assertThat(duplicates).as("rows written twice are rows reported in doubt")
        .isLessThanOrEqualTo(report.rowsInDoubt());
    System.out.println("duplicates " + duplicates + ", in doubt " + report.rowsInDoubt());
  }

  /** A row of {@code db.hashed (id UInt64, customer String, amount Int32)}. */
  public record Sale(long id, String customer, int amount) {}

  /**
   * Without a router, a sink built from a {@code Distributed} table places every row where the
   * table would: the same rows inserted through the table itself (synchronously, into a twin
   * table) and through the sink end up on the same shards, row for row.
   */
  @Test
  void withoutARouter_rowsLandWhereTheDistributedTablePutsThem() throws Exception {
    ClickHouseServer front = cluster.server(1, 0); // shard 0's first replica is killed above
    for (ClickHouseServer s : cluster.servers()) {
      for (String t : List.of("hashed", "twin")) {
        s.execute("CREATE TABLE IF NOT EXISTS db." + t + " (id UInt64, customer String,"
            + " amount Int32) ENGINE = MergeTree ORDER BY id");
      }
    }
    String key = "cityHash64(customer, amount)";
    front.execute("CREATE TABLE db.hashed_dist AS db.hashed ENGINE = Distributed(c2x2, 'db',"
        + " hashed, " + key + ")");
    front.execute("CREATE TABLE db.twin_dist AS db.twin ENGINE = Distributed(c2x2, 'db', twin, "
        + key + ")");
    int rows = 1_000_000;
    Random random = new Random(7);
    List<Sale> sales = new ArrayList<>();
    StringBuilder tsv = new StringBuilder();
    for (long id = 0; id < rows; id++) {
      Sale sale = new Sale(id, "c" + random.nextInt(5_000), random.nextInt() % 100_000);
      sales.add(sale);
      tsv.append(id).append('\t').append(sale.customer()).append('\t').append(sale.amount())
          .append('\n');
    }
    insertSynchronously(front, "INSERT INTO db.twin_dist FORMAT TabSeparated", tsv.toString());

    ClickHouseSink<Sale> sink = ClickHouseSink.forRecords(Sale.class)
        .url(front.httpUrl())
        .distributedTable("db.hashed_dist")
        .replicaUrls(cluster::httpUrl)
        .build();
    for (Sale sale : sales) {
      if (sink.push(sale) == FlowControl.BLOCKED) {
        assertThat(sink.awaitRoom(Duration.ofSeconds(30))).isTrue();
      }
    }
    DeliveryReport report = sink.close(Duration.ofSeconds(60));
    assertThat(report.allDelivered()).as(report.summary()).isTrue();

    long placed = 0;
    for (int shard = 0; shard < 2; shard++) {
      List<Long> viaSink = new ArrayList<>();
      List<Long> viaTable = new ArrayList<>();
      for (int replica = 0; replica < 2; replica++) {
        ClickHouseServer s = cluster.server(shard, replica);
        viaSink.addAll(idList(s, "hashed"));
        viaTable.addAll(idList(s, "twin"));
      }
      List<Long> sinkIds = viaSink.stream().distinct().sorted().toList();
      List<Long> tableIds = viaTable.stream().distinct().sorted().toList();
      assertThat(sinkIds).as("shard %d: the sink's rows are the Distributed table's", shard)
          .hasSize(tableIds.size()).isEqualTo(tableIds);
      assertThat(sinkIds).as("shard %d holds rows", shard).isNotEmpty();
      placed += sinkIds.size();
    }
    assertThat(placed).isEqualTo(rows);
  }

  /** Inserts through a {@code Distributed} table, which then writes the shards before answering. */
  private static void insertSynchronously(ClickHouseServer s, String sql, String body)
      throws IOException {
    HttpURLConnection http = (HttpURLConnection) URI.create(
        s.httpUrl() + "/?insert_distributed_sync=1&query="
            + URLEncoder.encode(sql, StandardCharsets.UTF_8))
        .toURL().openConnection();
    http.setDoOutput(true);
    try (OutputStream out = http.getOutputStream()) {
      out.write(body.getBytes(StandardCharsets.UTF_8));
    }
    if (http.getResponseCode() != 200) {
      try (InputStream error = http.getErrorStream()) {
        throw new AssertionError("insert through the Distributed table: HTTP "
            + http.getResponseCode() + " " + new String(error.readAllBytes(),
                StandardCharsets.UTF_8));
      }
    }
    http.getInputStream().close();
  }

  private static List<Long> idList(ClickHouseServer s, String table) {
    return s.query("SELECT id FROM db." + table + " FORMAT TabSeparated").lines()
        .map(Long::parseLong).toList();
  }

  private static void awaitShard0Written(ClickHouseSink<Event> sink) throws InterruptedException {
    long end = System.nanoTime() + 30_000_000_000L;
    while (sink.workerMetrics().shard(0).rowsWritten() == 0 && System.nanoTime() < end) {
      Thread.sleep(5);
    }
  }

  /** The ids on {@code s}, read as RowBinary (UInt64 little-endian). */
  private static long[] ids(ClickHouseServer s) {
    ByteBuffer b = ByteBuffer.wrap(s.queryBytes("SELECT id FROM db.local FORMAT RowBinary"))
        .order(ByteOrder.LITTLE_ENDIAN);
    long[] out = new long[b.remaining() / 8];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.getLong();
    }
    return out;
  }

  /**
   * Each insert is a part numbered by the replica's block counter: in block order, every part's
   * ids follow the previous part's, so the shard's rows reached the replica in push order.
   */
  private static void assertInsertionOrder(ClickHouseServer s) {
    List<long[]> parts = new ArrayList<>();
    for (String line : s.query("SELECT _part, min(id), max(id) FROM db.local GROUP BY _part"
        + " FORMAT TabSeparated").lines().toList()) {
      String[] f = line.split("\t");
      long block = Long.parseLong(f[0].split("_")[1]);
      parts.add(new long[] {block, Long.parseLong(f[1]), Long.parseLong(f[2])});
    }
    parts.sort((a, b) -> Long.compare(a[0], b[0]));
    for (int i = 1; i < parts.size(); i++) {
      assertThat(parts.get(i)[1]).as("part after block %d on %s", parts.get(i - 1)[0], s)
          .isGreaterThan(parts.get(i - 1)[2]);
    }
  }

  private static long[] concat(long[] a, long[] b) {
    long[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
