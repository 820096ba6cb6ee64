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
  /**
   * The handle of the open chunk's last run of records, or {@link #CHUNK_START} while the chunk
   * has no row.
   */
  Ack lastAck = CHUNK_START;
  int rows;
  long firstIngestNanos;
  long oldestEventTimeMs = Long.MAX_VALUE;
  long nextSequence;
  long chunksSealed;
  long chunksSent;
  long chunksFailedBack;
  long bytesAbandoned;
  long rowsFailedBack;

  /**
   * The {@link #lastAck} of a chunk without rows: a handle no record carries, so the chunk's first
   * row always starts a run. Never added to an {@link AckSet} nor called.
   */
  static final Ack CHUNK_START = new Ack() {
    @Override
    public long batchId() {
      throw new UnsupportedOperationException("the chunk-start marker is not a batch");
    }

    @Override
    public void retain() {
      throw new UnsupportedOperationException("the chunk-start marker is not a batch");
    }

    @Override
    public void release() {
      throw new UnsupportedOperationException("the chunk-start marker is not a batch");
    }

    @Override
    public void fail(Throwable cause) {
      throw new UnsupportedOperationException("the chunk-start marker is not a batch");
    }

    @Override
    public String toString() {
      return "CHUNK_START";
    }
  };

  StageShard(int index, RowEncoder<T> encoder, int targetBytes, ChunkPool pool) {
    this.index = index;
    this.encoder = Objects.requireNonNull(encoder, "newInstance() returned null");
    // B2. The headroom above the target (ChunkPool.arrayLengthFor) holds the row, or the Native
    // block, that crosses the target: without it the array would double in nearly every chunk.
    this.buffer = pool != null ? new ChunkBuffer(pool)
        : new ChunkBuffer(ChunkPool.arrayLengthFor(targetBytes));
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
