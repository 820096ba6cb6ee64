package dev.handoff.clickhouse.sink;

import static dev.handoff.clickhouse.sink.ClickHouseSinkServerTest.count;
import static dev.handoff.clickhouse.sink.ClickHouseSinkServerTest.sink;
import static dev.handoff.clickhouse.sink.ClickHouseSinkServerTest.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.sink.ClickHouseSinkServerTest.Row;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.ChunkPool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The chunk arrays' lifetime against a real server: a checked pool poisons every array given
 * back, so a frame read after its release (by a retry, by the isolation of a rejected row, by the
 * HTTP client) would send poison and the table would not hold exactly the rows pushed; and every
 * array must be back in the pool after close, none twice (a double return throws).
 */
final class PooledFramesServerTest {
  private static final int TARGET = 4096;

  private static ChunkPool checked() {
    return ChunkPool.checked(ChunkPool.arrayLengthFor(TARGET), 64);
  }

  private static void assertRows(ClickHouseServer on, String db, int n) {
    assertThat(on.query("SELECT count(), sum(id), countIf(key != concat('k', toString(id))"
        + " OR v != id) FROM " + db + ".t")).isEqualTo(n + "\t" + (long) n * (n - 1) / 2 + "\t0\n");
  }

  @ParameterizedTest
  @EnumSource(InsertFormat.class)
  void retriesReadOnlyLiveFramesAndEveryArrayComesBack(InsertFormat format) throws Exception {
    ChunkPool pool = checked();
    try (ClickHouseServer own = ClickHouseServer.start()) {
      String db = table(own, "pool_down");
      ClickHouseSink<Row> sink = sink(own, db).format(format).chunkTargetBytes(TARGET)
          .chunkPool(pool).maxChunkAge(Duration.ofMillis(50)).build();
      own.stop();
      for (int i = 0; i < 5_000; i++) {
        sink.push(new Row(i, "k" + i, i));
      }
      TimeUnit.MILLISECONDS.sleep(800); // chunks go out and fail while the server is down
      own.resume();
      for (int i = 5_000; i < 20_000; i++) {
        sink.push(new Row(i, "k" + i, i));
      }
      DeliveryReport report = sink.close(Duration.ofSeconds(60));
      assertThat(report.allDelivered()).as(report.summary()).isTrue();
      assertThat(report.retries()).as("attempts while the server was down").isPositive();
      assertThat(count(own, db)).isEqualTo(20_000);
      assertRows(own, db, 20_000);
    }
    assertThat(pool.onLoan()).as("arrays on loan after close: " + pool).isZero();
  }

  @ParameterizedTest
  @EnumSource(InsertFormat.class)
  void isolatingARejectedRowReadsOnlyLiveFrames(InsertFormat format, @TempDir Path dir) {
    ChunkPool pool = checked();
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("pool_dead");
    server.execute("CREATE TABLE " + db + ".t (id UInt64, key String, v Float64,"
        + " _reject UInt8 MATERIALIZED throwIf(id = 777)) ENGINE = MergeTree ORDER BY tuple()");
    DeliveryReport report;
    try (ClickHouseSink<Row> sink = sink(server, db).format(format).chunkTargetBytes(TARGET)
        .chunkPool(pool).deadLetters(dir).build()) {
      for (int i = 0; i < 5_000; i++) {
        sink.push(new Row(i, "k" + i, i));
      }
      report = sink.close(Duration.ofSeconds(60));
    }
    assertThat(report.allDelivered()).as(report.summary()).isTrue();
    assertThat(report.rowsDeadLettered()).isOne();
    assertThat(server.query("SELECT count(), sum(id), countIf(key != concat('k', toString(id))"
        + " OR v != id) FROM " + db + ".t")).isEqualTo("4999\t" + (4999L * 5000 / 2 - 777) + "\t0\n");
    assertThat(pool.onLoan()).as("arrays on loan after close: " + pool).isZero();
  }
}
