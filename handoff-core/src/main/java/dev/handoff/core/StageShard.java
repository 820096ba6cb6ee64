package dev.handoff.core;

import dev.handoff.api.Ack;
import dev.handoff.api.AckSet;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.spi.RowEncoder;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * One shard of a {@link SinkHandoff}: its encoder, its open chunk and its parked chunks, and its
 * counters. Used by the stage's pipeline thread only, except {@link #oldestParkedNanos}.
 *
 * @param <T> the payload type
 */
final class StageShard<T> {
  final int index;
  final RowEncoder<T> encoder;
  final ChunkBuffer buffer;
  final ArrayDeque<EncodedChunk> parked = new ArrayDeque<>();
  /** The head of {@link #parked}'s first-ingest time, for readers on other threads. */
  volatile long oldestParkedNanos = Long.MAX_VALUE;
  AckSet acks = new AckSet();
  Ack lastAck;
  int rows;
  long firstIngestNanos;
  long oldestEventTimeMs = Long.MAX_VALUE;
  long nextSequence;
  long chunksSealed;
  long chunksSent;
  long chunksFailedBack;
  long bytesAbandoned;
  long rowsFailedBack;

  StageShard(int index, RowEncoder<T> encoder, int targetBytes) {
    this.index = index;
    this.encoder = Objects.requireNonNull(encoder, "newInstance() returned null");
    this.buffer = new ChunkBuffer(capacityFor(targetBytes)); // B2
  }

  /**
   * The chunk buffer's size: the target plus an eighth (at least 4 KiB), since a chunk seals
   * only after the row (or, in Native, the block) that crosses the target was written. Without
   * the headroom that row would double the array in nearly every chunk: an allocation and a
   * copy of the whole chunk, and an array the garbage collector treats as humongous.
   */
  static int capacityFor(int targetBytes) {
    long headroom = Math.max(4096L, targetBytes / 8L);
    return (int) Math.min(Integer.MAX_VALUE - 8L, targetBytes + headroom);
  }

  /** Publishes the parked head's first-ingest time; called when the head may have changed. */
  void publishOldestParked() {
    EncodedChunk head = parked.peekFirst();
    long nanos = head == null ? Long.MAX_VALUE : head.oldestIngestNanos();
    if (nanos != oldestParkedNanos) {
      oldestParkedNanos = nanos;
    }
  }
}
