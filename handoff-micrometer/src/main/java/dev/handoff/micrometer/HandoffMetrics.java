package dev.handoff.micrometer;

import dev.handoff.api.HandoffClock;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkerMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Binds a sink handoff stage, its in-flight budget and its sink workers to a Micrometer {@link
 * MeterRegistry}.
 *
 * <p>The stage reports its counters once per payload through a {@link StageMetrics.Listener}:
 * pass {@link #stageListener()} to {@code SinkHandoff.Builder.metrics}. Everything else is read
 * when the registry reads a meter: the workers' {@link SinkWorkers#metrics()} snapshot, the
 * budget, and the stage's {@link SinkHandoff#oldestParkedIngestNanos(int)}, which any thread may
 * read. Attach the parts, then call {@link #bindTo}:
 *
 * <pre>{@code
 * HandoffMetrics metrics = new HandoffMetrics("orders", clock);
 * SinkHandoff<Row> stage = SinkHandoff.builder(encoder, queues).metrics(metrics.stageListener())
 *     .clock(clock).build();
 * metrics.stage(stage).budget(budget).workers(workers).bindTo(registry);
 * }</pre>
 *
 * <p>Every meter carries the tag {@code stage} (the name given here); per-shard meters also carry
 * {@code shard}. The meters:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@code handoff.stage.records}</td><td>function counter</td>
 *       <td>{@code outcome=seen|out|skipped|error}</td>
 *       <td>records pushed, encoded into chunks, skipped under {@code SKIP}, rejected by the
 *       encoder</td></tr>
 *   <tr><td>{@code handoff.stage.parked.chunks}, {@code handoff.stage.parked.bytes}</td>
 *       <td>gauge</td><td></td><td>parked now, as of the last payload</td></tr>
 *   <tr><td>{@code handoff.stage.parked.oldest.age}</td><td>time gauge</td><td>{@code shard}</td>
 *       <td>how long ago the oldest parked chunk of the shard got its first row; 0 when none is
 *       parked</td></tr>
 *   <tr><td>{@code handoff.budget.inflight.bytes}, {@code handoff.budget.limit.bytes}</td>
 *       <td>gauge</td><td></td><td>bytes sealed and not yet written or abandoned; the limit</td></tr>
 *   <tr><td>{@code handoff.sink.inserts}</td><td>function counter</td><td>{@code shard}</td>
 *       <td>inserts the sink acknowledged</td></tr>
 *   <tr><td>{@code handoff.sink.rows}</td><td>function counter</td>
 *       <td>{@code shard}, {@code outcome=written|dead_lettered|abandoned}</td>
 *       <td>rows written, set aside as dead letters, in chunks whose acknowledgements failed</td></tr>
 *   <tr><td>{@code handoff.sink.bytes.written}</td><td>function counter</td><td>{@code shard}</td>
 *       <td>bytes written</td></tr>
 *   <tr><td>{@code handoff.sink.retries}</td><td>function counter</td><td>{@code shard}</td>
 *       <td>failed attempts that were retried</td></tr>
 *   <tr><td>{@code handoff.sink.dead.letters}</td><td>function counter</td><td>{@code shard}</td>
 *       <td>dead letters written</td></tr>
 *   <tr><td>{@code handoff.sink.abandoned.chunks}</td><td>function counter</td>
 *       <td>{@code shard}</td><td>chunks whose acknowledgements failed</td></tr>
 *   <tr><td>{@code handoff.sink.queued.chunks}</td><td>gauge</td><td>{@code shard}</td>
 *       <td>chunks waiting in the shard's queue</td></tr>
 *   <tr><td>{@code handoff.sink.unacked.oldest.age}</td><td>time gauge</td><td>{@code shard}</td>
 *       <td>how long ago the oldest chunk a worker holds or that waits in the queue got its first
 *       row; 0 when there is none</td></tr>
 * </table>
 *
 * <p>Micrometer holds the measured objects weakly: keep this object (or the stage it listens to)
 * and the workers referenced while the meters are in use. <b>Threading:</b> the listener is
 * called on the pipeline thread; meters are read on any thread. Attach parts before {@link
 * #bindTo}; parts attached later are not bound.
 */
public final class HandoffMetrics implements MeterBinder {
  private final String name;
  private final HandoffClock clock;
  private final StageCounters counters = new StageCounters();
  private SinkHandoff<?> stage;
  private InflightBudget budget;
  private SinkWorkers workers;

  /**
   * Creates a binding whose meters carry the tag {@code stage=name}, measuring ages on {@code
   * clock} (the clock the stage and the workers use).
   */
  public HandoffMetrics(String name, HandoffClock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Returns the listener to give the stage; it accumulates the stage's per-payload counters. */
  public StageMetrics.Listener stageListener() {
    return counters;
  }

  /** Attaches the stage, for the parked chunks' age per shard. */
  public HandoffMetrics stage(SinkHandoff<?> stage) {
    this.stage = Objects.requireNonNull(stage, "stage");
    return this;
  }

  /** Attaches the in-flight budget. */
  public HandoffMetrics budget(InflightBudget budget) {
    this.budget = Objects.requireNonNull(budget, "budget");
    return this;
  }

  /** Attaches the sink workers. */
  public HandoffMetrics workers(SinkWorkers workers) {
    this.workers = Objects.requireNonNull(workers, "workers");
    return this;
  }

  /** Registers the meters of the stage counters and of every part attached so far. */
  @Override
  public void bindTo(MeterRegistry registry) {
    Tags base = Tags.of("stage", name);
    bindStageCounters(registry, base);
    if (stage != null) {
      SinkHandoff<?> s = stage;
      for (int shard = 0; shard < s.numShards(); shard++) {
        int i = shard;
        TimeGauge.builder("handoff.stage.parked.oldest.age", s, TimeUnit.NANOSECONDS,
                st -> age(st.oldestParkedIngestNanos(i)))
            .tags(base.and(shardTag(i)))
            .description("age of the oldest parked chunk of the shard (0 when none)")
            .register(registry);
      }
    }
    if (budget != null) {
      Gauge.builder("handoff.budget.inflight.bytes", budget, InflightBudget::inflightBytes)
          .tags(base).baseUnit("bytes")
          .description("bytes sealed and not yet written or abandoned").register(registry);
      Gauge.builder("handoff.budget.limit.bytes", budget, InflightBudget::limitBytes)
          .tags(base).baseUnit("bytes").description("the in-flight budget's limit")
          .register(registry);
    }
    if (workers != null) {
      bindWorkers(registry, base, workers);
    }
  }

  private void bindStageCounters(MeterRegistry registry, Tags base) {
    StageCounters c = counters;
    String[] outcomes = {"seen", "out", "skipped", "error"};
    AtomicLong[] values = {c.seen, c.out, c.skipped, c.errors};
    for (int i = 0; i < outcomes.length; i++) {
      FunctionCounter.builder("handoff.stage.records", values[i], AtomicLong::get)
          .tags(base.and("outcome", outcomes[i]))
          .description("records pushed (seen), encoded (out), skipped, rejected (error)")
          .register(registry);
    }
    Gauge.builder("handoff.stage.parked.chunks", c.parkedChunks, AtomicLong::get).tags(base)
        .description("chunks parked, as of the last payload").register(registry);
    Gauge.builder("handoff.stage.parked.bytes", c.parkedBytes, AtomicLong::get).tags(base)
        .baseUnit("bytes").description("bytes of the parked chunks, as of the last payload")
        .register(registry);
  }

  private void bindWorkers(MeterRegistry registry, Tags base, SinkWorkers w) {
    bindWorkerMeters(registry, base, w, SinkWorkers::metrics);
  }

  /**
   * Registers the per-shard worker meters of the table above, read from {@code metrics} applied
   * to {@code source} (held weakly by Micrometer, as every measured object).
   */
  static <S> void bindWorkerMeters(MeterRegistry registry, Tags base, S source,
      Function<S, WorkerMetrics> metrics) {
    int shards = metrics.apply(source).shards().size();
    for (int shard = 0; shard < shards; shard++) {
      int i = shard;
      Tags tags = base.and(shardTag(i));
      counter(registry, "handoff.sink.inserts", tags, source, metrics, i,
          WorkerMetrics.PerShard::inserts, "inserts the sink acknowledged");
      counter(registry, "handoff.sink.rows", tags.and("outcome", "written"), source, metrics, i,
          WorkerMetrics.PerShard::rowsWritten, "rows written, dead-lettered or abandoned");
      counter(registry, "handoff.sink.rows", tags.and("outcome", "dead_lettered"), source,
          metrics, i, WorkerMetrics.PerShard::deadLetteredRows,
          "rows written, dead-lettered or abandoned");
      counter(registry, "handoff.sink.rows", tags.and("outcome", "abandoned"), source, metrics,
          i, WorkerMetrics.PerShard::abandonedRows, "rows written, dead-lettered or abandoned");
      counter(registry, "handoff.sink.bytes.written", tags, source, metrics, i,
          WorkerMetrics.PerShard::bytesWritten, "bytes written");
      counter(registry, "handoff.sink.retries", tags, source, metrics, i,
          WorkerMetrics.PerShard::retries, "failed attempts that were retried");
      counter(registry, "handoff.sink.dead.letters", tags, source, metrics, i,
          WorkerMetrics.PerShard::deadLetteredInserts, "dead letters written");
      counter(registry, "handoff.sink.abandoned.chunks", tags, source, metrics, i,
          WorkerMetrics.PerShard::abandonedChunks, "chunks whose acknowledgements failed");
      Gauge.builder("handoff.sink.queued.chunks", source,
              x -> metrics.apply(x).shard(i).queuedChunks())
          .tags(tags).description("chunks waiting in the shard's queue").register(registry);
      TimeGauge.builder("handoff.sink.unacked.oldest.age", source, TimeUnit.NANOSECONDS,
              x -> metrics.apply(x).shard(i).oldestUnackedAgeNanos())
          .tags(tags)
          .description("age of the oldest chunk held by the worker or queued (0 when none)")
          .register(registry);
    }
  }

  private static <S> void counter(MeterRegistry registry, String meter, Tags tags, S source,
      Function<S, WorkerMetrics> metrics, int shard,
      ToDoubleFunction<WorkerMetrics.PerShard> value, String description) {
    FunctionCounter.builder(meter, source,
            x -> value.applyAsDouble(metrics.apply(x).shard(shard)))
        .tags(tags).description(description).register(registry);
  }

  private double age(long sinceNanos) {
    return sinceNanos == Long.MAX_VALUE ? 0 : Math.max(0, clock.nanoTime() - sinceNanos);
  }

  static Tag shardTag(int shard) {
    return Tag.of("shard", Integer.toString(shard));
  }

  @Override
  public String toString() {
    return "HandoffMetrics{" + name + '}';
  }

  /** The stage's counters, accumulated from each payload's {@link StageMetrics}. */
  private static final class StageCounters implements StageMetrics.Listener {
    final AtomicLong seen = new AtomicLong();
    final AtomicLong out = new AtomicLong();
    final AtomicLong skipped = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong parkedChunks = new AtomicLong();
    final AtomicLong parkedBytes = new AtomicLong();

    @Override
    public void onFlush(StageMetrics m) {
      seen.addAndGet(m.seen());
      out.addAndGet(m.out());
      skipped.addAndGet(m.skipped());
      errors.addAndGet(m.errors());
      parkedChunks.set(m.parkedChunks());
      parkedBytes.set(m.parkedBytes());
    }
  }
}
