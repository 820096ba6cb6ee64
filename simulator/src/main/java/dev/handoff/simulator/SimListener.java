package dev.handoff.simulator;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.sink.WorkerListener;
import dev.handoff.core.sink.WorkersReport;

/**
 * The workers' listener in a simulation: it counts what the workers announce, per shard, and
 * judges each retry's backoff against the retry policy the engine configured. At shutdown {@link
 * #check} compares the announcements with what the simulated sink counted and with the workers'
 * report.
 */
final class SimListener implements WorkerListener {
  private final Engine e;
  private final Life l;
  /** Per shard: inserted events, their rows and bytes, dead letters, their rows, retries, abandoned chunks and rows. */
  private final long[][] heard;
  /** Per shard: the earliest tick the next attempt may start at after a retry's backoff. */
  final long[] nextAttemptAt;

  SimListener(Engine engine, Life life) {
    this.e = engine;
    this.l = life;
    this.heard = new long[engine.shards][8];
    this.nextAttemptAt = new long[engine.shards];
  }

  @Override
  public void inserted(int shard, int rows, long bytes, long nanos) {
    long[] h = heard[shard];
    h[0]++;
    h[1] += rows;
    h[2] += bytes;
  }

  @Override
  public void deadLettered(int shard, Insert insert, WriteException cause) {
    heard[shard][3]++;
    heard[shard][4] += insert.rows();
  }

  @Override
  public void abandoned(int shard, int chunks, int rows, Throwable cause) {
    heard[shard][6] += chunks;
    heard[shard][7] += rows;
  }

  /**
   * A retry waits {@code base * (1 - jitter * u)} for a u in [0, 1), with {@code base} the first
   * backoff doubled per failed attempt up to 16 times it (the policy {@code SimWorkers} builds,
   * jitter 0.5); the next attempt of the shard starts no earlier than that after now.
   */
  @Override
  public void retried(int shard, Insert insert, WriteException cause, int attempt,
      long backoffNanos) {
    heard[shard][5]++;
    long first = e.retryBackoffTicks * VirtualClock.NANOS_PER_TICK;
    long base = Math.min(16 * first, attempt >= 6 ? 16 * first : first << (attempt - 1));
    long low = Math.max(1, base / 2);
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (backoffNanos < low || backoffNanos > base) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + shard + " backs off " + backoffNanos
          + " ns after attempt " + attempt + " of chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + "; the policy allows " + low + " to " + base + " ns");
    }
    nextAttemptAt[shard] = e.clock.tick + SimRuntime.ticks(backoffNanos);
  }

  /** Returns the retries the workers announced for {@code shard}. */
  long retries(int shard) {
    return heard[shard][5];
  }

  /** Returns the chunks and rows the workers announced abandoned for {@code shard}. */
  long[] abandoned(int shard) {
    return new long[] {heard[shard][6], heard[shard][7]};
  }

  /**
   * At shutdown, for a shard shutdown did not give up on: the inserts and dead letters the
   * workers announced are those the sink counted, and the retries and abandoned chunks and rows
   * they announced are those their report says.
   */
  void check(WorkersReport.PerShard r) {
    long[] h = heard[r.shard()];
    long[] n = l.sinkCounts[r.shard()];
    e.book.checks[OracleBook.SHARD_REPORT_EXACT]++;
    if (h[0] != n[0] || h[1] != n[1] || h[2] != n[2] || h[3] != n[3] || h[4] != n[4]
        || h[5] != r.retries() || h[6] != r.abandonedChunks() || h[7] != r.abandonedRows()) {
      e.book.fail(OracleBook.SHARD_REPORT_EXACT, "the workers' listener heard for shard "
          + r.shard() + " " + h[0] + " inserts of " + h[1] + " rows and " + h[2] + " bytes, "
          + h[3] + " dead letters of " + h[4] + " rows, " + h[5] + " retries, " + h[6]
          + " chunks of " + h[7] + " rows abandoned; the sink answered " + n[0] + " inserts of "
          + n[1] + " rows and " + n[2] + " bytes and stored " + n[3] + " dead letters of " + n[4]
          + " rows, the report says " + r.retries() + " retries and " + r.abandonedChunks()
          + " chunks of " + r.abandonedRows() + " rows abandoned");
    }
  }
}
