package dev.handoff.encoders.rowbinary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.FlowControl;
import dev.handoff.api.HandoffException;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.testkit.RecordingAck;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link RowEncoder} SPI contract, for any encoder: a concrete subclass supplies a fresh
 * encoder, rows it must accept and rows it must reject, and inherits the checks.
 *
 * <p>The checks use only the SPI (and the real {@code SinkHandoff} stage where the contract is
 * about the stage's use of the encoder), so a columnar encoder that holds rows until {@link
 * RowEncoder#finishChunk} passes or fails them the same way a row encoder does. Each "frame" below
 * is what the stage would seal: what {@code encode} wrote into the chunk buffer, then what {@code
 * finishChunk} appended.
 *
 * @param <T> the payload type
 */
abstract class RowEncoderContractTest<T> {

  /** Returns a new encoder, as a provider's {@code create} would; the template of each check. */
  protected abstract RowEncoder<T> newEncoder();

  /** Returns at least two rows the encoder accepts, different from one another. */
  protected abstract List<T> goodRows();

  /** Returns rows the encoder rejects with a {@code DATA} error, at least one. */
  protected abstract List<T> badRows();

  @Test
  void encodesEveryGoodRowWithoutThrowing() {
    RowEncoder<T> encoder = newEncoder();
    ChunkBuffer buffer = new ChunkBuffer(64);
    for (T row : goodRows()) {
      int before = buffer.length() + encoder.bufferedBytes();
      encoder.encode(row, buffer);
      assertThat(buffer.length() + encoder.bufferedBytes()).as("bytes after " + row)
          .isGreaterThan(before);
    }
    encoder.finishChunk(buffer);
    assertThat(encoder.bufferedBytes()).as("finishChunk empties the encoder").isZero();
  }

  @Test
  void everyBadRowIsADataErrorAndNothingElse() {
    for (T row : badRows()) {
      RowEncoder<T> encoder = newEncoder();
      ChunkBuffer buffer = new ChunkBuffer(64);
      Throwable t = catchThrowable(() -> encoder.encode(row, buffer));
      assertThat(t).as("encoding " + row).isExactlyInstanceOf(HandoffException.class);
      assertThat(((HandoffException) t).errorClass()).as(t.getMessage())
          .isEqualTo(ErrorClass.DATA);
    }
  }

  @Test
  void dataErrorLeavesNoStateBehind() {
    List<T> good = goodRows();
    T first = good.get(0);
    T second = good.get(1);
    byte[] expected = frame(newEncoder(), List.of(first, second));

    for (T bad : badRows()) {
      // Directly: the error, the stage's rollback, and the next row as if nothing happened.
      RowEncoder<T> encoder = newEncoder();
      ChunkBuffer buffer = new ChunkBuffer(64);
      encoder.encode(first, buffer);
      int start = buffer.length();
      assertThat(catchThrowable(() -> encoder.encode(bad, buffer)))
          .isInstanceOf(HandoffException.class);
      buffer.truncate(start);
      encoder.encode(second, buffer);
      encoder.finishChunk(buffer);
      assertThat(buffer.toByteArray()).as("good, " + bad + ", good").isEqualTo(expected);

      // Through the stage, also with the bad row first in its frame.
      assertThat(throughStage(List.of(first, bad, second))).as("stage: good, bad, good")
          .isEqualTo(expected);
      assertThat(throughStage(List.of(bad, first, second))).as("stage: bad, good, good")
          .isEqualTo(expected);
    }
  }

  @Test
  void newInstanceIsIndependent() {
    RowEncoder<T> template = newEncoder();
    RowEncoder<T> a = template.newInstance();
    RowEncoder<T> b = template.newInstance();
    assertThat(a).isNotSameAs(b).isNotSameAs(template);
    assertThat(a.bufferedBytes()).isZero();

    List<T> forward = goodRows();
    List<T> backward = new ArrayList<>(forward);
    Collections.reverse(backward);
    // The template has rows of its own (held, for a columnar encoder) that must not leak.
    template.encode(forward.get(0), new ChunkBuffer(64));

    ChunkBuffer bufA = new ChunkBuffer(64);
    ChunkBuffer bufB = new ChunkBuffer(64);
    for (int i = 0; i < forward.size(); i++) {
      a.encode(forward.get(i), bufA);
      b.encode(backward.get(i), bufB);
    }
    a.finishChunk(bufA);
    b.finishChunk(bufB);

    assertThat(bufA.toByteArray()).isEqualTo(frame(newEncoder(), forward));
    assertThat(bufB.toByteArray()).isEqualTo(frame(newEncoder(), backward));
  }

  @Test
  void finishChunkOnEmptyIsNoop() {
    RowEncoder<T> encoder = newEncoder();
    ChunkBuffer buffer = new ChunkBuffer(64);
    encoder.finishChunk(buffer);
    assertThat(buffer.length()).as("finishChunk of a fresh encoder").isZero();

    // Once a frame is finished the encoder is empty again.
    encoder.encode(goodRows().get(0), buffer);
    encoder.finishChunk(buffer);
    int length = buffer.length();
    encoder.finishChunk(buffer);
    assertThat(buffer.length()).as("a second finishChunk").isEqualTo(length);
    assertThat(encoder.bufferedBytes()).isZero();
  }

  @Test
  void bufferedBytesPredictsWhatFinishChunkWrites() {
    // For a row format bufferedBytes() is always 0 and finishChunk writes nothing; for a
    // columnar one it is exactly what finishChunk will append (the stage seals by it).
    List<T> rows = goodRows();
    for (int n = 1; n <= rows.size(); n++) {
      RowEncoder<T> encoder = newEncoder();
      ChunkBuffer buffer = new ChunkBuffer(64);
      for (T row : rows.subList(0, n)) {
        encoder.encode(row, buffer);
      }
      int predicted = buffer.length() + encoder.bufferedBytes();
      encoder.finishChunk(buffer);
      assertThat(buffer.length()).as("after " + n + " rows").isEqualTo(predicted);
    }
  }

  /** Encodes {@code rows} with {@code encoder} and finishes the frame. */
  protected byte[] frame(RowEncoder<T> encoder, List<T> rows) {
    ChunkBuffer buffer = new ChunkBuffer(64);
    for (T row : rows) {
      encoder.encode(row, buffer);
    }
    encoder.finishChunk(buffer);
    return buffer.toByteArray();
  }

  /** Pushes {@code rows} through a one-shard stage (SKIP policy) and returns its single frame. */
  protected byte[] throughStage(List<T> rows) {
    ShardQueues queues = new ShardQueues(1, 8);
    SinkHandoff<T> stage = SinkHandoff.builder(newEncoder(), queues)
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
