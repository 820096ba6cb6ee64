package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.FlowControl;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** B15: an open chunk seals once its first row is {@code maxChunkAge} old, on the stage's clock. */
final class MaxChunkAgeTest {

  private static final Duration AGE = Duration.ofMillis(100);

  private final ManualClock clock = new ManualClock();
  private final ShardQueues queues = new ShardQueues(2, 4);

  private SinkHandoff<TestRow> stage(long budgetBytes) {
    return SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .router(SinkHandoffTest.BY_KEY)
        .budget(new InflightBudget(budgetBytes))
        .config(ChunkConfig.defaults().withTargetBytes(1 << 20).withMaxChunkAge(AGE))
        .clock(clock)
        .build();
  }

  @Test
  void aChunkBelowItsTargetSealsWhenItsFirstRowIsMaxAgeOld() {
    SinkHandoff<TestRow> stage = stage(1L << 30);
    stage.push(TestRow.of(1, 16), 0L, 0L, Ack.NONE);
    clock.advance(Duration.ofMillis(60));
    stage.push(TestRow.of(2, 16), 0L, 0L, Ack.NONE); // a later row does not restart the age
    stage.push(TestRow.of(3, 16), 0L, 1L, Ack.NONE); // shard 1's chunk is 40 ms younger

    clock.advance(Duration.ofMillis(39));
    assertThat(stage.sealAged()).as("99 ms: nothing is old enough").isZero();
    assertThat(stage.oldestOpenIngestNanos()).isZero();

    clock.advance(Duration.ofMillis(1));
    assertThat(stage.sealAged()).as("100 ms: shard 0's chunk is exactly max age").isOne();
    EncodedChunk chunk = queues.poll(0);
    assertThat(chunk.rows()).isEqualTo(2);
    assertThat(chunk.oldestIngestNanos()).isZero();
    assertThat(stage.openRows(1)).isOne();
    assertThat(stage.oldestOpenIngestNanos()).isEqualTo(Duration.ofMillis(60).toNanos());

    clock.advance(Duration.ofMillis(60));
    assertThat(stage.pressure()).as("pressure() seals aged chunks too")
        .isEqualTo(FlowControl.CONTINUE);
    assertThat(queues.poll(1).rows()).isOne();
    assertThat(stage.oldestOpenIngestNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(stage.sealAged()).as("an empty shard seals nothing").isZero();
  }

  @Test
  void anAgedChunkParksBehindOlderParkedChunksOfItsShard() {
    ShardQueues tiny = new ShardQueues(1, 1);
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), tiny)
        .config(ChunkConfig.defaults().withTargetBytes(1 << 20).withMaxChunkAge(AGE))
        .clock(clock)
        .build();
    List<Long> seqs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      stage.push(TestRow.of(i, 16), 0L, 0L, Ack.NONE);
      clock.advance(AGE);
      stage.sealAged();
    }
    assertThat(stage.parkedChunks()).isEqualTo(2);
    assertThat(stage.pressure()).isEqualTo(FlowControl.BLOCKED);
    EncodedChunk c;
    while ((c = tiny.poll(0)) != null) {
      seqs.add(c.sequence());
      stage.relieve();
    }
    assertThat(seqs).containsExactly(0L, 1L, 2L);
  }

  @Test
  void pressureIsBlockedWhileTheBudgetIsFull() {
    SinkHandoff<TestRow> stage = stage(10);
    stage.push(TestRow.of(1, 16), 0L, 0L, Ack.NONE);
    assertThat(stage.pressure()).isEqualTo(FlowControl.CONTINUE);
    clock.advance(AGE);
    assertThat(stage.pressure()).as("the aged chunk's 16 bytes exceed the 10-byte budget")
        .isEqualTo(FlowControl.BLOCKED);
  }

  @Test
  void aChainSealsAgedChunksWhileItsSourceIsIdle() throws InterruptedException {
    SinkHandoff<TestRow> stage = stage(1L << 30);
    List<Integer> queuedAtCall = new ArrayList<>();
    int[] calls = {0};
    Source<TestRow> source = out -> {
      int call = calls[0]++;
      if (call == 0) {
        stage.push(TestRow.of(0, 16), 0L, 0L, Ack.NONE);
      }
      queuedAtCall.add(queues.size(0));
      clock.advance(Duration.ofMillis(30)); // an idle source: time passes, no records
      return call < 6;
    };
    Chain.builder(source, stage).clock(clock).build().run();
    // Calls at 0, 30, 60, 90, 120 ms: the chain's pressure() before the call at 120 ms sealed it.
    assertThat(queuedAtCall).containsExactly(0, 0, 0, 0, 1, 1, 1);
  }
}
