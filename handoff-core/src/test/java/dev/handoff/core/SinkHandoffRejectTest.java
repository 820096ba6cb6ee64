package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.FlowControl;
import dev.handoff.api.HandoffException;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.RecordingAck;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SinkHandoff#reject}: a record its caller could not prepare (no routing key) follows the
 * same bad-record policy and the same counters as a record the encoder refuses.
 */
final class SinkHandoffRejectTest {
  private final List<StageMetrics> flushes = new ArrayList<>();
  private final ShardQueues queues = new ShardQueues(2, 8);

  private SinkHandoff<TestRow> stage(ErrorPolicy policy) {
    return SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .name("reject")
        .router((key, time, n) -> (int) Math.floorMod(key, (long) n))
        .budget(new InflightBudget(1L << 30))
        .config(ChunkConfig.defaults().withTargetBytes(1024).withEncodePolicy(policy))
        .clock(new ManualClock())
        .metrics(flushes::add)
        .build();
  }

  @Test
  void underSkip_aRejectedRecordIsSkippedAndCounted_itsBatchIsNotFailed() {
    SinkHandoff<TestRow> stage = stage(ErrorPolicy.SKIP);
    RecordingAck ack = new RecordingAck(1);
    ack.retain(); // the source's own hold on the batch
    stage.push(TestRow.of(1, 20), 0, 0, ack);
    assertThat(stage.reject(HandoffException.data("key column k: value NULL has no shard"), ack))
        .isEqualTo(FlowControl.CONTINUE);
    stage.push(TestRow.of(2, 20), 0, 1, ack);
    assertThat(stage.isStopped()).isFalse();
    assertThat(ack.failed()).isFalse();
    stage.onBatchEnd(Duration.ZERO);
    StageMetrics m = flushes.get(flushes.size() - 1);
    assertThat(m.seen()).isEqualTo(3);
    assertThat(m.skipped()).isEqualTo(1);
    assertThat(stage.openRows(0) + stage.openRows(1)).isEqualTo(2);
  }

  @Test
  void underFail_aRejectedRecordStopsTheStage_andFailsItsBatchWithTheReason() {
    SinkHandoff<TestRow> stage = stage(ErrorPolicy.FAIL);
    RecordingAck ack = new RecordingAck(1);
    stage.reject(HandoffException.data("key column k: value NULL has no shard"), ack);
    assertThat(stage.isStopped()).isTrue();
    assertThat(ack.failed()).isTrue();
    assertThat(stage.fatalError()).get().asString().contains("value NULL has no shard");
  }

  @Test
  void afterClose_aRejectedRecordFailsItsBatch_likeAPush() {
    SinkHandoff<TestRow> stage = stage(ErrorPolicy.SKIP);
    stage.close();
    RecordingAck ack = new RecordingAck(1);
    stage.reject(HandoffException.data("no shard"), ack);
    assertThat(ack.failed()).isTrue();
    assertThat(ack.failure()).hasMessageContaining("closed");
  }
}
