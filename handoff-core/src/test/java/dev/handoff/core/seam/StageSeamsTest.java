package dev.handoff.core.seam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.RecordMeta;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.testkit.ManualClock;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import org.junit.jupiter.api.Test;

/** The seam builds broken stages for the simulator's negative controls, and only on request. */
final class StageSeamsTest {

  @Test
  void installChain_refusesASecondAccess_soOnlyChainProvidesIt() {
    dev.handoff.core.Chain.builder(out -> false,
        SinkHandoff.builder(TestRowEncoder.rows(), new ShardQueues(1, 1)).build());

    assertThatThrownBy(() -> StageSeams.installChain(new StageSeams.ChainAccess() {
      @Override
      public <T> dev.handoff.core.Chain<T> build(dev.handoff.core.Chain.Builder<T> b,
          StageMutation m) {
        return b.build();
      }
    })).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void install_refusesASecondAccess_soOnlySinkHandoffProvidesIt() {
    SinkHandoff.builder(TestRowEncoder.rows(), new ShardQueues(1, 1)); // initialises SinkHandoff

    assertThatThrownBy(() -> StageSeams.install(new StageSeams.Access() {
      @Override
      public <T> SinkHandoff<T> build(SinkHandoff.Builder<T> b, StageMutation m) {
        return b.build();
      }
    })).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void none_keepsANewChunkBehindItsShardsParkedChunk() {
    assertThat(thirdChunkOvertakes(StageMutation.NONE)).isFalse();
  }

  @Test
  void sendPastParked_offersANewChunkWhileAnOlderOneIsParked() {
    assertThat(thirdChunkOvertakes(StageMutation.SEND_PAST_PARKED)).isTrue();
  }

  @Test
  void ignoreBackpressure_pullsWhileTheStageIsBlocked_andTheRealChainBacksOff() {
    assertThat(secondStep(StageMutation.NONE)).isEqualTo(dev.handoff.core.Chain.Step.BACKOFF);
    assertThat(secondStep(StageMutation.IGNORE_BACKPRESSURE))
        .isEqualTo(dev.handoff.core.Chain.Step.PULLED);
  }

  /** A one-slot queue and one-row chunks: after the first payload of two rows one is parked. */
  private static dev.handoff.core.Chain.Step secondStep(StageMutation mutation) {
    ShardQueues queues = new ShardQueues(1, 1);
    SinkHandoff<TestRow> stage = SinkHandoff.<TestRow>builder(TestRowEncoder.rows(), queues)
        .clock(new ManualClock())
        .config(ChunkConfig.defaults().withTargetBytes(1))
        .build();
    long[] seq = {0};
    dev.handoff.core.Chain<TestRow> chain = StageSeams.buildChain(
        dev.handoff.core.Chain.<TestRow>builder(out -> {
          for (int i = 0; i < 2; i++) {
            out.push(new dev.handoff.api.Envelope<>(TestRow.of(seq[0]++, 16),
                RecordMeta.ofEventTime(0), Ack.NONE));
          }
          return true;
        }, stage).clock(new ManualClock()), mutation);
    assertThat(chain.step()).isEqualTo(dev.handoff.core.Chain.Step.PULLED);
    assertThat(stage.parkedChunks()).isEqualTo(1);
    return chain.step();
  }

  @Test
  void checkpointLags_reportsOneBatchBehind_andNoneReportsTheTruth() {
    for (StageMutation m : new StageMutation[] {StageMutation.NONE,
        StageMutation.CHECKPOINT_LAGS}) {
      dev.handoff.core.ack.SourceAcks acks = StageSeams.sourceAcks("s", 5,
          dev.handoff.core.ack.BatchListener.NONE, m);
      acks.begin().complete();
      acks.begin().complete();

      assertThat(acks.checkpoint()).as("%s", m)
          .isEqualTo(m == StageMutation.NONE ? 6 : 5);
    }
  }

  /** Seals three one-row chunks into a one-slot queue, taking the first after the second. */
  private static boolean thirdChunkOvertakes(StageMutation mutation) {
    ShardQueues queues = new ShardQueues(1, 1);
    SinkHandoff<TestRow> stage = StageSeams.build(
        SinkHandoff.<TestRow>builder(TestRowEncoder.rows(), queues)
            .clock(new ManualClock())
            .config(ChunkConfig.defaults().withTargetBytes(1)),
        mutation);
    push(stage, 0);
    push(stage, 1); // refused: parked
    assertThat(queues.poll(0).sequence()).isEqualTo(0);
    push(stage, 2);
    return queues.size(0) == 1 && queues.peek(0).sequence() == 2;
  }

  private static void push(SinkHandoff<TestRow> stage, long seq) {
    stage.push(new dev.handoff.api.Envelope<>(TestRow.of(seq, 16), RecordMeta.ofEventTime(0),
        Ack.NONE));
  }
}
