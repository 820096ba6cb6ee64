package dev.handoff.core.sink;

import dev.handoff.api.AckSet;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Frame;
import dev.handoff.core.ChunkPool;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardQueues;
import dev.handoff.testkit.RecordingAck;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chunks whose rows are 8-byte little-endian row ids, queued with their bytes added to the budget
 * (as the stage does at seal), each chunk holding one batch of its own.
 */
final class SinkFixture {
  final ShardQueues queues;
  final InflightBudget budget = InflightBudget.unlimited();
  final List<EncodedChunk> chunks = new ArrayList<>();
  final Map<EncodedChunk, RecordingAck> batches = new ConcurrentHashMap<>();
  private final long[] nextSequence;
  /** Lends the frames' arrays (checked: a double return throws, returns are poisoned), or null. */
  final ChunkPool pool;
  private final ChunkBuffer buffer;

  SinkFixture(int shards, int capacity) {
    this(shards, capacity, null);
  }

  /**
   * A fixture whose frames come from {@code pool} (a checked one, in tests of the frames'
   * lifetime): the budget then charges each chunk its array, as a pooled stage does.
   */
  SinkFixture(int shards, int capacity, ChunkPool pool) {
    this.queues = new ShardQueues(shards, capacity);
    this.nextSequence = new long[shards];
    this.pool = pool;
    this.buffer = pool != null ? new ChunkBuffer(pool) : null;
  }

  /** Makes the next chunk of {@code shard} with rows {@code ids}, adds its bytes; not queued. */
  EncodedChunk chunk(int shard, long ingestNanos, long... ids) {
    ByteBuffer buf = ByteBuffer.allocate(ids.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long id : ids) {
      buf.putLong(id);
    }
    RecordingAck ack = new RecordingAck(chunks.size());
    AckSet acks = new AckSet();
    acks.add(ack);
    Frame frame;
    if (buffer != null) {
      buffer.writeBytes(buf.array(), 0, buf.capacity());
      frame = buffer.split();
    } else {
      frame = Frame.copyOf(buf.array());
    }
    EncodedChunk c = new EncodedChunk(shard, nextSequence[shard]++, frame, ids.length, acks,
        ingestNanos, 0L);
    chunks.add(c);
    batches.put(c, ack);
    budget.add(c.chargedBytes());
    return c;
  }

  /** Returns the arrays the fixture's own buffer holds (the next chunk's): 1 when pooled. */
  long ownArrays() {
    return buffer != null ? 1 : 0;
  }

  /** Makes and queues the next chunk of {@code shard}. */
  EncodedChunk send(int shard, long... ids) {
    EncodedChunk c = chunk(shard, 0L, ids);
    if (!queues.trySend(c)) {
      throw new IllegalStateException("queue full: " + queues);
    }
    return c;
  }

  /** Returns ids {@code from} to {@code from + n - 1}. */
  static long[] ids(long from, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = from + i;
    }
    return out;
  }

  /** Returns the row ids a frame holds. */
  static List<Long> decode(Frame frame) {
    ByteBuffer buf = frame.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
    List<Long> out = new ArrayList<>();
    while (buf.remaining() >= 8) {
      out.add(buf.getLong());
    }
    return out;
  }

  boolean delivered(EncodedChunk c) {
    return batches.get(c).delivered();
  }

  boolean failed(EncodedChunk c) {
    return batches.get(c).failed();
  }

  /** Every batch released exactly once by its one holder (the chunk): resolved exactly once. */
  boolean everyAckResolvedOnce() {
    for (RecordingAck a : batches.values()) {
      if (a.releases() != 1 || a.holders() != 0) {
        return false;
      }
    }
    for (EncodedChunk c : chunks) {
      if (!c.acks().isResolved()) {
        return false;
      }
    }
    return true;
  }
}
