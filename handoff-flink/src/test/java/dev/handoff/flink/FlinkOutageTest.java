package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.ChunkPool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server goes away mid-job: SIGKILLed and restarted, or stalled behind a proxy that accepts
 * and never answers. No row may be lost; while stalled, back-pressure must reach the source and
 * the bytes held stay within the budget.
 */
class FlinkOutageTest {
  static final int ROWS = 300_000;
  static final long BUDGET = 2L << 20;
  static final int CHUNK = 256 << 10;
  static final ConcurrentHashMap<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setConfiguration(CapturingReporter.install(new Configuration()))
          .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  /** Counts the rows handed to the sink, per run. */
  static final class Counting implements MapFunction<Event, Event> {
    private final String run;

    Counting(String run) {
      this.run = run;
      EMITTED.put(run, new AtomicLong());
    }

    @Override
    public Event map(Event e) {
      EMITTED.get(run).incrementAndGet();
      return e;
    }
  }

  @Test
  void serverKilledAndRestartedMidJob_noRowIsLost() throws Exception {
    try (ClickHouseServer server = ClickHouseServer.start()) {
      String db = server.uniqueDatabase("kill");
      JobClient job = start(server, db, server.httpUrl(), Duration.ofMinutes(2), 0);
      try {
        awaitEmitted(db, 60_000);
        kill(server.pid());
        Thread.sleep(1_000);
        server.resume();
        job.getJobExecutionResult().get(3, TimeUnit.MINUTES);
      } finally {
        cancel(job);
      }
      assertNoLoss(server, db);
    }
  }

  @Test
  void stalledServer_backPressureReachesTheSource_budgetHolds_thenRecovers() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("stall");
    try (StallingProxy proxy = new StallingProxy(server.httpPort())) {
      JobClient job = start(server, db, proxy.url(), Duration.ofMinutes(2), 0);
      try {
        stallAndCheckBackPressure(proxy, db);
        proxy.resume();
        job.getJobExecutionResult().get(3, TimeUnit.MINUTES);
      } finally {
        cancel(job);
      }
      assertNoLoss(server, db);
    }
  }

  private static void stallAndCheckBackPressure(StallingProxy proxy, String db)
      throws InterruptedException {
    awaitEmitted(db, 60_000);
    proxy.stall();
    Thread.sleep(3_000); // the budget fills, the writers block
    long before = EMITTED.get(db).get();
    long maxBudget = 0;
    for (int i = 0; i < 20; i++) {
      Thread.sleep(100);
      for (long b : CapturingReporter.values(db, "budgetInUseBytes")) {
        maxBudget = Math.max(maxBudget, b);
      }
    }
    long after = EMITTED.get(db).get();
    assertThat(after - before).as("rows emitted by the source in 2 s of stall").isZero();
    assertThat(CapturingReporter.values(db, "budgetInUseBytes")).hasSize(2);
    // The chunk that finds the budget full is still taken (push never rejects): at most one
    // chunk's array over the limit, and one open chunk per shard besides.
    assertThat(maxBudget).as("bytes sealed and held per subtask").isPositive()
        .isLessThanOrEqualTo(BUDGET + ChunkPool.arrayLengthFor(CHUNK));
  }

  @Test
  void stalledServer_retriesRunOut_theJobFailsOverAndLosesNothing() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("stallfo");
    try (StallingProxy proxy = new StallingProxy(server.httpPort())) {
      JobClient job = start(server, db, proxy.url(), Duration.ofSeconds(2), 100);
      try {
        awaitEmitted(db, 60_000);
        proxy.stall();
        Thread.sleep(6_000); // retries run out: checkpoints fail, the job restarts
        proxy.resume();
        job.getJobExecutionResult().get(3, TimeUnit.MINUTES);
        assertThat(CapturingReporter.sum(db, "numRestarts")).as("restarts").isPositive();
      } finally {
        cancel(job);
      }
      assertNoLoss(server, db);
    }
  }

  private static JobClient start(ClickHouseServer server, String db, String url,
      Duration retryFor, int restarts) throws Exception {
    server.execute("CREATE TABLE " + db + ".events " + Event.COLUMNS);
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(2);
    env.enableCheckpointing(200);
    env.fromSource(new DataGeneratorSource<>(Event::of, ROWS,
                RateLimiterStrategy.perSecond(60_000), TypeInformation.of(Event.class)),
            WatermarkStrategy.noWatermarks(), "events")
        .map(new Counting(db))
        .sinkTo(HandoffSink.forRecords(Event.class).setUrl(url).setTable(db, "events")
            .setBudgetBytes(BUDGET).setChunkTargetBytes(CHUNK)
            .setTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1))
            .setRetry(1_000, Duration.ofMillis(50), Duration.ofMillis(500), retryFor)
            .build());
    return env.executeAsync("outage-" + db);
  }

  private static void awaitEmitted(String run, long rows) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (EMITTED.get(run).get() < rows) {
      assertThat(System.nanoTime() - end).as("the job got going").isNegative();
      Thread.sleep(20);
    }
  }

  private static void assertNoLoss(ClickHouseServer server, String db) {
    String table = db + ".events";
    assertThat(server.query("SELECT uniqExact(id), min(id), max(id) FROM " + table))
        .isEqualTo(ROWS + "\t0\t" + (ROWS - 1) + "\n");
    assertThat(server.query(Event.wrongRows(table))).isEqualTo("0\n");
    System.out.println(db + ": rows " + server.query("SELECT count() FROM " + table).trim()
        + " for " + ROWS + " ids");
  }

  private static void cancel(JobClient job) throws Exception {
    if (!job.getJobStatus().get().isGloballyTerminalState()) {
      job.cancel().get(30, TimeUnit.SECONDS);
    }
  }

  private static void kill(long pid) throws Exception {
    Process p = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }

}
