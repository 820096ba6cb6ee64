package dev.handoff.clickhouse.hash;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ShardingKey} with {@link WeightedShardRouter} against real {@code Distributed} tables on
 * ClickHouse 18.16: three shard servers of weights 1, 2 and 3 and a fourth server holding the
 * {@code Distributed} tables, whose cluster is added to its {@code config.d} (the server reloads
 * it within seconds). Rows are inserted through each {@code Distributed} table with {@code
 * insert_distributed_sync=1}; every row must be on the shard the router predicts.
 */
final class DistributedRoutingServerTest {
  private static final long SEED = Long.getLong("hash.seed", System.nanoTime());
  private static final int[] WEIGHTS = {1, 2, 3};
  private static final int ROWS = 6000;
  private static final List<ColumnSpec> COLUMNS = List.of(new ColumnSpec("id", "UInt64"),
      new ColumnSpec("a", "UInt8"), new ColumnSpec("b", "String"), new ColumnSpec("k", "Int32"),
      new ColumnSpec("s", "Int8"), new ColumnSpec("l", "Int64"), new ColumnSpec("d", "Date"),
      new ColumnSpec("u", "UInt16"));

  private static final List<ClickHouseServer> shards = new ArrayList<>();
  private static ClickHouseServer front;

  @BeforeAll
  static void startCluster() throws Exception {
    System.out.println("DistributedRoutingServerTest seed " + SEED);
    StringBuilder cluster = new StringBuilder();
    for (int weight : WEIGHTS) {
      ClickHouseServer shard = ClickHouseServer.start();
      shards.add(shard);
      shard.execute("CREATE DATABASE routing");
      cluster.append("<shard><weight>").append(weight).append("</weight><replica><host>127.0.0.1"
          + "</host><port>").append(shard.tcpPort()).append("</port></replica></shard>");
    }
    front = ClickHouseServer.start();
    front.execute("CREATE DATABASE routing");
    Path configD = Files.createDirectories(front.directory().resolve("config.d"));
    Files.writeString(configD.resolve("hash_test_cluster.xml"), "<?xml version=\"1.0\"?><yandex>"
        + "<remote_servers><hash_test>" + cluster + "</hash_test></remote_servers></yandex>",
        UTF_8);
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!front.query("SELECT count() FROM system.clusters WHERE cluster = 'hash_test'")
        .trim().equals(String.valueOf(WEIGHTS.length))) {
      assertThat(System.nanoTime()).as("the server loads the cluster within 30 s")
          .isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  @AfterAll
  static void stopCluster() {
    shards.forEach(ClickHouseServer::close);
    if (front != null) {
      front.close();
    }
  }

  @Test
  void everyRow_landsOnTheShardTheRouterPredicts() throws Exception {
    List<String> keys = List.of("cityHash64(a, b)", "id", "k", "s", "l", "u",
        "sipHash64(b)", "sipHash64(k, d)", "murmurHash3_64(a, k)", "murmurHash3_64(b)",
        "intHash64(id)", "intHash64(s)", "cityHash64(b, (d, s))", "cityHash64(l)");
    SplittableRandom random = new SplittableRandom(SEED);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      Object[] row = new Object[COLUMNS.size()];
      row[0] = (long) i;
      for (int c = 1; c < COLUMNS.size(); c++) {
        row[c] = Values.of(COLUMNS.get(c).type(), random);
      }
      row[0] = random.nextInt(4) == 0 ? (long) i : random.nextLong() & ~0xffffL | i; // unique
      rows.add(row);
    }
    TableSchema schema = new TableSchema(COLUMNS);
    WeightedShardRouter router = WeightedShardRouter.of(WEIGHTS);
    for (int n = 0; n < keys.size(); n++) {
      String key = keys.get(n);
      Map<Long, Integer> landed = insertThroughDistributed("t" + n, key, rows);
      ShardingKey shardingKey = ShardingKey.parse(key, schema);
      int[] perShard = new int[WEIGHTS.length];
      for (Object[] row : rows) {
        int predicted = router.shardOf(shardingKey.keyOf(RowAccessors.objectArray(), row));
        Integer actual = landed.get((Long) row[0]);
        if (actual == null || actual != predicted) {
          throw new AssertionError("seed " + SEED + ", sharding key " + key + ": row "
              + Values.describe(row) + " landed on shard " + actual + ", the router says "
              + predicted);
        }
        perShard[actual]++;
      }
      assertThat(landed).hasSize(ROWS);
      System.out.println(key + ": rows per shard " + java.util.Arrays.toString(perShard));
    }
  }

  @Test
  void rand_spreadsRowsByWeight() throws Exception {
    List<Object[]> rows = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(SEED);
    for (int i = 0; i < ROWS; i++) {
      Object[] row = new Object[COLUMNS.size()];
      row[0] = (long) i;
      for (int c = 1; c < COLUMNS.size(); c++) {
        row[c] = Values.of(COLUMNS.get(c).type(), random);
      }
      rows.add(row);
    }
    Map<Long, Integer> landed = insertThroughDistributed("rand", "rand()", rows);
    assertThat(landed).hasSize(ROWS);
    ShardingKey key = ShardingKey.parse("rand()", new TableSchema(COLUMNS));
    WeightedShardRouter router = WeightedShardRouter.of(WEIGHTS);
    int[] server = new int[WEIGHTS.length];
    int[] ours = new int[WEIGHTS.length];
    landed.values().forEach(shard -> server[shard]++);
    rows.forEach(row -> ours[router.shardOf(key.keyOf(RowAccessors.objectArray(), row))]++);
    for (int shard = 0; shard < WEIGHTS.length; shard++) {
      double expected = (double) ROWS * WEIGHTS[shard] / 6;
      assertThat((double) server[shard]).as("server, shard %d", shard)
          .isCloseTo(expected, org.assertj.core.data.Offset.offset(expected * 0.1));
      assertThat((double) ours[shard]).as("router, shard %d", shard)
          .isCloseTo(expected, org.assertj.core.data.Offset.offset(expected * 0.1));
    }
  }

  /** Creates the tables, inserts the rows through the Distributed table, returns id -> shard. */
  private static Map<Long, Integer> insertThroughDistributed(
      String table, String key, List<Object[]> rows) throws IOException {
    String columns = COLUMNS.stream().map(c -> c.name() + " " + c.type())
        .collect(Collectors.joining(", "));
    for (ClickHouseServer shard : shards) {
      shard.execute("CREATE TABLE routing." + table + " (" + columns + ") ENGINE = Memory");
    }
    front.execute("CREATE TABLE routing." + table + " (" + columns + ") ENGINE = Distributed("
        + "hash_test, routing, " + table + ", " + key + ")");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (Object[] row : rows) {
      for (int c = 0; c < COLUMNS.size(); c++) {
        Values.writeRowBinary(body, COLUMNS.get(c).type(), row[c]);
      }
    }
    String sql = "INSERT INTO routing." + table + " FORMAT RowBinary";
    HttpURLConnection http = (HttpURLConnection) URI.create(front.httpUrl()
        + "/?insert_distributed_sync=1&query=" + URLEncoder.encode(sql, UTF_8)).toURL()
        .openConnection();
    http.setDoOutput(true);
    http.getOutputStream().write(body.toByteArray());
    if (http.getResponseCode() != 200) {
      try (InputStream error = http.getErrorStream()) {
        throw new AssertionError("insert through " + key + ": HTTP " + http.getResponseCode()
            + " " + new String(error.readAllBytes(), UTF_8));
      }
    }
    http.getInputStream().close();
    Map<Long, Integer> landed = new HashMap<>();
    for (int shard = 0; shard < shards.size(); shard++) {
      String ids = shards.get(shard).query("SELECT id FROM routing." + table
          + " FORMAT TabSeparated");
      for (String id : ids.split("\n")) {
        if (!id.isEmpty() && landed.put(Long.parseUnsignedLong(id), shard) != null) {
          throw new AssertionError("row " + id + " is on two shards");
        }
      }
    }
    return landed;
  }
}
