package dev.handoff.benchmarks.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.data.ClickHouseFormat;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.benchmarks.encode.Workload;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.core.Chain;
import dev.handoff.core.ChainReport;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Source;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkersReport;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * End-to-end rows per second into a local ClickHouse server (the installed 18.16, started on a
 * free loopback port), for the narrow workload of the encode benchmarks:
 *
 * <ul>
 *   <li><b>ours</b>: the driver ({@link Chain}), the stage ({@link SinkHandoff}, round-robin over N
 *       shards) and the sink workers ({@link SinkWorkers}) writing through the {@link
 *       ClickHouseHttp} writer, in Native and in RowBinary. Timed from the first pull to the last
 *       acknowledged insert.
 *   <li><b>client-v2</b>: every row through client-v2's {@code RowBinaryFormatWriter} into one
 *       array, then that array POSTed as one {@code INSERT ... FORMAT RowBinary}. Timed from the
 *       first row encoded to the server's answer.
 *   <li><b>JSONEachRow</b>: every row through Jackson's generator into one array, then POSTed as
 *       one {@code INSERT ... FORMAT JSONEachRow}.
 * </ul>
 *
 * <p>Each contender runs once to warm up, then {@code --repeats} times, each time into a freshly
 * created table, and each run is checked (row count and column sums equal to the other
 * contenders'). The median run is reported. Not a JMH benchmark: one run is seconds of real I/O
 * against a server process, and the numbers include the server's work.
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.handoff.benchmarks.ingest.IngestThroughput \
 *     [--rows 1000000] [--shards 1,2,4] [--repeats 3]
 * </pre>
 */
public final class IngestThroughput {
  private static final String TABLE = "narrow";
  private static final int BATCH_ROWS = 10_000;
  private static final boolean VERBOSE = Boolean.getBoolean("bench.verbose");
  /*
   * The pipeline's settings default to those of the ingest command (IngestCommand), so "ours"
   * measures what a user gets without tuning; each can be changed with a system property.
   */
  /** Chunk target size (the stage seals at this many bytes). */
  private static final int CHUNK_BYTES = Integer.getInteger("bench.chunkBytes", 1 << 20);
  /** Chunks each shard queue holds before the stage parks chunks and the driver backs off. */
  private static final int QUEUE_CHUNKS = Integer.getInteger("bench.queueChunks", 4);
  /** The in-flight byte budget shared by the stage and the workers. */
  private static final long BUDGET_BYTES = Long.getLong("bench.budgetBytes", 64L << 20);
  /** The most bytes a worker merges into one insert. */
  private static final long INSERT_BYTES = Long.getLong("bench.insertBytes", 16L << 20);
  /** The most rows a worker merges into one insert. */
  private static final int INSERT_ROWS = Integer.getInteger("bench.insertRows", 1_000_000);
  /** How long a worker waits for more chunks to merge. */
  private static final long LINGER_MS = Long.getLong("bench.lingerMs", 200);
  /** The driver's longest back-off while the stage is blocked. */
  private static final long BACKOFF_MAX_MS = Long.getLong("bench.backoffMaxMs", 100);

  private final ClickHouseServer server;
  private final String db;
  private final Object[][] rows;
  private final Workload workload;
  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private String expectedSums;

  private IngestThroughput(ClickHouseServer server, Workload workload) {
    this.server = server;
    this.workload = workload;
    this.rows = workload.rows();
    this.db = server.uniqueDatabase("bench");
  }

  /** Runs the benchmark; see the class comment for the options. */
  public static void main(String[] args) throws Exception {
    int rowCount = 1_000_000;
    int repeats = 3;
    int[] shards = {1, 2, 4};
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> rowCount = Integer.parseInt(args[i + 1]);
        case "--repeats" -> repeats = Integer.parseInt(args[i + 1]);
        case "--shards" -> shards = Arrays.stream(args[i + 1].split(","))
            .mapToInt(Integer::parseInt).toArray();
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Workload workload = Workload.narrow(rowCount, 42);
    try (ClickHouseServer server = ClickHouseServer.start()) {
      IngestThroughput bench = new IngestThroughput(server, workload);
      System.out.printf(Locale.ROOT, "server %s (%s), %,d narrow rows, %d cores, JDK %s%n",
          server.query("SELECT version()").strip(), server.httpUrl(), rowCount,
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
      Map<String, Contender> contenders = new LinkedHashMap<>();
      contenders.put("client-v2 RowBinaryFormatWriter, one POST", bench::clientV2);
      contenders.put("Jackson JSONEachRow, one POST", bench::jsonEachRow);
      for (int n : shards) {
        contenders.put("ours Native, " + n + " shard(s)", () -> bench.ours("Native", n));
        contenders.put("ours RowBinary, " + n + " shard(s)", () -> bench.ours("RowBinary", n));
      }
      Map<String, List<Double>> rates = new LinkedHashMap<>();
      for (Map.Entry<String, Contender> c : contenders.entrySet()) {
        bench.run(c.getKey() + " (warm-up)", c.getValue());
      }
      for (int r = 0; r < repeats; r++) {
        for (Map.Entry<String, Contender> c : contenders.entrySet()) {
          rates.computeIfAbsent(c.getKey(), k -> new ArrayList<>())
              .add(bench.run(c.getKey(), c.getValue()));
        }
      }
      double base = median(rates.get("client-v2 RowBinaryFormatWriter, one POST"));
      System.out.println();
      List<Double> baseRuns = rates.get("client-v2 RowBinaryFormatWriter, one POST");
      System.out.println("| contender | rows/s (median of " + repeats + ") | runs | vs client-v2"
          + " (medians) | vs client-v2 (median of per-round ratios) |");
      System.out.println("| --- | ---: | --- | ---: | ---: |");
      for (Map.Entry<String, List<Double>> e : rates.entrySet()) {
        double m = median(e.getValue());
        StringBuilder runs = new StringBuilder();
        for (double v : e.getValue()) {
          runs.append(runs.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2fM",
              v / 1e6));
        }
        List<Double> ratios = new ArrayList<>();
        for (int r = 0; r < e.getValue().size(); r++) {
          ratios.add(e.getValue().get(r) / baseRuns.get(r));
        }
        System.out.printf(Locale.ROOT, "| %s | %,.0f | %s | %.2fx | %.2fx |%n", e.getKey(), m,
            runs, m / base, median(ratios));
      }
    }
  }

  @FunctionalInterface
  private interface Contender {
    void run() throws Exception;
  }

  private double run(String name, Contender contender) throws Exception {
    server.execute("DROP TABLE IF EXISTS " + db + "." + TABLE);
    server.execute("CREATE TABLE " + db + "." + TABLE + " (ts DateTime, id UInt64,"
        + " value Float64, flag UInt8, s12 String, s40 String) ENGINE = MergeTree ORDER BY ts");
    System.gc();
    long start = System.nanoTime();
    contender.run();
    long nanos = System.nanoTime() - start;
    String sums = server.query("SELECT count(), sum(toUInt32(ts)), sum(id % 1000003),"
        + " round(sum(value)), sum(flag), sum(length(s12)), sum(length(s40)) FROM " + db + "."
        + TABLE).strip();
    if (expectedSums == null) {
      expectedSums = sums;
    } else if (!expectedSums.equals(sums)) {
      throw new IllegalStateException(name + ": table holds " + sums + ", expected "
          + expectedSums);
    }
    if (!sums.startsWith(rows.length + "\t")) {
      throw new IllegalStateException(name + ": table holds " + sums);
    }
    double rate = rows.length / (nanos / 1e9);
    System.out.printf(Locale.ROOT, "%-50s %8.3f s  %,12.0f rows/s%n", name, nanos / 1e9, rate);
    return rate;
  }

  /** The pipeline: Chain, SinkHandoff over {@code shards} shards, SinkWorkers, our writer. */
  private void ours(String format, int shards) throws Exception {
    // Uncompressed, as every run in docs/benchmarks.md before LZ4 became the default.
    ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url(server.httpUrl()).compression(ClickHouseHttpOptions.Compression.NONE).build());
    TableSchema schema = http.schema(db, TABLE);
    RowEncoder<Object[]> encoder = Providers.encoder(
        format.equals("Native") ? "native" : "rowbinary")
        .create(schema, RowAccessors.objectArray(), Map.of());
    InsertWriter writer = http.writer(db, TABLE, schema, format);
    ShardQueues queues = new ShardQueues(shards, QUEUE_CHUNKS);
    InflightBudget budget = new InflightBudget(BUDGET_BYTES);
    SinkHandoff<Object[]> stage = SinkHandoff.builder(encoder, queues)
        .router(Routers.roundRobin())
        .budget(budget)
        .config(ChunkConfig.defaults().withTargetBytes(CHUNK_BYTES))
        .build();
    SinkWorkers workers = SinkWorkers.builder(queues, budget, writer)
        .maxInsertBytes(INSERT_BYTES)
        .maxInsertRows(INSERT_ROWS)
        .linger(Duration.ofMillis(LINGER_MS))
        .build();
    SourceAcks acks = new SourceAcks("bench");
    int[] next = {0};
    Source<Object[]> source = out -> {
      if (next[0] >= rows.length) {
        return false;
      }
      SourceBatch batch = acks.begin();
      int end = Math.min(rows.length, next[0] + BATCH_ROWS);
      for (int i = next[0]; i < end; i++) {
        out.push(new Envelope<>(rows[i], new RecordMeta(0, i), batch));
      }
      next[0] = end;
      batch.complete();
      return true;
    };
    workers.start();
    long t0 = System.nanoTime();
    ChainReport chain = Chain.builder(source, stage)
        .backoff(Duration.ofMillis(1), Duration.ofMillis(BACKOFF_MAX_MS)).build().run();
    long t1 = System.nanoTime();
    WorkersReport report = workers.shutdown(Duration.ofSeconds(120));
    if (VERBOSE) {
      long inserts = report.shards().stream().mapToLong(WorkersReport.PerShard::inserts).sum();
      System.out.printf(Locale.ROOT, "  chain %.3f s, drain %.3f s, %d inserts%n",
          (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9, inserts);
    }
    if (report.rowsWritten() != rows.length || !report.drained()) {
      throw new IllegalStateException("workers wrote " + report.rowsWritten() + " of "
          + rows.length + " rows: " + report + "; chain " + chain);
    }
    if (acks.pendingBatches() != 0 || !acks.failedBatchIds().isEmpty()) {
      throw new IllegalStateException("batches not delivered: pending " + acks.pendingBatches()
          + ", failed " + acks.failedBatchIds());
    }
  }

  /** client-v2's RowBinaryFormatWriter into one array, POSTed as one insert. */
  private void clientV2() throws Exception {
    long start = System.nanoTime();
    Sink sink = new Sink(rows.length * 80);
    RowBinaryFormatWriter w = new RowBinaryFormatWriter(sink, workload.clientV2Schema(),
        ClickHouseFormat.RowBinary);
    int columns = workload.columns().size();
    for (Object[] row : rows) {
      for (int c = 0; c < columns; c++) {
        w.setValue(c + 1, row[c]);
      }
      w.commitRow();
    }
    long encoded = System.nanoTime();
    post("RowBinary", sink);
    if (VERBOSE) {
      System.out.printf(Locale.ROOT, "  encode %.3f s, POST %.3f s%n", (encoded - start) / 1e9,
          (System.nanoTime() - encoded) / 1e9);
    }
  }

  /** Jackson's generator, one JSON object per line, into one array, POSTed as one insert. */
  private void jsonEachRow() throws Exception {
    Sink sink = new Sink(rows.length * 160);
    JsonFactory json = new JsonFactory().setRootValueSeparator(null);
    try (JsonGenerator g = json.createGenerator(sink)) {
      for (Object[] row : rows) {
        workload.writeJson(g, row);
        g.writeRaw('\n');
      }
    }
    post("JSONEachRow", sink);
  }

  private void post(String format, Sink body) throws IOException, InterruptedException {
    String sql = "INSERT INTO " + db + "." + TABLE + " FORMAT " + format;
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.httpUrl() + "/?query="
            + URLEncoder.encode(sql, UTF_8)))
        .timeout(Duration.ofMinutes(5))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.array(), 0, body.size()))
        .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new UncheckedIOException(new IOException(format + " insert failed: HTTP "
          + response.statusCode() + ": " + response.body()));
    }
  }

  /** A growing, unsynchronized byte array stream that lends out its array. */
  private static final class Sink extends OutputStream {
    private byte[] bytes;
    private int size;

    Sink(int capacity) {
      bytes = new byte[capacity];
    }

    byte[] array() {
      return bytes;
    }

    int size() {
      return size;
    }

    @Override
    public void write(int b) {
      if (size == bytes.length) {
        bytes = Arrays.copyOf(bytes, bytes.length * 2);
      }
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] src, int offset, int len) {
      if (len > bytes.length - size) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + len));
      }
      System.arraycopy(src, offset, bytes, size, len);
      size += len;
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
