package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Envelope;
import dev.handoff.api.FlowControl;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.tck.RowEncoderContract.BadRow;
import dev.handoff.testkit.RecordingAck;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The part of the encoder contract that needs the real stage (so it stays here rather than in the
 * TCK, which depends on the API only): a bad row pushed through {@code SinkHandoff} under the
 * default SKIP policy is skipped and leaves no trace in the sealed frame, whether it comes between
 * good rows or first in its frame (where the names-and-types header is written with it and must
 * be written again by the next row). The rows are the contract tests' own.
 */
final class StageRollbackTest {

  @Test
  void badRowThroughTheStage_frameEqualsTheGoodRowsAlone_withoutHeader() {
    RowBinaryEncoderContractTest contract = new RowBinaryEncoderContractTest();
    check(contract.newEncoder(), contract.goodRows(), contract.badRows());
  }

  @Test
  void badRowThroughTheStage_frameEqualsTheGoodRowsAlone_withHeader() {
    RowBinaryWithHeaderEncoderContractTest contract = new RowBinaryWithHeaderEncoderContractTest();
    check(contract.newEncoder(), contract.goodRows(), contract.badRows());
  }

  private static <T> void check(RowEncoder<T> encoder, List<T> good, List<BadRow<T>> bad) {
    T first = good.get(0);
    T second = good.get(1);
    byte[] expected = throughStage(encoder, List.of(first, second));
    for (BadRow<T> b : bad) {
      assertThat(throughStage(encoder, List.of(first, b.row(), second)))
          .as("stage: good, bad (%s %s), good", b.column(), b.value()).isEqualTo(expected);
      assertThat(throughStage(encoder, List.of(b.row(), first, second)))
          .as("stage: bad (%s %s), good, good", b.column(), b.value()).isEqualTo(expected);
    }
  }

  /** Pushes {@code rows} through a one-shard stage (SKIP policy) and returns its single frame. */
  private static <T> byte[] throughStage(RowEncoder<T> encoder, List<T> rows) {
    ShardQueues queues = new ShardQueues(1, 8);
    SinkHandoff<T> stage = SinkHandoff.builder(encoder.newInstance(), queues)
        .router(Routers.singleShard(0))
        .config(ChunkConfig.defaults())
        .build();
    try {
      RecordingAck ack = new RecordingAck(1);
      for (T row : rows) {
        assertThat(stage.push(new Envelope<>(row, new RecordMeta(0, 0), ack)))
            .isEqualTo(FlowControl.CONTINUE);
      }
      assertThat(stage.flushTerminal()).isEqualTo(FlowControl.CONTINUE);
      assertThat(stage.fatalError()).as("a DATA error must not stop the stage").isEmpty();
      List<EncodedChunk> chunks = queues.drain(0);
      assertThat(chunks).hasSize(1);
      return chunks.get(0).frame().toByteArray();
    } finally {
      stage.close();
    }
  }
}
