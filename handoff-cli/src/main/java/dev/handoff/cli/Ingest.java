package dev.handoff.cli;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.json.JsonRows;
import dev.handoff.core.Chain;
import dev.handoff.core.ChainReport;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.sink.DeadLetterDirectory;
import dev.handoff.core.sink.PermanentPolicy;
import dev.handoff.core.sink.RetryPolicy;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkerMetrics;
import dev.handoff.core.sink.WorkersReport;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one {@code ingest}: JSON lines, through the driver ({@link Chain}), the stage ({@link
 * SinkHandoff}) and the sink workers ({@link SinkWorkers}), into a table over HTTP or into insert
 * files, with checkpoints, replays and a summary.
 *
 * <p>The pipeline thread is the caller's: it runs the chain, whose source ({@link
 * JsonLinesSource}) reads the input and replays failed batches until every batch resolved. The
 * workers run one thread per shard; a {@link Monitor} thread writes the checkpoint and draws the
 * progress bar.
 */
final class Ingest {

  /** How long the workers may take to write what is queued once the input is done. */
  static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

  /** How long a run stopped by SIGINT or SIGTERM may take to finish before the JVM exits. */
  static final Duration SIGNAL_GRACE = Duration.ofSeconds(10);

  /** The encoders' option naming the zone of date-time text without an offset. */
  static final String TIMEZONE_OPTION = "timezone";

  /** The longest wait of an idle sink worker on its queue (see {@link SinkWorkers.Builder}). */
  static final Duration WORKER_POLL = Duration.ofMillis(5);

  /** How long the driver's final drain waits after a {@code --deadline} stop. */
  static final Duration DEADLINE_DRAIN = Duration.ofSeconds(2);

  /** How many chunk arrays the pool keeps allocated ahead of the pipeline thread's takes. */
  static final int ARRAYS_AHEAD = 4;

  /**
   * The checked options of a run.
   *
   * @param input the input file, or {@code null} for stdin
   * @param deadLetter the dead-letter directory; {@code null} fails rejected inserts' batches
   * @param schema the columns given with {@code --schema} ({@code --out} mode), else {@code null}
   * @param progress whether to draw the progress bar; {@code null} when stderr is a terminal
   * @param compression how insert bodies are compressed ({@code --compression})
   * @param zstdLevel the ZSTD level ({@code --zstd-level})
   * @param parseThreads the threads that parse the input
   * @param strict whether a field that names no column makes the row bad
   * @param timezone the zone of date-time text without an offset ({@code --timezone}), or
   *     {@code null} for the server's
   * @param rejects where skipped rows' lines go ({@code --rejects}), or {@code null}
   * @param inputFormat CSV or TSV with a header line, or {@code null} for JSON lines
   */
  record Settings(String url, String database, String table, Path input,
      IngestCommand.Format format, String user, String password, int shards, int chunkBytes,
      long insertBytes, int insertRows, Duration linger, long budget, int queueCapacity,
      int batchRows, boolean skipBadRows, Path deadLetter, Duration retryMaxElapsed,
      Duration requestTimeout, int maxReplays, Path checkpoint, boolean resume, Path out,
      TableSchema schema, Duration deadline, Boolean progress,
      ClickHouseHttpOptions.Compression compression, int zstdLevel,
      int parseThreads, boolean strict, ZoneId timezone, Path rejects,
      DelimitedText.Kind inputFormat) {

    /** Returns the input as given: its path, or {@code -}. */
    String inputName() {
      return input == null ? "-" : input.toString();
    }

    /** Returns {@code db.table}, or {@code null} in {@code --out} mode without a table. */
    String qualifiedTable() {
      return table == null ? null : database + "." + table;
    }
  }

  /** Where inserts go: a server over HTTP, or files. */
  interface Target extends AutoCloseable {
    /** Returns the target table's columns. */
    TableSchema schema() throws IOException;

    /** Returns the writer of inserts of {@code schema}'s columns. */
    InsertWriter writer(TableSchema schema) throws IOException;

    /**
     * Returns the time zone that date-time text without an offset is read in for columns that
     * name none: the server's ({@code timezone()}); UTC where there is no server.
     */
    default ZoneId timezone() throws IOException {
      return ZoneOffset.UTC;
    }

    /** Returns the run id in the query ids of {@code writer}'s inserts, or {@code null}. */
    default String runId(InsertWriter writer) {
      return null;
    }

    /** See {@link InsertJournal.CommittedInserts#of}; empty where nothing can say. */
    default Optional<List<String>> committedInserts(String runId) throws IOException {
      return Optional.empty();
    }

    @Override
    void close();
  }

  private final Settings s;
  private final PrintWriter err;
  private final Consumer<Monitor.Sample> observer;
  private final Target target;
  private final CountDownLatch finished = new CountDownLatch(1);
  /** Why the run was asked to stop early (a signal, the deadline), or {@code null}. */
  private volatile String stopCause;

  /**
   * Creates a run.
   *
   * @param err where the progress bar goes
   * @param observer sees every sample the monitor takes (tests watch the budget with it)
   */
  Ingest(Settings settings, PrintWriter err, Consumer<Monitor.Sample> observer) {
    this(settings, err, observer, null);
  }

  /**
   * Creates a run that writes to {@code target} instead of the server or the files the settings
   * name (tests give it writers that fail on purpose); {@code null} picks the usual one.
   */
  Ingest(Settings settings, PrintWriter err, Consumer<Monitor.Sample> observer, Target target) {
    this.s = settings;
    this.err = err;
    this.observer = observer;
    this.target = target;
  }

  /**
   * Runs the ingest, prints the summary on {@code out} and returns the exit status.
   *
   * @throws UncheckedIOException if the run cannot start (the message says why)
   */
  int run(PrintWriter out) {
    IngestSummary summary;
    try (Target t = target != null ? target
        : s.out() != null ? new FilesTarget(s) : new HttpTarget(s, err)) {
      summary = run(t);
      out.println(summary.toJson());
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException("interrupted", e));
    } finally {
      finished.countDown();
    }
    return summary.ok() ? Main.OK : Main.ORACLE_FAILED;
  }

  /**
   * Registers a hook that, when the JVM is asked to exit (SIGINT, SIGTERM), stops reading and
   * waits up to {@link #SIGNAL_GRACE} for the run to write what it can, its last checkpoint and
   * its summary. Returns the hook, to remove once the run is over.
   */
  private Thread onSignal(Chain<?> chain) {
    Thread hook = new Thread(() -> {
      stopCause = "a signal";
      chain.requestStop();
      try {
        finished.await(SIGNAL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "handoff-ingest-signal");
    try {
      Runtime.getRuntime().addShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      chain.requestStop();
    }
    return hook;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running: it waits for this run to finish
    }
  }

  private IngestSummary run(Target target) throws IOException, InterruptedException {
    long startNanos = System.nanoTime();
    TableSchema schema = s.schema() != null ? s.schema() : target.schema();
    CheckpointFile checkpoint = s.checkpoint() == null ? null : new CheckpointFile(s.checkpoint());
    CheckpointFile.Position from = CheckpointFile.Position.of(s.inputName(), 0, 0);
    if (s.resume()) {
      Optional<CheckpointFile.Position> p = checkpoint.read();
      if (p.isPresent()) {
        from = p.get();
        long size = Files.size(s.input());
        if (from.offset() > size) {
          throw new IOException("checkpoint " + checkpoint.path() + " is at byte "
              + from.offset() + ", past the end of " + s.input() + " (" + size
              + " bytes): not this input?");
        }
        if (!Path.of(from.input()).toAbsolutePath().normalize()
            .equals(s.input().toAbsolutePath().normalize())) {
          err.println("ingest: warning: checkpoint " + checkpoint.path() + " was written for "
              + from.input() + "; resuming " + s.input() + " at byte " + from.offset());
          err.flush();
        }
      } else if (Files.exists(InsertJournal.of(checkpoint.path()))) {
        // A run killed before its first checkpoint may have written rows all the same.
        from = new CheckpointFile.Position(s.inputName(), 0, 0, 0, 0, 0, false);
      }
    }
    String recounted = null;
    if (!from.clean() && checkpoint != null) {
      // Killed: count what it wrote past its checkpoint from its journal and the server's log.
      Optional<InsertJournal.Recount> r = InsertJournal.recount(
          InsertJournal.of(checkpoint.path()), from, target::committedInserts);
      if (r.isPresent()) {
        from = new CheckpointFile.Position(from.input(), from.offset(), from.rows(),
            from.lines(), r.get().writtenPast(), r.get().writtenUntil(), true);
        recounted = "the run that wrote the checkpoint resumed from did not end cleanly"
            + " (killed?): the rows it wrote past the checkpoint were counted from its insert"
            + " journal and the server's query log"
            + (r.get().unplaced() > 0 ? ", except " + r.get().unplaced() + " rows of parts of"
            + " chunks whose place is unknown" : "");
      }
    }
    long offset = from.offset();
    long linesBefore = from.lines() >= 0 ? from.lines() : offset == 0 ? 0
        : CheckpointFile.linesBefore(s.input(), offset);
    List<String> header = List.of();
    if (s.inputFormat() != null) {
      // The first line names the columns; rows start after it.
      InputStream in = s.input() == null ? System.in : Files.newInputStream(s.input());
      DelimitedText.Header h;
      try {
        h = DelimitedText.readHeader(in, s.inputName(), s.inputFormat());
      } finally {
        if (s.input() != null) {
          in.close();
        }
      }
      header = h.names();
      if (offset < h.end()) {
        offset = h.end();
        linesBefore = 1;
      }
    }
    SkipReasons skips = new SkipReasons();
    RowEncoder<BlockRows.Row> encoder;
    ZoneId zone = ZoneOffset.UTC;
    String zoneText;
    if (s.timezone() != null) {
      zone = s.timezone();
      zoneText = zone.getId() + " (--timezone)";
    } else if (!SchemaText.hasDateTimeWithoutZone(schema)) {
      zoneText = "UTC (not used: no DateTime column without a zone of its own)";
    } else if (s.out() != null) {
      zoneText = "UTC (no server: UTC unless --timezone)";
    } else {
      try {
        zone = target.timezone();
        zoneText = zone.getId() + " (the server's)";
      } catch (IOException e) {
        zoneText = "UTC (the server's could not be read: " + e.getMessage() + ")";
        err.println("ingest: warning: " + e.getMessage() + "; reading date-time text without an"
            + " offset as UTC (give --timezone to choose)");
        err.flush();
      }
    }
    try {
      encoder = Providers.encoder(s.format().encoder)
          .create(schema, new BlockRows(JsonRows.accessor(schema), schema.size()),
              Map.of(TIMEZONE_OPTION, zone.getId()));
    } catch (IllegalArgumentException e) {
      throw new IOException("cannot encode table " + s.qualifiedTable() + " as "
          + s.format().clickhouse + ": " + e.getMessage(), e);
    }
    encoder = skips.wrap(encoder);
    ShardQueues queues = new ShardQueues(s.shards(), s.queueCapacity());
    InflightBudget budget = new InflightBudget(s.budget());
    StageGauges gauges = new StageGauges();
    // New chunk arrays made on a thread of their own: zeroing them and touching their memory
    // the first time would otherwise cost the pipeline thread about as much as encoding.
    ExecutorService allocator = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "handoff-ingest-allocate");
      t.setDaemon(true);
      return t;
    });
    ChunkPool pool = ChunkPool.forBudget(s.chunkBytes(), s.budget(), s.shards());
    pool = pool.allocatingAhead(allocator, Math.min(ARRAYS_AHEAD, pool.maxFree()));
    // The stage skips what the encoder rejects; the source reports it with its line, and stops
    // the run itself under --on-error fail.
    SinkHandoff<BlockRows.Row> stage = SinkHandoff.builder(encoder, queues)
        .name("ingest")
        .router(new BatchRouter())
        .budget(budget)
        // Reused chunk arrays: without them every 1 MiB chunk is a new array to collect.
        .pool(pool)
        .config(new ChunkConfig(s.chunkBytes(), ErrorPolicy.SKIP))
        .metrics(gauges)
        .build();
    InputRanges ranges = new InputRanges(offset, from.rows(), linesBefore, s.maxReplays());
    SourceAcks acks = new SourceAcks("input", 0L, (SourceBatch batch, long cp) ->
        ranges.resolved(batch.batchId(), batch.state() == SourceBatch.State.DELIVERED));
    boolean draw = s.progress() != null ? s.progress() : Monitor.stderrIsTerminal();
    RowReport report = s.rejects() == null ? new RowReport(err, draw)
        : new RowReport(err, draw, s.rejects(), s.resume());
    List<String> columns = new ArrayList<>();
    for (ColumnSpec c : schema.columns()) {
      columns.add(c.name());
    }
    boolean decimals = SchemaText.hasDecimal(schema);
    ColumnPlan plan = ColumnPlan.of(schema, zone);
    List<String> names = header;
    ThreadLocal<LineParser> parsers =
        ThreadLocal.withInitial(() -> new LineParser(columns, decimals, s.strict(),
            s.inputFormat(), names, plan));
    BlockReader blocks = new BlockReader(open(offset), offset, linesBefore, s.batchRows(),
        s.parseThreads(), s.input() != null, b -> {
          parsers.get().parse(b);
          return b;
        });
    JsonLinesSource source = new JsonLinesSource(blocks, offset, s.input(), !s.skipBadRows(),
        acks, ranges, skips, report,
        new LineParser(columns, decimals, s.strict(), s.inputFormat(), names, plan),
        stage);

    InsertWriter inner = target.writer(schema);
    String runId = target.runId(inner);
    InsertJournal journal = checkpoint == null || runId == null ? null
        : InsertJournal.start(InsertJournal.of(checkpoint.path()), runId, offset,
            from.writtenPast(), from.writtenUntil());
    if (journal != null) {
      inner = journal.wrap(inner, s.shards());
      source.journal(journal, s.shards());
    }
    DoubtCountingWriter writer = new DoubtCountingWriter(inner);
    SinkWorkers.Builder wb = SinkWorkers.builder(queues, budget, writer)
        .maxInsertBytes(s.insertBytes())
        .maxInsertRows(s.insertRows())
        .linger(s.linger())
        // An idle worker notices the end of the run after at most one poll: 5 ms, not the
        // default 50 ms that every run would wait out at its end.
        .pollInterval(WORKER_POLL)
        .retry(new RetryPolicy(Integer.MAX_VALUE, Duration.ofMillis(100),
            Duration.ofSeconds(5), 0.2, s.retryMaxElapsed()))
        .seed(startNanos);
    if (s.deadLetter() != null) {
      wb.onPermanent(PermanentPolicy.DEAD_LETTER)
          .deadLetters(new DeadLetterDirectory(s.deadLetter(), s.format().option));
    } else {
      wb.onPermanent(PermanentPolicy.FAIL_ACKS);
    }
    GiveUp giveUp = new GiveUp(s, err, () -> stopCause != null);
    wb.listener(giveUp);
    SinkWorkers workers = wb.build();
    source.afterLastSeal(workers::endLinger);
    Monitor monitor = new Monitor(() -> {
      WorkerMetrics.PerShard t = workers.metrics().total();
      return new Monitor.Sample(source.rowsRead(), t.rowsWritten(), t.bytesWritten(),
          budget.inflightBytes(), gauges.parkedChunks, t.retries(), ranges.batchesReplayed());
    }, observer, checkpoint, s.inputName(), ranges, err, draw);
    monitor.carried(new Monitor.Carried(from.writtenPast(), from.writtenUntil()));

    Chain<BlockRows.Row> chain = Chain.builder(source, stage)
        .drainTimeout(s.deadline() == null ? Duration.ofSeconds(30) : DEADLINE_DRAIN)
        .build();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "handoff-ingest-deadline");
      t.setDaemon(true);
      return t;
    });
    ChainReport report0;
    String error = null;
    WorkersReport written;
    CheckpointFile.Position last;
    giveUp.chain(chain);
    Thread hook = onSignal(chain);
    try (blocks) {
      workers.start();
      monitor.start();
      if (s.deadline() != null) {
        timer.schedule(() -> {
          stopCause = "the --deadline of " + s.deadline();
          chain.requestStop();
        }, s.deadline().toMillis(), TimeUnit.MILLISECONDS);
      }
      try {
        report0 = chain.run();
        if (report0.fatal().isPresent()) {
          error = "the stage stopped: " + report0.fatal().get();
        } else if (source.stopReason() != null) {
          error = source.stopReason();
        } else if (giveUp.reason() != null) {
          error = giveUp.reason() + "; rerun with --resume once the server takes inserts again";
        } else if (stopCause != null) {
          error = "stopped by " + stopCause + " before the end of the input; rerun with"
              + " --resume to continue from the checkpoint";
        } else if (ranges.waiting()) {
          error = "the driver ended with rows not yet written";
        }
      } catch (UncheckedIOException e) {
        error = e.getMessage();
      } finally {
        timer.shutdownNow();
        allocator.shutdownNow();
        written = workers.shutdown(stopCause == null && giveUp.reason() == null ? SHUTDOWN_GRACE
            : DEADLINE_DRAIN);
        writer.close();
        if (journal != null) {
          journal.close();
        }
      }
    } finally {
      removeHook(hook);
      try {
        monitor.close();
      } finally {
        report.finish();
      }
    }
    last = monitor.position(true);
    IngestSummary summary = summary(source, ranges, skips, written, writer.rowsInDoubt(), from,
        last, startNanos, error, zoneText, recounted);
    monitor.finish(new Monitor.Sample(summary.rowsRead(), summary.rowsWritten(),
        summary.bytesWritten(), 0, 0, summary.retries(), summary.batchesReplayed()));
    return summary;
  }

  private IngestSummary summary(JsonLinesSource source, InputRanges ranges, SkipReasons skips,
      WorkersReport w, long rowsInDoubt, CheckpointFile.Position from,
      CheckpointFile.Position last, long startNanos, String error, String zone,
      String recounted) {
    long deadRows = w.deadLetteredRows();
    long deadInserts = w.shards().stream()
        .mapToLong(WorkersReport.PerShard::deadLetteredInserts).sum();
    long bytes = w.shards().stream().mapToLong(WorkersReport.PerShard::bytesWritten).sum();
    long skipped = skips.total();
    long rowsRead = source.rowsRead();
    long lost = ranges.rowsLost();
    boolean complete = error == null && ranges.outstanding() == 0 && lost == 0;
    String message = error;
    if (message == null && !complete) {
      message = lost + " rows were not written (" + ranges.rangesLost()
          + " batches failed more often than --max-replays allows); rerun with --resume";
    }
    // Rows the run this one resumed had written after its checkpoint: written again here once
    // this run's watermark passed them, else perhaps written again.
    long resumedDuplicates = 0;
    long resumedInDoubt = 0;
    if (from.writtenPast() > 0) {
      if (last.offset() >= from.writtenUntil()) {
        resumedDuplicates = from.writtenPast();
      } else {
        resumedInDoubt = from.writtenPast();
      }
    }
    return new IngestSummary(complete ? "ok" : "incomplete", s.qualifiedTable(),
        s.format().clickhouse, s.inputName(), zone, source.startOffset(), rowsRead, w.rowsWritten(),
        skipped, skips.snapshot(), source.rowsWithUnknownFields(), source.unknownFields(),
        deadRows, deadInserts, w.retries(), ranges.batchesReplayed(), ranges.rowsReplayed(),
        ranges.duplicates() + resumedDuplicates, rowsInDoubt + resumedInDoubt, lost,
        last.writtenPast(), w.abandonedChunks(), bytes, (System.nanoTime() - startNanos) / 1e9,
        last.offset(), last.rows(), s.checkpoint() == null ? null : s.checkpoint().toString(),
        recounted != null ? recounted : from.clean() ? null
            : "the run that wrote the checkpoint resumed from did not end"
            + " cleanly (killed?): rows it wrote that its last checkpoint (written every "
            + Monitor.CHECKPOINT_MILLIS + " ms) did not count, those of batches not resolved"
            + " yet and those written after it, are written again and not counted in"
            + " duplicates",
        message);
  }

  private InputStream open(long offset) throws IOException {
    if (s.input() == null) {
      return System.in;
    }
    FileInputStream in = new FileInputStream(s.input().toFile());
    try {
      if (offset > 0) {
        in.getChannel().position(offset); // not at 0: a named pipe cannot seek
      }
    } catch (IOException e) {
      in.close();
      throw e;
    }
    return in;
  }
}
