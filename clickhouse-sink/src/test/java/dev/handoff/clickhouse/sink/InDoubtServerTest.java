package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.sink.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A lost answer against the real 18.16 server, which has no {@code insert_deduplication_token}:
 * a proxy forwards the second of three inserts, lets the server write it and loses the answer;
 * the worker retries the same insert (same identity in its {@code query_id}), the table holds its
 * rows twice, and the report says exactly those rows are in doubt.
 */
final class InDoubtServerTest {
  private static final ClickHouseServer server = ClickHouseServer.shared();
  private static final Pattern QUERY_ID = Pattern.compile("query_id=(handoff-[0-9a-f]{12}"
      + "-s0-q\\d+-\\d+-r(\\d+)-c[0-9a-f]{8})-(\\d+)");

  @ParameterizedTest
  @EnumSource(LossyProxy.Mode.class)
  void aRetriedInsertWhoseAnswerWasLost_isReportedInDoubt(LossyProxy.Mode mode) throws Exception {
    assertThat(server.query("SELECT count() FROM system.settings"
        + " WHERE name = 'insert_deduplication_token'")).as("18.16 lacks the setting")
        .isEqualTo("0\n");
    String db = server.uniqueDatabase("in_doubt");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, key String, v Float64)"
        + " ENGINE = MergeTree ORDER BY tuple()");
    int[] sizes = {300, 500, 700};
    try (LossyProxy proxy = new LossyProxy(server.httpPort(), Set.of(2), mode, 1_500)) {
      ClickHouseSink<ClickHouseSinkServerTest.Row> sink =
          ClickHouseSink.forRecords(ClickHouseSinkServerTest.Row.class)
              .http(ClickHouseHttpOptions.builder().url(proxy.url())
                  .requestTimeout(Duration.ofMillis(700)).build())
              .table(db, "t").linger(Duration.ZERO)
              .retry(new RetryPolicy(5, Duration.ofMillis(20), Duration.ofMillis(100), 0.0,
                  Duration.ofSeconds(20)))
              .build();
      long id = 0;
      for (int i = 0; i < sizes.length; i++) {
        for (int r = 0; r < sizes[i]; r++, id++) {
          sink.push(new ClickHouseSinkServerTest.Row(id, "k" + id, id));
        }
        sink.seal();
        long written = id;
        awaitWritten(sink, written);
      }
      DeliveryReport report = sink.close(Duration.ofSeconds(20));

      assertThat(report.allDelivered()).as(report.summary()).isTrue();
      assertThat(report.rowsWritten()).isEqualTo(1_500);
      assertThat(report.rowsInDoubt()).as(report.summary()).isEqualTo(500);
      assertThat(report.summary()).contains("500 rows in doubt");
      List<String[]> ids = new ArrayList<>();
      for (String url : proxy.inserts()) {
        assertThat(url).doesNotContain("insert_deduplication_token");
        Matcher m = QUERY_ID.matcher(url);
        assertThat(m.find()).as(url).isTrue();
        ids.add(new String[] {m.group(1), m.group(2), m.group(3)});
      }
      assertThat(ids).as("three inserts and one retry").hasSize(4);
      assertThat(ids.get(1)[0]).as("the retry carries the lost insert's identity")
          .isEqualTo(ids.get(2)[0]);
      assertThat(ids.get(1)[1]).isEqualTo("500");
      assertThat(ids.get(1)[2] + "," + ids.get(2)[2]).isEqualTo("1,2");
      assertThat(ids.get(0)[0]).isNotEqualTo(ids.get(1)[0]).isNotEqualTo(ids.get(3)[0]);
      assertThat(server.query("SELECT count(), uniqExact(id) FROM " + db + ".t"))
          .as("the lost answer's rows are in the table twice").isEqualTo("2000\t1500\n");
      assertThat(server.query("SELECT count() FROM (SELECT id FROM " + db + ".t GROUP BY id"
          + " HAVING count() = 2 AND min(id) >= 300 AND max(id) < 800)")).isEqualTo("500\n");
    }
  }

  private static void awaitWritten(ClickHouseSink<?> sink, long rows) throws InterruptedException {
    long end = System.nanoTime() + 20_000_000_000L;
    while (sink.workerMetrics().total().rowsWritten() < rows && System.nanoTime() < end) {
      Thread.sleep(10);
    }
  }
}
