package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/* The ack sets here stay empty, so they never involve the leak detector. */
final class EncodedChunkTest {

  private static final Frame FRAME = Frame.copyOf(new byte[] {1, 2, 3});

  @Test
  void constructor_acceptsZeroShardSequenceAndRows() {
    EncodedChunk chunk = new EncodedChunk(0, 0L, Frame.empty(), 0, new AckSet(), 0L, 0L);
    assertThat(chunk.sizeBytes()).isZero();
  }

  @Test
  void constructor_rejectsNullFrameAndAcks() {
    assertThatNullPointerException()
        .isThrownBy(() -> new EncodedChunk(0, 0L, null, 1, new AckSet(), 0L, 0L))
        .withMessageContaining("frame");
    assertThatNullPointerException()
        .isThrownBy(() -> new EncodedChunk(0, 0L, FRAME, 1, null, 0L, 0L))
        .withMessageContaining("acks");
  }

  @Test
  void constructor_rejectsNegativeShardSequenceOrRows() {
    assertThatThrownBy(() -> new EncodedChunk(-1, 0L, FRAME, 1, new AckSet(), 0L, 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard -1");
    assertThatThrownBy(() -> new EncodedChunk(0, -1L, FRAME, 1, new AckSet(), 0L, 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sequence -1");
    assertThatThrownBy(() -> new EncodedChunk(0, 0L, FRAME, -1, new AckSet(), 0L, 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rows -1");
  }

  @Test
  void sizeBytes_isTheFrameLength() {
    EncodedChunk chunk = new EncodedChunk(2, 5L, FRAME, 1, new AckSet(), 10L, 20L);
    assertThat(chunk.sizeBytes()).isEqualTo(3);
    assertThat(chunk.shard()).isEqualTo(2);
    assertThat(chunk.sequence()).isEqualTo(5L);
    assertThat(chunk.oldestIngestNanos()).isEqualTo(10L);
    assertThat(chunk.oldestEventTimeMs()).isEqualTo(20L);
  }

  @Test
  void toString_namesShardSequenceBytesAndRows() {
    EncodedChunk chunk = new EncodedChunk(2, 5L, FRAME, 1, new AckSet(), 10L, 20L);
    assertThat(chunk.toString())
        .contains("shard=2")
        .contains("seq=5")
        .contains("bytes=3")
        .contains("rows=1");
  }
}
