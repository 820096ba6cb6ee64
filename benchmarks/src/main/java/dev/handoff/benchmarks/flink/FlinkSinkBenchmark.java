package dev.handoff.benchmarks.flink;

import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.flink.HandoffSink;
import dev.handoff.flink.HandoffSinkBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * End to end through Flink: the same bounded job (a data generator source of N {@link Event}
 * records, parallelism 2, straight into a sink) on one MiniCluster in this JVM, into one
 * MergeTree table of a local ClickHouse 18.16 it starts, with each contender's sink:
 *
 * <ul>
 *   <li><b>baseline</b>: {@link ClientV2AsyncSink}, the official connector's design (Flink's
 *       AsyncSinkBase, one RowBinary byte array per element, client-v2 inserts);
 *   <li><b>native</b> and <b>rowbinary</b>: {@link HandoffSink#forRecords} in either format,
 *       every other option at its default;
 *   <li><b>discard</b> (reference, writes nothing): Flink's {@link DiscardingSink}, the cost of
 *       the source and the framework alone.
 * </ul>
 *
 * <p>Each contender runs once to warm up, then in rounds (one run of each per round, the order
 * rotated each round). Before a run the table is truncated; after it the table must hold exactly
 * the N rows ({@code count()}, {@code sum(id)} and two more sums). A run's wall time is from the
 * job's submission to its result, so it includes deploying the job; its CPU times are this
 * JVM's process CPU time and the server process's (utime + stime), both over the same span.
 *
 * <p>The job runs with Flink's defaults: object reuse off, so the chained sink gets a copy of
 * each record, as in most jobs. {@code --object-reuse true} turns it on, and {@code --source
 * sequence} replaces the generator source by a number sequence mapped to events: both only make
 * the framework's share smaller (the source's and the copy's CPU is the same for every sink).
 *
 * <pre>
 * mvn -B -ntp -o -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.handoff.benchmarks.flink.FlinkSinkBenchmark \
 *     [--rows 2000000] [--rounds 3] [--parallelism 2] [--baseline-batch 10000] \
 *     [--contenders baseline,native,rowbinary,discard] [--source datagen|sequence] \
 *     [--object-reuse false]
 * </pre>
 */
public final class FlinkSinkBenchmark {
  private static final String TABLE = "events";

  /** The sinks compared. */
  enum Contender {
    BASELINE("baseline: AsyncSinkBase + client-v2 RowBinary"),
    NATIVE("handoff Native"),
    ROWBINARY("handoff RowBinary"),
    DISCARD("reference: DiscardingSink (no ClickHouse)");

    final String label;

    Contender(String label) {
      this.label = label;
    }
  }

  /** One run's measurements, in nanoseconds. */
  record Run(long wallNanos, long clientCpuNanos, long serverCpuNanos) {}

  private final ClickHouseServer server;
  private final MiniCluster cluster;
  private final CpuClocks clocks;
  private final String db;
  private final long rows;
  private final int parallelism;
  private final int baselineBatch;
  private final boolean sequenceSource;
  private final boolean objectReuse;
  private final String expected;

  private FlinkSinkBenchmark(ClickHouseServer server, MiniCluster cluster, long rows,
      int parallelism, int baselineBatch, boolean sequenceSource, boolean objectReuse) {
    this.server = server;
    this.cluster = cluster;
    this.clocks = new CpuClocks(server.pid());
    this.db = server.uniqueDatabase("flink");
    this.rows = rows;
    this.parallelism = parallelism;
    this.baselineBatch = baselineBatch;
    this.sequenceSource = sequenceSource;
    this.objectReuse = objectReuse;
    this.expected = EventGenerator.expectedSums(rows);
    server.execute("CREATE TABLE " + db + "." + TABLE + " (id UInt64, ts DateTime, name String,"
        + " kind String, value Float64, count UInt32) ENGINE = MergeTree ORDER BY (ts, id)");
  }

  /** Runs the benchmark; see the class comment for the options. */
  public static void main(String[] args) throws Exception {
    long rows = 2_000_000;
    int rounds = 3;
    int parallelism = 2;
    int baselineBatch = 10_000;
    boolean sequenceSource = false;
    boolean objectReuse = false;
    List<Contender> contenders = List.of(Contender.values());
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> rows = Long.parseLong(args[i + 1]);
        case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
        case "--parallelism" -> parallelism = Integer.parseInt(args[i + 1]);
        case "--baseline-batch" -> baselineBatch = Integer.parseInt(args[i + 1]);
        case "--source" -> sequenceSource = switch (args[i + 1]) {
          case "datagen" -> false;
          case "sequence" -> true;
          default -> throw new IllegalArgumentException("--source datagen|sequence");
        };
        case "--object-reuse" -> objectReuse = Boolean.parseBoolean(args[i + 1]);
        case "--contenders" -> contenders = Arrays.stream(args[i + 1].split(","))
            .map(s -> Contender.valueOf(s.strip().toUpperCase(Locale.ROOT))).toList();
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    try (ClickHouseServer server = ClickHouseServer.start()) {
      MiniCluster cluster = startCluster(parallelism);
      try {
        FlinkSinkBenchmark bench = new FlinkSinkBenchmark(server, cluster, rows, parallelism,
            baselineBatch, sequenceSource, objectReuse);
        System.out.printf(Locale.ROOT, "server %s (%s), %,d rows, parallelism %d, %d cores,"
            + " JDK %s, baseline batches of %,d, source %s, object reuse %s, load %s%n",
            server.query("SELECT version()").strip(), server.httpUrl(), rows, parallelism,
            Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
            baselineBatch, sequenceSource ? "sequence" : "datagen", objectReuse,
            CpuClocks.loadAverage());
        bench.runAll(contenders, rounds);
      } finally {
        cluster.closeAsync().get();
      }
    }
  }

  private static MiniCluster startCluster(int parallelism) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0"); // other programs on this host may hold 8081
    conf.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
    MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
        .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(parallelism)
        .build());
    cluster.start();
    return cluster;
  }

  private void runAll(List<Contender> contenders, int rounds) throws Exception {
    for (Contender c : contenders) {
      run(c, "warm-up");
    }
    Map<Contender, List<Run>> runs = new EnumMap<>(Contender.class);
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < contenders.size(); k++) {
        Contender c = contenders.get((k + r) % contenders.size());
        runs.computeIfAbsent(c, x -> new ArrayList<>()).add(run(c, "round " + (r + 1)));
      }
    }
    System.out.println();
    Report.print(runs, rows, CpuClocks.loadAverage());
  }

  private Run run(Contender c, String what) throws Exception {
    server.execute("TRUNCATE TABLE " + db + "." + TABLE);
    System.gc();
    Thread.sleep(500); // lets the server finish dropping parts before the clocks start
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(
        parallelism);
    if (objectReuse) {
      env.getConfig().enableObjectReuse();
    }
    DataStream<Event> events = sequenceSource
        ? env.fromSequence(0, rows - 1).map(new EventGenerator()).name("events")
        : env.fromSource(new DataGeneratorSource<>(new EventGenerator(), rows,
            TypeInformation.of(Event.class)), WatermarkStrategy.noWatermarks(), "events");
    events.sinkTo(sink(c)).name(c.name().toLowerCase(Locale.ROOT));
    StreamGraph graph = env.getStreamGraph();
    graph.setJobName("flink-sink-benchmark " + c + " " + what);
    graph.setJobId(new JobID()); // an executor would assign it; the MiniCluster expects one

    long cpu0 = clocks.clientNanos();
    long server0 = clocks.serverNanos();
    long start = System.nanoTime();
    JobID job = cluster.submitJob(graph).get().getJobID();
    JobResult result = cluster.requestJobResult(job).get();
    long wall = System.nanoTime() - start;
    long cpu = clocks.clientNanos() - cpu0;
    long serverCpu = clocks.serverNanos() - server0;
    result.toJobExecutionResult(FlinkSinkBenchmark.class.getClassLoader()); // throws if failed

    String sums = server.query("SELECT count(), sum(id), sum(count), sum(toUInt32(ts)) FROM "
        + db + "." + TABLE).strip();
    String want = c == Contender.DISCARD ? "0\t0\t0\t0" : expected;
    if (!sums.equals(want)) {
      throw new IllegalStateException(c + " (" + what + "): the table holds " + sums
          + ", expected " + want);
    }
    Run run = new Run(wall, cpu, serverCpu);
    System.out.printf(Locale.ROOT, "%-9s %-8s %7.3f s %,11.0f rows/s  client CPU %6.3f s"
        + " (%5.0f ns/row)  server CPU %6.3f s (%5.0f ns/row)%n", what, c, wall / 1e9,
        rows / (wall / 1e9), cpu / 1e9, (double) cpu / rows, serverCpu / 1e9,
        (double) serverCpu / rows);
    return run;
  }

  private Sink<Event> sink(Contender c) {
    return switch (c) {
      case BASELINE -> ClientV2AsyncSink.builder(new EventRowBinaryConverter())
          .url(server.httpUrl()).table(db, TABLE)
          .batching(baselineBatch, baselineBatch * 10)
          .build();
      case NATIVE, ROWBINARY -> handoff(c == Contender.NATIVE ? InsertFormat.NATIVE
          : InsertFormat.ROW_BINARY);
      case DISCARD -> new DiscardingSink<>();
    };
  }

  /**
   * The handoff sink with its defaults but uncompressed, except what {@code -Dbench.lingerMs}
   * and {@code -Dbench.chunkBytes} set (for experiments; the reported runs set neither).
   */
  private Sink<Event> handoff(InsertFormat format) {
    HandoffSinkBuilder<Event> b = HandoffSink.forRecords(Event.class)
        .setUrl(server.httpUrl()).setTable(db, TABLE).setFormat(format)
        // Uncompressed like the client-v2 baseline, and like the runs before LZ4 became the
        // default.
        .setCompression(ClickHouseHttpOptions.Compression.NONE);
    Long linger = Long.getLong("bench.lingerMs");
    if (linger != null) {
      b.setLinger(Duration.ofMillis(linger));
    }
    Integer chunk = Integer.getInteger("bench.chunkBytes");
    if (chunk != null) {
      b.setChunkTargetBytes(chunk);
    }
    return b.build();
  }
}
