package dev.handoff.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.RoutingKeys;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class HandoffMetricsTest {
  private final ManualClock clock = new ManualClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ShardQueues queues = new ShardQueues(2, 1);
  private final InflightBudget budget = new InflightBudget(1 << 20);
  private final HandoffMetrics metrics = new HandoffMetrics("orders", clock);
  private final SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
      .router(Routers.singleShard(0)).budget(budget).clock(clock)
      .config(ChunkConfig.defaults().withTargetBytes(64)).metrics(metrics.stageListener())
      .build();
  private long seq;

  private void push(int rows) {
    for (int i = 0; i < rows; i++) {
      long s = seq++;
      stage.push(new Envelope<>(TestRow.of(s, 40), new RecordMeta(s, RoutingKeys.of(s)), Ack.NONE));
    }
  }

  @Test
  void bindsStageBudgetAndWorkerMetersTaggedByShardIncludingTheTwoAges() {
    AtomicLong written = new AtomicLong();
    SinkWorkers workers = SinkWorkers.builder(queues, budget, insert -> written.addAndGet(
            insert.rows()))
        .clock(clock).linger(Duration.ZERO).pollInterval(Duration.ofMillis(5)).build();
    metrics.stage(stage).budget(budget).workers(workers).bindTo(registry);

    clock.advance(Duration.ofSeconds(1));
    push(2); // sealed: queued (the queue holds one chunk)
    clock.advance(Duration.ofSeconds(2));
    push(2); // sealed: parked
    clock.advance(Duration.ofSeconds(7));
    stage.onBatchEnd(Duration.ofMillis(5));

    assertThat(stageRecords("seen")).isEqualTo(4);
    assertThat(stageRecords("out")).isEqualTo(4);
    assertThat(stageRecords("skipped")).isZero();
    assertThat(registry.get("handoff.stage.parked.chunks").gauge().value()).isEqualTo(1);
    assertThat(ageSeconds("handoff.stage.parked.oldest.age", "0")).isEqualTo(7.0);
    assertThat(ageSeconds("handoff.stage.parked.oldest.age", "1")).isZero();
    assertThat(ageSeconds("handoff.sink.unacked.oldest.age", "0")).isEqualTo(9.0);
    assertThat(registry.get("handoff.sink.queued.chunks").tag("shard", "0").gauge().value())
        .isEqualTo(1);
    assertThat(registry.get("handoff.budget.inflight.bytes").gauge().value())
        .isEqualTo(budget.inflightBytes()).isPositive();
    assertThat(registry.get("handoff.stage.records").tag("stage", "orders").meters()).hasSize(4);

    workers.start();
    await().atMost(5, TimeUnit.SECONDS).until(() -> {
      stage.relieve(); // the pipeline thread sends the parked chunk once there is room
      return written.get() == 4;
    });
    await().atMost(5, TimeUnit.SECONDS).until(() -> budget.inflightBytes() == 0);
    assertThat(counter("handoff.sink.rows", "outcome", "written")).isEqualTo(4);
    assertThat(registry.get("handoff.sink.inserts").tag("shard", "0").functionCounter().count())
        .isEqualTo(2);
    assertThat(ageSeconds("handoff.stage.parked.oldest.age", "0")).isZero();
    assertThat(ageSeconds("handoff.sink.unacked.oldest.age", "0")).isZero();
    assertThat(registry.get("handoff.budget.inflight.bytes").gauge().value()).isZero();
    workers.shutdown(Duration.ofSeconds(1));
    stage.close();
  }

  private double stageRecords(String outcome) {
    return registry.get("handoff.stage.records").tag("stage", "orders").tag("outcome", outcome)
        .functionCounter().count();
  }

  private double counter(String name, String tag, String value) {
    return registry.get(name).tag("shard", "0").tag(tag, value).functionCounter().count();
  }

  private double ageSeconds(String name, String shard) {
    return registry.get(name).tag("shard", shard).timeGauge().value(TimeUnit.SECONDS);
  }
}
