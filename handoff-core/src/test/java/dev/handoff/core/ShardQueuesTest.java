package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.AckSet;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Frame;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class ShardQueuesTest {

  @Test
  void constructor_rejectsNonPositiveShardCountOrCapacity() {
    assertThatThrownBy(() -> new ShardQueues(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("numShards : 0");
    assertThatThrownBy(() -> new ShardQueues(-2, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-2");
    assertThatThrownBy(() -> new ShardQueues(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity : 0");
  }

  @Test
  void accessors_reportShardCountAndCapacity() {
    ShardQueues queues = new ShardQueues(3, 5);
    assertThat(queues.numShards()).isEqualTo(3);
    assertThat(queues.capacity()).isEqualTo(5);
    assertThat(queues.isClosed()).isFalse();
  }

  @Test
  void trySend_takesUpToCapacityPerShardThenHandsTheChunkBack() {
    ShardQueues queues = new ShardQueues(2, 2);

    assertThat(queues.trySend(chunk(0, 0))).isTrue();
    assertThat(queues.trySend(chunk(0, 1))).isTrue();
    assertThat(queues.trySend(chunk(0, 2))).as("shard 0 full").isFalse();
    assertThat(queues.size(0)).isEqualTo(2);

    assertThat(queues.trySend(chunk(1, 0))).as("shard 1 has its own capacity").isTrue();
    assertThat(queues.size(1)).isEqualTo(1);

    queues.poll(0);
    assertThat(queues.trySend(chunk(0, 2))).as("room again after a poll").isTrue();
  }

  @Test
  void poll_returnsEachShardsChunksInSendOrder() {
    ShardQueues queues = new ShardQueues(2, 3);
    EncodedChunk a0 = chunk(0, 0);
    EncodedChunk b0 = chunk(1, 0);
    EncodedChunk a1 = chunk(0, 1);
    EncodedChunk a2 = chunk(0, 2);
    queues.trySend(a0);
    queues.trySend(b0);
    queues.trySend(a1);
    queues.trySend(a2);

    assertThat(queues.peek(0)).isSameAs(a0);
    assertThat(queues.poll(0)).isSameAs(a0);
    assertThat(queues.poll(0)).isSameAs(a1);
    assertThat(queues.poll(1)).isSameAs(b0);
    assertThat(queues.poll(0)).isSameAs(a2);
    assertThat(queues.poll(0)).isNull();
    assertThat(queues.poll(1)).isNull();
    assertThat(queues.peek(1)).isNull();
  }

  @Test
  void pollWithTimeout_returnsNullWhenNothingArrives() throws InterruptedException {
    ShardQueues queues = new ShardQueues(1, 1);
    assertThat(queues.poll(0, 1, TimeUnit.MILLISECONDS)).isNull();
    EncodedChunk c = chunk(0, 0);
    queues.trySend(c);
    assertThat(queues.poll(0, 0, TimeUnit.MILLISECONDS)).isSameAs(c);
  }

  @Test
  void close_refusesNewChunksButKeepsQueuedOnesReceivable() {
    ShardQueues queues = new ShardQueues(2, 2);
    EncodedChunk queued = chunk(1, 0);
    queues.trySend(queued);

    queues.close();

    assertThat(queues.isClosed()).isTrue();
    assertThat(queues.trySend(chunk(0, 0))).as("closed, though empty").isFalse();
    assertThat(queues.trySend(chunk(1, 1))).isFalse();
    assertThat(queues.size(0)).isZero();
    assertThat(queues.poll(1)).isSameAs(queued);
    queues.close(); // idempotent
    assertThat(queues.isClosed()).isTrue();
  }

  @Test
  void drain_takesEveryQueuedChunkOfOneShardOldestFirst() {
    ShardQueues queues = new ShardQueues(2, 3);
    EncodedChunk a0 = chunk(0, 0);
    EncodedChunk a1 = chunk(0, 1);
    EncodedChunk b0 = chunk(1, 0);
    queues.trySend(a0);
    queues.trySend(b0);
    queues.trySend(a1);

    List<EncodedChunk> drained = queues.drain(0);

    assertThat(drained).containsExactly(a0, a1);
    assertThat(queues.size(0)).isZero();
    assertThat(queues.size(1)).isEqualTo(1);
    assertThat(queues.drain(0)).isEmpty();
  }

  @Test
  void shardIndexOutsideTheRange_isRejectedWithTheRange() {
    ShardQueues queues = new ShardQueues(2, 1);
    assertThatThrownBy(() -> queues.poll(2))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("shard 2")
        .hasMessageContaining("0..1");
    assertThatThrownBy(() -> queues.poll(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> queues.size(5)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> queues.drain(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> queues.peek(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> queues.poll(2, 1, TimeUnit.MILLISECONDS))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> queues.trySend(chunk(2, 0)))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("shard 2");
  }

  @Test
  void toString_showsCapacitySizesAndClosed() {
    ShardQueues queues = new ShardQueues(3, 4);
    queues.trySend(chunk(1, 0));
    assertThat(queues.toString()).isEqualTo("ShardQueues{capacity=4, sizes=[0, 1, 0]}");
    queues.close();
    assertThat(queues.toString()).isEqualTo("ShardQueues{capacity=4, sizes=[0, 1, 0], closed}");
  }

  static EncodedChunk chunk(int shard, long sequence) {
    return new EncodedChunk(shard, sequence, Frame.copyOf(new byte[] {(byte) sequence}), 1,
        new AckSet(), 0L, 0L);
  }
}
