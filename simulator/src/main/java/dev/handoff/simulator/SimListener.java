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
  /**
   * Per shard: inserted events, their rows and bytes, dead letters, their rows, retries, abandoned
   * chunks and rows, and of those the chunks and rows abandoned before shutdown began, and those
   * given up with a transient failure once shutdown's deadline and a poll interval had passed.
   */
  private final long[][] heard;
  /** The retries announced, and those whose backoff the jitter shortened. */
  private long jittered;
  /**
   * Per shard: the first wrong cause heard once shutdown began, judged when shutdown returns
   * (a worker shutdown gave up on has its chunks failed for it, with shutdown's cause).
   */
  private final String[] shutdownCauseFailure;
  /** Per shard: the earliest tick the next attempt may start at after a retry's backoff. */
  final long[] nextAttemptAt;

  SimListener(Engine engine, Life life) {
    this.e = engine;
    this.l = life;
    this.heard = new long[engine.shards][12];
    this.nextAttemptAt = new long[engine.shards];
    this.shutdownCauseFailure = new String[engine.shards];
  }

  @Override
  public void inserted(int shard, int rows, long bytes, long nanos) {
    long[] h = heard[shard];
    h[0]++;
    h[1] += rows;
    h[2] += bytes;
    // The write took from its attempt's start until the worker read the answer.
    long took = (e.clock.tick - l.writer.attemptTick[shard]) * VirtualClock.NANOS_PER_TICK;
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (nanos != took) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + shard + " says an insert took " + nanos
          + " ns; the sink saw its attempt start " + took + " ns before the answer was read");
    }
    if (l.faulty && (e.clock.tick & 63) == 7) {
      // Now and then a listener that breaks (chosen by the tick, no extra draw): the workers
      // must carry on as if it had not been called.
      throw new IllegalStateException("injected: the workers' listener broke");
    }
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
    if (!l.shuttingDown) { // no deadline yet: none of these may count as failed at shutdown
      heard[shard][8] += chunks;
      heard[shard][9] += rows;
    }
    if (l.shuttingDown && e.clock.tick > l.shutdownStart + l.shutdownDeadline + e.pollTicks
        && cause instanceof WriteException && ((WriteException) cause).isTransient()
        && !l.runtime.ws[shard].killed) {
      // Past the deadline (the workers abort by then): given up because shutdown ran out of time.
      heard[shard][10] += chunks;
      heard[shard][11] += rows;
    }
    l.writer.outage[shard] = false; // the worker gave the insert up: the sink is back
    e.book.checks[OracleBook.SHARD_REPORT_EXACT]++;
    if (chunks <= 0 || rows < chunks) { // every chunk holds a row
      e.book.fail(OracleBook.SHARD_REPORT_EXACT, "shard " + shard + "'s worker announced "
          + chunks + " chunks of " + rows + " rows abandoned (" + cause + ")");
    }
    checkCause(shard, cause);
    // Gave up after a transient answer, with attempts left: only when even the longest backoff
    // the policy could draw would end past maxElapsed (the retry budget says so, nothing else).
    // Shutdown (the deadline, an interrupt) and a killed worker give up for their own reasons.
    int attempt = l.writer.pendingTransient[shard];
    l.writer.pendingTransient[shard] = 0;
    if (attempt == 0 || attempt >= e.retryAttempts || l.shuttingDown
        || l.runtime.ws[shard].killed) {
      return;
    }
    long elapsed = (e.clock.tick - l.writer.firstAttemptTick[shard]) * VirtualClock.NANOS_PER_TICK;
    long longest = base(attempt);
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (elapsed + longest <= e.retryMaxElapsedTicks * VirtualClock.NANOS_PER_TICK) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + shard + " gave up on an insert after"
          + " attempt " + attempt + " of " + e.retryAttempts + ", " + elapsed + " ns after its"
          + " first attempt, though even the longest backoff (" + longest + " ns) would end"
          + " within maxElapsed (" + e.retryMaxElapsedTicks + " ticks)");
    }
  }

  /**
   * The cause chunks are failed with (what their batches are told), from the sink's side: given
   * up right after a transient answer (no retry announced since), the answer itself (a
   * RuntimeException of the writer wrapped in the transient failure it is taken as); after a
   * dead letter of the chunk could not be stored, that store's error, with the later ones of the
   * same chunk suppressed in it, unless the insert was given up (a transient cause: isolation
   * stopped, or shutdown failed the chunk) or the worker was killed (the process died).
   * Isolation settles a chunk before it writes parts of the next one, so the dead letters lost
   * since the last announcement are all of one chunk.
   */
  private void checkCause(int shard, Throwable cause) {
    SimWriter w = l.writer;
    if (w.pendingTransient[shard] > 0 && !l.runtime.ws[shard].killed) {
      Exception answer = w.lastTransient[shard];
      e.book.checks[OracleBook.ACKS_RESOLVED]++;
      if (cause != answer
          && !(answer instanceof RuntimeException && cause != null && cause.getCause() == answer)) {
        causeFailure(shard, "shard " + shard + "'s worker gave chunks up right after the sink's"
            + " transient answer (" + answer + ") but failed them with " + cause);
      }
    }
    java.util.List<Exception> lost = w.lostDeadLetters.get(shard);
    if (lost.isEmpty()) {
      return;
    }
    e.book.checks[OracleBook.ACKS_RESOLVED]++;
    // Given up: isolation stopped, or shutdown failed the chunk; or the process died.
    boolean givenUp = cause instanceof WriteException && ((WriteException) cause).isTransient()
        || l.runtime.ws[shard].killed;
    if (cause == lost.get(0)) {
      java.util.List<Throwable> suppressed = java.util.Arrays.asList(cause.getSuppressed());
      for (Exception later : lost.subList(1, lost.size())) {
        if (!suppressed.contains(later)) {
          causeFailure(shard, "shard " + shard + "'s chunk failed with its lost dead letter ("
              + cause + ") without the " + (lost.size() - 1) + " later one(s) of the same chunk"
              + " attached: " + suppressed.size() + " suppressed");
          break;
        }
      }
    } else if (!givenUp) {
      causeFailure(shard, "shard " + shard + " could not store a dead letter (" + lost.get(0)
          + "), but its worker failed the chunk with " + cause);
    }
    lost.clear();
  }

  /** A wrong cause: fails now, or once shutdown began, when shutdown returns ({@link #check}). */
  private void causeFailure(int shard, String why) {
    if (!l.shuttingDown) {
      e.book.fail(OracleBook.ACKS_RESOLVED, why);
    } else if (shutdownCauseFailure[shard] == null) {
      shutdownCauseFailure[shard] = why;
    }
  }

  /** The policy's backoff after failed attempt {@code attempt}, before jitter, in nanoseconds. */
  private long base(int attempt) {
    long first = e.retryBackoffTicks * VirtualClock.NANOS_PER_TICK;
    return Math.min(16 * first, attempt >= 6 ? 16 * first : first << (attempt - 1));
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
    long base = base(attempt);
    long low = Math.max(1, base / 2);
    jittered += backoffNanos < base ? 1 : 0;
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (backoffNanos < low || backoffNanos > base) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + shard + " backs off " + backoffNanos
          + " ns after attempt " + attempt + " of chunks " + insert.firstSequence() + ".."
          + insert.lastSequence() + "; the policy allows " + low + " to " + base + " ns");
    }
    nextAttemptAt[shard] = e.clock.tick + SimRuntime.ticks(backoffNanos);
    // The retry budget: the next attempt starts within maxElapsed of the insert's first.
    l.writer.pendingTransient[shard] = 0;
    long elapsed = (e.clock.tick - l.writer.firstAttemptTick[shard]) * VirtualClock.NANOS_PER_TICK;
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (elapsed + backoffNanos > e.retryMaxElapsedTicks * VirtualClock.NANOS_PER_TICK) {
      e.book.fail(OracleBook.INSERT_LIMITS, "shard " + shard + " retries chunks "
          + insert.firstSequence() + ".." + insert.lastSequence() + " after attempt " + attempt
          + ", " + elapsed + " ns after its first attempt, with a backoff of " + backoffNanos
          + " ns: past the retry policy's maxElapsed of " + e.retryMaxElapsedTicks + " ticks");
    }
  }

  /**
   * When the lifetime ends: with jitter 0.5, a backoff is its base only when the draw is below
   * about one in half a million, so of two or more retries at least one was shortened.
   */
  void checkJitter() {
    long retries = 0;
    for (long[] h : heard) {
      retries += h[5];
    }
    e.book.checks[OracleBook.INSERT_LIMITS]++;
    if (retries >= 2 && jittered == 0) {
      e.book.fail(OracleBook.INSERT_LIMITS, "none of the " + retries + " backoffs of process"
          + " lifetime " + l.epoch + " was shortened by the jitter of 0.5");
    }
  }

  /** Returns the retries the workers announced for {@code shard}. */
  long retries(int shard) {
    return heard[shard][5];
  }

  /**
   * Returns the chunks and rows the workers announced abandoned for {@code shard}; of those the
   * chunks and rows announced before shutdown began; and those given up with a transient failure
   * after shutdown's deadline plus a poll interval.
   */
  long[] abandoned(int shard) {
    return new long[] {heard[shard][6], heard[shard][7], heard[shard][8], heard[shard][9],
        heard[shard][10], heard[shard][11]};
  }

  /**
   * At shutdown, for a shard shutdown did not give up on: the inserts and dead letters the
   * workers announced are those the sink counted, and the retries and abandoned chunks and rows
   * they announced are those their report says; no chunk failed with a wrong cause while shutdown
   * ran.
   */
  void check(WorkersReport.PerShard r) {
    String wrongCause = shutdownCauseFailure[r.shard()];
    if (wrongCause != null) {
      e.book.fail(OracleBook.ACKS_RESOLVED, wrongCause);
    }
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
