package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.FlowControl;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.RecordingAck;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What the stage tells a caller besides its chunks: push's answer on a broken router, the age of
 * the oldest parked chunk per shard (read by metrics threads), its name and shard count.
 */
final class StageGaugesTest {
  private final ManualClock clock = new ManualClock();

  @Test
  void pushAnswersContinueWhenTheRouterThrowsOrReturnsAShardOutOfRange() {
    for (int bad : new int[] {-1, 2}) {
      SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), new ShardQueues(2, 2))
          .router((key, time, n) -> bad).build();
      RecordingAck ack = new RecordingAck(0);
      assertThat(stage.push(TestRow.of(0, 16), 0L, 0L, ack)).isEqualTo(FlowControl.CONTINUE);
      assertThat(stage.isStopped()).isTrue();
      assertThat(ack.failed()).isTrue();
    }
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), new ShardQueues(2, 2))
        .router((key, time, n) -> {
          throw new IllegalStateException("router bug");
        }).build();
    assertThat(stage.push(TestRow.of(0, 16), 0L, 0L, new RecordingAck(0)))
        .isEqualTo(FlowControl.CONTINUE);
    assertThat(stage.isStopped()).isTrue();
  }

  @Test
  void theOldestParkedGaugeFollowsTheHeadOfEachShardsParkedChunks() {
    ShardQueues queues = new ShardQueues(2, 1);
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .name("gauges").router((key, time, n) -> (int) key)
        .config(ChunkConfig.defaults().withTargetBytes(16)).clock(clock).build();
    assertThat(stage.name()).isEqualTo("gauges");
    assertThat(stage.numShards()).isEqualTo(2);

    stage.push(TestRow.of(0, 16), 0L, 0L, new RecordingAck(0)); // sent: the queue had room
    clock.advance(Duration.ofNanos(100));
    stage.push(TestRow.of(1, 16), 0L, 0L, new RecordingAck(1)); // parked, first row at 100
    clock.advance(Duration.ofNanos(100));
    stage.push(TestRow.of(2, 16), 0L, 0L, new RecordingAck(2)); // parked behind it, at 200
    assertThat(stage.oldestParkedIngestNanos(0)).isEqualTo(100);
    assertThat(stage.oldestParkedIngestNanos(1)).isEqualTo(Long.MAX_VALUE);

    queues.poll(0);
    stage.relieve(); // the chunk of 100 goes out; the one of 200 heads the parked chunks
    assertThat(stage.oldestParkedIngestNanos(0)).isEqualTo(200);

    stage.close();
    assertThat(stage.oldestParkedIngestNanos(0)).isEqualTo(Long.MAX_VALUE);
  }
}
