package dev.handoff.core;

import dev.handoff.api.EncodedChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Bounded per-shard queues of sealed chunks, between the pipeline thread and the sink workers.
 *
 * <p>The send side never blocks: {@link #trySend} returns {@code false} when the shard's queue is
 * full or closed, and the caller keeps the chunk (the stage parks it). The receive side is for
 * sink workers: {@link #poll(int)} and {@link #poll(int, long, TimeUnit)}.
 *
 * <p><b>Concurrency contract:</b> each shard's queue is FIFO, so chunks leave in the order they
 * were sent. Any thread may send and receive; the stage sends from the pipeline thread only, and
 * one worker per shard receives, which keeps per-shard order end to end. A chunk handed over is
 * safely published to the receiving thread. No operation allocates per chunk.
 */
public final class ShardQueues {
  private final ArrayBlockingQueue<EncodedChunk>[] queues;
  private final int capacity;
  private volatile boolean closed;

  /**
   * Creates {@code numShards} queues of {@code capacity} chunks each.
   *
   * @throws IllegalArgumentException if either is {@code < 1}
   */
  @SuppressWarnings("unchecked")
  public ShardQueues(int numShards, int capacity) {
    if (numShards < 1) {
      throw new IllegalArgumentException("numShards : " + numShards + " (expected: >= 1)");
    }
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity : " + capacity + " (expected: >= 1)");
    }
    this.capacity = capacity;
    this.queues = new ArrayBlockingQueue[numShards];
    for (int i = 0; i < numShards; i++) {
      queues[i] = new ArrayBlockingQueue<>(capacity);
    }
  }

  /** Returns the number of shards. */
  public int numShards() {
    return queues.length;
  }

  /** Returns each shard queue's capacity, in chunks. */
  public int capacity() {
    return capacity;
  }

  /**
   * Offers a chunk to its shard's queue ({@link EncodedChunk#shard()}) without blocking.
   *
   * @return {@code true} if the queue took the chunk; {@code false} if the queue is full or closed,
   *     in which case the caller still owns the chunk
   */
  public boolean trySend(EncodedChunk chunk) {
    if (closed) {
      return false;
    }
    return queue(chunk.shard()).offer(chunk);
  }

  /** Takes the oldest chunk of {@code shard}, or returns {@code null} at once if there is none. */
  public EncodedChunk poll(int shard) {
    return queue(shard).poll();
  }

  /**
   * Takes the oldest chunk of {@code shard}, waiting up to {@code timeout} for one.
   *
   * @return the chunk, or {@code null} if none arrived in time
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public EncodedChunk poll(int shard, long timeout, TimeUnit unit) throws InterruptedException {
    return queue(shard).poll(timeout, unit);
  }

  /** Returns the oldest chunk of {@code shard} without taking it, or {@code null}. */
  public EncodedChunk peek(int shard) {
    return queue(shard).peek();
  }

  /** Returns how many chunks wait in {@code shard}'s queue. */
  public int size(int shard) {
    return queue(shard).size();
  }

  /**
   * Closes the queues: every later {@link #trySend} returns {@code false}. Chunks already queued
   * stay receivable, so workers can drain them.
   */
  public void close() {
    closed = true;
  }

  /** Returns whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Takes every chunk left in {@code shard}'s queue, oldest first; for a worker that tears down
   * and must fail what it will not write.
   */
  public List<EncodedChunk> drain(int shard) {
    List<EncodedChunk> out = new ArrayList<>();
    queue(shard).drainTo(out);
    return out;
  }

  private ArrayBlockingQueue<EncodedChunk> queue(int shard) {
    if (shard < 0 || shard >= queues.length) {
      throw new IndexOutOfBoundsException(
          "shard " + shard + " (expected: 0.." + (queues.length - 1) + ")");
    }
    return queues[shard];
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("ShardQueues{capacity=").append(capacity).append(", sizes=[");
    for (int i = 0; i < queues.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(queues[i].size());
    }
    return sb.append("]").append(closed ? ", closed}" : "}").toString();
  }
}
