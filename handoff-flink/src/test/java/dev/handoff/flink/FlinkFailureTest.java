package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * At least once under failures: an operator before the sink throws at seeded random points
 * several times per run, with checkpoints every 200 ms and a restart strategy. The oracle ({@link
 * ChaosLog}) knows which rows each failed attempt passed on after the checkpoint its successor
 * restored; every duplicate in the table must be one of those, and no row may be missing.
 */
class FlinkFailureTest {
  static final int ROWS = 200_000;

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** What a chaos run left in the table, judged against the log. */
  record Outcome(long seed, long distinct, long missing, long duplicates, long unexplained,
      int failures) {
    String recipe() {
      return "seed " + seed + ": " + this + " (rerun FlinkFailureTest with this seed)";
    }
  }

  @ParameterizedTest(name = "seed {0}, {1}")
  @CsvSource({"1, NATIVE", "2, ROW_BINARY", "3, NATIVE"})
  void noRowIsLostAndEveryDuplicateComesFromAReplay(long seed, InsertFormat format)
      throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("chaos");
    Outcome o = run(server, db, seed, HandoffSink.forRecords(Event.class)
        .setUrl(server.httpUrl()).setTable(db, "events").setFormat(format).build());
    System.out.println("chaos run " + o.recipe());
    assertThat(o.failures()).as(o.recipe()).isGreaterThanOrEqualTo(3);
    assertThat(o.missing()).as(o.recipe()).isZero();
    assertThat(o.distinct()).as(o.recipe()).isEqualTo(ROWS);
    assertThat(o.unexplained()).as(o.recipe()).isZero();
  }

  /**
   * The mutation check: a writer whose flush returns without waiting for the workers lets a
   * checkpoint complete while its rows are still in the sink, so a failure after it loses them.
   */
  @Test
  void aFlushThatDoesNotWaitLosesRowsAndTheTestSeesIt() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    long lost = 0;
    for (long seed = 11; seed < 14 && lost == 0; seed++) {
      String db = server.uniqueDatabase("chaosmut");
      Outcome o = run(server, db, seed, new EarlyFlushSink<>(HandoffSink
          .forRecords(Event.class).setUrl(server.httpUrl()).setTable(db, "events")
          .setMaxChunkAge(Duration.ofSeconds(2)).build()));
      System.out.println("broken flush " + o.recipe());
      lost += o.missing();
    }
    assertThat(lost).as("rows the broken flush lost").isPositive();
  }

  static Outcome run(ClickHouseServer server, String db, long seed, Sink<Event> sink)
      throws Exception {
    String table = db + ".events";
    server.execute("CREATE TABLE " + table + " " + Event.COLUMNS);
    String runName = db;
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 50);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    env.fromSource(new DataGeneratorSource<>(Event::of, ROWS, RateLimiterStrategy.perSecond(
                100_000), TypeInformation.of(Event.class)),
            WatermarkStrategy.noWatermarks(), "events")
        .map(new ChaosMap(runName, seed, 4, 60_000))
        .sinkTo(sink);
    env.execute("chaos-" + seed);

    ChaosLog log = ChaosLog.of(runName);
    Map<Long, Integer> replayable = log.replayable();
    long distinct = Long.parseLong(server.query("SELECT uniqExact(id) FROM " + table).trim());
    long missing = ROWS - distinct;
    long duplicates = 0;
    long unexplained = 0;
    Map<Long, Integer> copies = new HashMap<>();
    for (String line : server.query("SELECT id, count() FROM " + table
        + " GROUP BY id HAVING count() > 1").split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t");
      copies.put(Long.parseLong(f[0]), Integer.parseInt(f[1]));
    }
    for (Map.Entry<Long, Integer> e : copies.entrySet()) {
      int extra = e.getValue() - 1;
      duplicates += extra;
      unexplained += Math.max(0, extra - replayable.getOrDefault(e.getKey(), 0));
    }
    assertThat(server.query(Event.wrongRows(table))).isEqualTo("0\n");
    return new Outcome(seed, distinct, missing, duplicates, unexplained, log.failedAttempts());
  }
}
