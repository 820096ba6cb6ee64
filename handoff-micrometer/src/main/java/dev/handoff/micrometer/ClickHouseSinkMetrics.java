package dev.handoff.micrometer;

import dev.handoff.api.HandoffClock;
import dev.handoff.clickhouse.http.ReplicaStatus;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.core.StageMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Binds a {@link ClickHouseSink} to a Micrometer {@link MeterRegistry}: the stage's counters,
 * the in-flight budget, the sink workers per shard (the meters of {@link HandoffMetrics}) and
 * every replica of the sink's target.
 *
 * <pre>{@code
 * ClickHouseSinkMetrics metrics = new ClickHouseSinkMetrics("orders");
 * ClickHouseSink<Order> sink = ClickHouseSink.forRecords(Order.class).url(url).table("orders")
 *     .listeners(metrics.stageListener(), WorkerListener.NONE).build();
 * metrics.sink(sink).bindTo(registry);
 * }</pre>
 *
 * <p>Besides the stage, budget and {@code handoff.sink.*} meters of {@link HandoffMetrics}, one
 * set per replica, tagged {@code stage}, {@code shard}, {@code replica} (its index in the shard)
 * and {@code url}:
 *
 * <table>
 *   <caption>Replica meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code handoff.replica.inserts}</td><td>function counter</td>
 *       <td>inserts the replica acknowledged</td></tr>
 *   <tr><td>{@code handoff.replica.rows}</td><td>function counter</td>
 *       <td>rows in those inserts</td></tr>
 *   <tr><td>{@code handoff.replica.failures}</td><td>function counter</td>
 *       <td>transient failures of the replica</td></tr>
 *   <tr><td>{@code handoff.replica.consecutive.failures}</td><td>gauge</td>
 *       <td>failures since its last acknowledged insert; 0 when healthy</td></tr>
 *   <tr><td>{@code handoff.replica.active}</td><td>gauge</td>
 *       <td>1 for the replica its shard sends to next, else 0</td></tr>
 *   <tr><td>{@code handoff.replica.retry.in}</td><td>time gauge</td>
 *       <td>how long until a failed replica is tried again ahead of the healthy ones</td></tr>
 * </table>
 *
 * <p>Needs the {@code handoff-clickhouse-sink} module, an optional dependency of this one. Every
 * meter reads a snapshot of the sink when the registry reads it; Micrometer holds the sink
 * weakly, so keep it referenced while the meters are in use. <b>Threading:</b> the stage
 * listener is called on the pipeline thread; meters are read on any thread.
 */
public final class ClickHouseSinkMetrics implements MeterBinder {
  private final String name;
  private final HandoffMetrics stageCounters;
  private ClickHouseSink<?> sink;

  /** Creates a binding whose meters carry the tag {@code stage=name}. */
  public ClickHouseSinkMetrics(String name) {
    this.name = Objects.requireNonNull(name, "name");
    // Only the stage counters of this one are bound; ages come from the sink's own snapshots.
    this.stageCounters = new HandoffMetrics(name, HandoffClock.system());
  }

  /**
   * Returns the listener to give the sink's builder ({@code listeners(stageListener(), ...)}):
   * it accumulates the stage's per-payload counters.
   */
  public StageMetrics.Listener stageListener() {
    return stageCounters.stageListener();
  }

  /** Attaches the sink whose workers, budget and replicas the meters read. */
  public ClickHouseSinkMetrics sink(ClickHouseSink<?> sink) {
    this.sink = Objects.requireNonNull(sink, "sink");
    return this;
  }

  /**
   * Registers the stage counters and, once a sink is attached, its worker, budget and replica
   * meters.
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    stageCounters.bindTo(registry);
    ClickHouseSink<?> s = sink;
    if (s == null) {
      return;
    }
    Tags base = Tags.of("stage", name);
    HandoffMetrics.bindWorkerMeters(registry, base, s, ClickHouseSink::workerMetrics);
    Gauge.builder("handoff.budget.inflight.bytes", s, ClickHouseSink::inflightBytes)
        .tags(base).baseUnit("bytes")
        .description("bytes sealed and not yet written or abandoned").register(registry);
    Gauge.builder("handoff.budget.limit.bytes", s, ClickHouseSink::budgetLimitBytes)
        .tags(base).baseUnit("bytes").description("the in-flight budget's limit")
        .register(registry);
    List<ReplicaStatus> replicas = s.replicas();
    for (int i = 0; i < replicas.size(); i++) {
      bindReplica(registry, base, s, i, replicas.get(i));
    }
  }

  private static void bindReplica(MeterRegistry registry, Tags base, ClickHouseSink<?> s,
      int index, ReplicaStatus r) {
    Tags tags = base.and(HandoffMetrics.shardTag(r.shard()))
        .and("replica", Integer.toString(r.replica())).and("url", r.url().toString());
    replicaCounter(registry, "handoff.replica.inserts", tags, s, index, ReplicaStatus::inserts,
        "inserts the replica acknowledged");
    replicaCounter(registry, "handoff.replica.rows", tags, s, index, ReplicaStatus::rows,
        "rows in the inserts the replica acknowledged");
    replicaCounter(registry, "handoff.replica.failures", tags, s, index,
        ReplicaStatus::failures, "transient failures of the replica");
    Gauge.builder("handoff.replica.consecutive.failures", s,
            x -> replica(x, index).consecutiveFailures())
        .tags(tags).description("failures since the replica's last acknowledged insert")
        .register(registry);
    Gauge.builder("handoff.replica.active", s, x -> replica(x, index).active() ? 1 : 0)
        .tags(tags).description("1 for the replica its shard sends to next").register(registry);
    TimeGauge.builder("handoff.replica.retry.in", s, TimeUnit.NANOSECONDS,
            x -> replica(x, index).retryInNanos())
        .tags(tags).description("time until a failed replica is tried again").register(registry);
  }

  private static void replicaCounter(MeterRegistry registry, String meter, Tags tags,
      ClickHouseSink<?> s, int index, ToDoubleFunction<ReplicaStatus> value, String description) {
    FunctionCounter.builder(meter, s, x -> value.applyAsDouble(replica(x, index)))
        .tags(tags).description(description).register(registry);
  }

  /** The replicas' order is fixed by the target: shard by shard, each in its given order. */
  private static ReplicaStatus replica(ClickHouseSink<?> s, int index) {
    return s.replicas().get(index);
  }

  @Override
  public String toString() {
    return "ClickHouseSinkMetrics{" + name + '}';
  }
}
