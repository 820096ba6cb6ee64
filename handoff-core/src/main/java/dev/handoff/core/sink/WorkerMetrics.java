package dev.handoff.core.sink;

import java.util.List;
import java.util.Objects;

/**
 * A snapshot of the sink workers' counters and gauges, per shard and in total; taken by {@link
 * SinkWorkers#metrics()} from any thread. Counters only grow over the workers' life.
 *
 * @param shards one entry per shard, in shard order
 * @param total the sums over every shard ({@link PerShard#shard()} is {@code -1}); its {@link
 *     PerShard#oldestUnackedAgeNanos()} is the largest over the shards and its {@link
 *     PerShard#queuedChunks()} the sum
 */
public record WorkerMetrics(List<PerShard> shards, PerShard total) {

  /** Copies the list and checks the fields. */
  public WorkerMetrics {
    shards = List.copyOf(shards);
    Objects.requireNonNull(total, "total");
  }

  /** Returns shard {@code shard}'s entry. */
  public PerShard shard(int shard) {
    return shards.get(shard);
  }

  /**
   * One shard's counters and gauges.
   *
   * @param shard the shard, or {@code -1} for the total
   * @param inserts inserts (and parts of inserts, while isolating rejected rows) the sink
   *     acknowledged
   * @param rowsWritten rows in those inserts
   * @param bytesWritten bytes in those inserts
   * @param retries failed attempts that were retried
   * @param deadLetteredRows rows handed to {@link DeadLetters}
   * @param deadLetteredInserts dead letters written (parts of inserts)
   * @param abandonedChunks chunks whose acknowledgements failed, for any reason (retries
   *     exhausted, {@link PermanentPolicy#FAIL_ACKS}, a dead letter that could not be written,
   *     shutdown)
   * @param abandonedRows rows of those chunks
   * @param queuedChunks chunks waiting in the shard's queue now (a gauge)
   * @param oldestUnackedAgeNanos how long ago, on the injected clock, the first row of the oldest
   *     chunk that a worker holds or that waits in the queue arrived ({@code
   *     EncodedChunk.oldestIngestNanos}); {@code 0} when there is none (a gauge)
   */
  public record PerShard(
      int shard,
      long inserts,
      long rowsWritten,
      long bytesWritten,
      long retries,
      long deadLetteredRows,
      long deadLetteredInserts,
      long abandonedChunks,
      long abandonedRows,
      int queuedChunks,
      long oldestUnackedAgeNanos) {}
}
