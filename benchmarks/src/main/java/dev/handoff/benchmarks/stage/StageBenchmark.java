package dev.handoff.benchmarks.stage;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FlowControl;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.benchmarks.encode.Workload;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.clickhouse.sink.DeliveryReport;
import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The real stage path against the encoder alone, on the rows of the encode benchmarks: 100,000
 * pre-generated rows per operation, so the score is rows per second and {@code
 * gc.alloc.rate.norm} is bytes allocated per row. Client-v2's contenders on the same rows are in
 * {@link StageClientV2Benchmark}, run by the same command.
 *
 * <ul>
 *   <li>{@link #encoderAlone}: the format's encoder writing every row into one reused {@link
 *       ChunkBuffer}, a chunk finished ({@code finishChunk}) and the buffer emptied where the
 *       stage would seal: the ceiling of the stage;
 *   <li>{@link #stage}: a real {@link SinkHandoff} (one shard, real {@link ShardQueues} of 8, an
 *       {@link InflightBudget} of 64 MiB, a {@link ChunkPool}, 1 MiB chunks, {@link Ack#NONE}),
 *       its queue polled on the same thread every {@value StageRig#POLL_EVERY} rows and each chunk
 *       settled as a sink worker does: frame written to a null sink, budget released, frame
 *       released, acknowledgements succeeded;
 *   <li>{@link #stageWithoutPool}: the same without the pool, so every seal allocates an array;
 *   <li>{@link #facade}: {@link ClickHouseSink#push} with its own sink worker writing over HTTP
 *       to a {@link NullInsertServer} in this JVM; the worker, the HTTP client and the server
 *       share the machine's cores with the pushing thread.
 * </ul>
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar 'Stage' -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s
 * </pre>
 *
 * <p>The facade sends inserts of up to 16 MiB; {@code -jvmArgsAppend
 * -Dbench.facadeInsertMiB=64} gives it the builder's default instead.
 */
@State(Scope.Thread)
@Fork(jvmArgs = {RowLayout.HEAP, RowLayout.HEAP_MIN, RowLayout.YOUNG})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Workload.ROWS)
public class StageBenchmark {
  /** The rows: {@code narrow}, {@code wide} (Double decimals) or {@code fixedWidth}. */
  @Param({"narrow", "wide", "fixedWidth"})
  public String schema;

  /** The encoder: {@code rowbinary} or {@code native}. */
  @Param({"rowbinary", "native"})
  public String format;

  private Object[][] rows;
  private Workload workload;

  private RowEncoder<Object[]> encoder;
  private ChunkBuffer buffer;

  private StageRig rig;
  private final NullSink nullSink = new NullSink();

  private NullInsertServer server;
  private ClickHouseSink<Object[]> sink;
  private long blockedPushes;
  private long blockedNanos;

  /** Returns the rows of the named schema; the wide one with Double decimals. */
  static Workload workload(String schema) {
    return switch (schema) {
      case "narrow" -> Workload.narrow(Workload.ROWS, 42);
      case "wide" -> Workload.wide(Workload.ROWS, 42, Workload.DecimalForm.DOUBLE);
      case "fixedWidth" -> Workload.fixedWidth(Workload.ROWS, 42);
      default -> throw new IllegalArgumentException("schema " + schema);
    };
  }

  /**
   * Builds only what the measured method uses. A fork runs exactly one encoder instance over the
   * rows: the encoders compile a method handle program per instance, and a second instance
   * running in the same JVM (an equivalence check here, say) changes how the JIT compiles the
   * first one's. The check that the stage writes the encoder's bytes is {@code
   * StageEquivalenceTest}'s, for that reason.
   */
  @Setup
  public void setup(BenchmarkParams params) throws IOException {
    workload = workload(schema);
    rows = workload.rows();
    RowLayout.tenure();
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    switch (method) {
      case "encoderAlone" -> {
        encoder = StageRig.encoder(workload, format);
        buffer = new ChunkBuffer(ChunkPool.arrayLengthFor(StageRig.TARGET_BYTES));
      }
      case "stage" -> rig = new StageRig(StageRig.encoder(workload, format), true);
      case "stageWithoutPool" -> rig = new StageRig(StageRig.encoder(workload, format), false);
      case "facade" -> buildFacade();
      default -> throw new IllegalStateException("no setup for " + method);
    }
  }

  private void buildFacade() throws IOException {
    server = new NullInsertServer();
    // The settings of the end-to-end runs of issue 6 (docs/benchmarks.md), with the stage's queue:
    // inserts of up to 16 MiB, a quarter of the budget, so the worker writes while the pusher
    // fills more. -Dbench.facadeInsertMiB=64 gives the facade's default (and ingest's) instead.
    long insertBytes = Long.getLong("bench.facadeInsertMiB", 16L) << 20;
    sink = ClickHouseSink.forObjectArrays()
        .url(server.url())
        .table("bench")
        .schema(workload.handoffSchema())
        .format(format.equals("native") ? InsertFormat.NATIVE : InsertFormat.ROW_BINARY)
        .shards(1, StageRig.QUEUE_CAPACITY)
        .chunkTargetBytes(StageRig.TARGET_BYTES)
        .budgetBytes(StageRig.BUDGET_BYTES)
        .maxInsert(insertBytes, 1_000_000)
        .onBadRow(ErrorPolicy.FAIL)
        // Uncompressed, as every run in docs/benchmarks.md before LZ4 became the default.
        .compression(ClickHouseHttpOptions.Compression.NONE)
        .build();
  }

  /** Ends the trial: the stage must never have parked, and the facade must deliver everything. */
  @TearDown
  public void tearDown() {
    if (rig != null) {
      rig.finish(nullSink);
      System.out.printf("%n[stage] %s %s: %d chunks settled, %d polls found parked chunks,"
          + " budget left %d, pool %s%n", schema, format, rig.chunksSettled, rig.parkEvents,
          rig.budget.inflightBytes(), rig.pool);
      if (rig.parkEvents > 0) {
        throw new IllegalStateException("chunks parked: the queue was polled too rarely");
      }
    }
    if (sink != null) {
      long serverAllocated = server.allocatedBytes();
      DeliveryReport r = sink.close(Duration.ofSeconds(60));
      System.out.printf("%n[facade] %s %s: %s; %d blocked pushes waited %.1f s in awaitRoom;"
          + " server: %d requests, %.1f MB, its handler thread allocated %.2f bytes per row%n",
          schema, format, r.summary(), blockedPushes, blockedNanos / 1e9, server.requests(),
          server.bodyBytes() / 1e6, (double) serverAllocated / Math.max(1, r.rowsPushed()));
      server.close();
      if (!r.allDelivered()) {
        throw new IllegalStateException("the facade did not deliver everything: " + r.summary());
      }
    }
  }

  /**
   * The encoder alone: every row into one reused buffer, the chunk finished and the buffer
   * emptied where the stage would seal ({@code length + bufferedBytes >= target}), so both write
   * chunks of the same size and Native blocks of the same rows.
   */
  @Benchmark
  public int encoderAlone() {
    ChunkBuffer b = buffer;
    RowEncoder<Object[]> e = encoder;
    for (Object[] row : rows) {
      e.encode(row, b);
      if (b.length() + e.bufferedBytes() >= StageRig.TARGET_BYTES) {
        e.finishChunk(b);
        b.truncate(0);
      }
    }
    return b.length();
  }

  /** The real stage with the chunk pool, each chunk settled as a sink worker settles it. */
  @Benchmark
  public long stage() {
    rig.pushAll(rows, nullSink);
    return nullSink.bytes;
  }

  /** The real stage without a pool: every seal allocates the next chunk's array. */
  @Benchmark
  public long stageWithoutPool() {
    rig.pushAll(rows, nullSink);
    return nullSink.bytes;
  }

  /**
   * The facade: {@link ClickHouseSink#push} per row; when it reports pressure, {@link
   * ClickHouseSink#awaitRoom} waits as a simple program would.
   */
  @Benchmark
  public int facade() throws InterruptedException {
    ClickHouseSink<Object[]> k = sink;
    for (Object[] row : rows) {
      if (k.push(row) == FlowControl.BLOCKED) {
        long t0 = System.nanoTime();
        if (!k.awaitRoom(Duration.ofSeconds(30))) {
          throw new IllegalStateException("no room after 30 s: " + k);
        }
        blockedNanos += System.nanoTime() - t0;
        blockedPushes++;
      }
    }
    return rows.length;
  }

  /**
   * A null sink that reads the last byte of every write (so the frame is touched, as a socket
   * write would) and counts the bytes; no copy, so the time measured is the stage's, not a copy's.
   */
  static final class NullSink extends OutputStream {
    long bytes;
    int last;

    @Override
    public void write(int b) {
      bytes++;
      last = b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      bytes += len;
      if (len > 0) {
        last = b[off + len - 1];
      }
    }
  }
}
