package dev.handoff.core.sink;

import java.util.List;

/**
 * What the sink workers did over their whole life, returned by {@link
 * SinkWorkers#shutdown(java.time.Duration)}.
 *
 * <p>Every chunk a worker took, or that shutdown found in a queue, is in exactly one of: written
 * (its rows in {@link PerShard#rowsWritten()}, possibly minus dead-lettered rows), dead-lettered
 * in part and otherwise written (acknowledged as handled), or abandoned (its acknowledgements
 * failed; {@link PerShard#abandonedChunks()}, which includes those failed by shutdown).
 *
 * @param shards one entry per shard, in shard order
 * @param drained whether every queued chunk was handled before the deadline: nothing was failed
 *     by shutdown and no writer was left stuck
 */
public record WorkersReport(List<PerShard> shards, boolean drained) {

  /** Copies the list. */
  public WorkersReport {
    shards = List.copyOf(shards);
  }

  /** Returns the rows written over every shard. */
  public long rowsWritten() {
    return shards.stream().mapToLong(PerShard::rowsWritten).sum();
  }

  /** Returns the rows dead-lettered over every shard. */
  public long deadLetteredRows() {
    return shards.stream().mapToLong(PerShard::deadLetteredRows).sum();
  }

  /** Returns the chunks abandoned (acknowledgements failed) over every shard. */
  public long abandonedChunks() {
    return shards.stream().mapToLong(PerShard::abandonedChunks).sum();
  }

  /** Returns the retries over every shard. */
  public long retries() {
    return shards.stream().mapToLong(PerShard::retries).sum();
  }

  /**
   * One shard's outcome.
   *
   * @param shard the shard
   * @param inserts inserts (and parts of inserts) the sink acknowledged
   * @param rowsWritten rows in those inserts
   * @param bytesWritten bytes in those inserts
   * @param retries failed attempts that were retried
   * @param deadLetteredRows rows handed to {@link DeadLetters}
   * @param deadLetteredInserts dead letters written
   * @param abandonedChunks chunks whose acknowledgements failed, shutdown's included
   * @param abandonedRows rows of those chunks
   * @param failedAtShutdownChunks the chunks among {@code abandonedChunks} that shutdown failed
   *     (left in the queue at the deadline, or held by a worker that did not finish in time)
   * @param failedAtShutdownRows rows of those chunks
   * @param writerStuck whether the shard's worker was still inside the writer when shutdown gave
   *     up waiting for it (its chunks were failed by shutdown; the thread is left to end by
   *     itself)
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
      long failedAtShutdownChunks,
      long failedAtShutdownRows,
      boolean writerStuck) {}
}
