package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.ShardQueues;
import java.util.ArrayList;
import java.util.List;

/**
 * How the sink workers take chunks from the real {@link ShardQueues}: straight through, or, for
 * two negative controls, broken on the way ({@link #of}): {@code send-past-parked} hands a shard's
 * chunks to its worker out of seal order, {@code miscount-rows} hands over chunks that claim one
 * row more than they hold.
 */
class QueueView {
  final ShardQueues queues;

  QueueView(ShardQueues queues) {
    this.queues = queues;
  }

  /** Returns the view the mutation asks for. */
  static QueueView of(Mutation m, ShardQueues queues) {
    switch (m) {
      case SEND_PAST_PARKED: return new Reordering(queues);
      case MISCOUNT_ROWS: return new Miscounting(queues);
      default: return new QueueView(queues);
    }
  }

  /** Takes the next chunk of {@code shard}, or null when there is none. */
  EncodedChunk poll(int shard) {
    return queues.poll(shard);
  }

  /** Returns the chunks of {@code shard} not yet taken. */
  int size(int shard) {
    return queues.size(shard);
  }

  /** Takes every chunk of {@code shard} not yet taken, in the order the worker would. */
  List<EncodedChunk> drain(int shard) {
    return queues.drain(shard);
  }

  /**
   * A newer chunk overtakes an older one of its shard: whenever two wait, the worker gets the
   * second first (the broken promise B7 guards, seen from the sink).
   */
  private static final class Reordering extends QueueView {
    private final EncodedChunk[] held;

    Reordering(ShardQueues queues) {
      super(queues);
      this.held = new EncodedChunk[queues.numShards()];
    }

    @Override
    EncodedChunk poll(int shard) {
      EncodedChunk h = held[shard];
      if (h != null) {
        held[shard] = null;
        return h;
      }
      if (queues.size(shard) >= 2) {
        held[shard] = queues.poll(shard);
      }
      return queues.poll(shard);
    }

    @Override
    int size(int shard) {
      return queues.size(shard) + (held[shard] != null ? 1 : 0);
    }

    @Override
    List<EncodedChunk> drain(int shard) {
      List<EncodedChunk> all = new ArrayList<>();
      if (held[shard] != null) {
        all.add(held[shard]);
        held[shard] = null;
      }
      all.addAll(queues.drain(shard));
      return all;
    }
  }

  /** Every chunk the worker takes claims one row more than it holds. */
  private static final class Miscounting extends QueueView {
    Miscounting(ShardQueues queues) {
      super(queues);
    }

    @Override
    EncodedChunk poll(int shard) {
      EncodedChunk c = queues.poll(shard);
      return c == null ? null : new EncodedChunk(c.shard(), c.sequence(), c.frame(), c.rows() + 1,
          c.acks(), c.oldestIngestNanos(), c.oldestEventTimeMs());
    }
  }
}
