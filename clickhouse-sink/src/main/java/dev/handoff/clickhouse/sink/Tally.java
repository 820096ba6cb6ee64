package dev.handoff.clickhouse.sink;

import dev.handoff.api.HandoffClock;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.sink.WorkerListener;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's own listener of the stage and the workers: counts what the report needs, keeps the
 * first few distinct reasons for rows not delivered, logs dead-lettered and abandoned inserts at
 * WARN (rate-limited, with the server's code and message), and forwards every event to the
 * application's listeners.
 *
 * <p>Threading: {@link #onFlush} runs under the sink's lock; the worker callbacks run on the
 * workers' threads; the reasons are guarded by {@code this}.
 */
final class Tally implements StageMetrics.Listener, WorkerListener {
  private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);
  private static final int MAX_REASONS = 8;

  private final String table;
  private final StageMetrics.Listener stageListener;
  private final WorkerListener workerListener;
  private final WarnGate warnings;
  private final Set<String> reasons = new LinkedHashSet<>();
  /** Rows skipped by the encode policy; written under the sink's lock, read after close. */
  private long skipped;

  Tally(String table, StageMetrics.Listener stageListener, WorkerListener workerListener,
      HandoffClock clock) {
    this.table = table;
    this.stageListener = stageListener;
    this.workerListener = workerListener;
    this.warnings = new WarnGate(5, 10_000_000_000L, clock);
  }

  @Override
  public void onFlush(StageMetrics metrics) {
    skipped += metrics.skipped();
    stageListener.onFlush(metrics);
  }

  long skipped() {
    return skipped;
  }

  synchronized void reason(String reason) {
    if (reasons.size() < MAX_REASONS) {
      reasons.add(reason);
    }
  }

  synchronized List<String> reasons() {
    return new ArrayList<>(reasons);
  }

  @Override
  public void inserted(int shard, int rows, long bytes, long nanos) {
    workerListener.inserted(shard, rows, bytes, nanos);
  }

  @Override
  public void retried(int shard, Insert insert, WriteException e, int attempt,
      long backoffNanos) {
    workerListener.retried(shard, insert, e, attempt, backoffNanos);
  }

  @Override
  public void deadLettered(int shard, Insert insert, WriteException e) {
    String why = describe(e);
    reason("dead-lettered: " + why);
    long suppressed = warnings.tryPass();
    if (suppressed >= 0) {
      LOG.warn("sink {}: {} rows of shard {} rejected by the server and dead-lettered: {}{}",
          table, insert.rows(), shard, why, suffix(suppressed));
    }
    workerListener.deadLettered(shard, insert, e);
  }

  @Override
  public void abandoned(int shard, int chunks, int rows, Throwable cause) {
    String why = cause instanceof WriteException ? describe((WriteException) cause)
        : String.valueOf(cause);
    reason("not delivered: " + why);
    long suppressed = warnings.tryPass();
    if (suppressed >= 0) {
      LOG.warn("sink {}: {} rows ({} chunks) of shard {} not delivered; their batches fail and"
          + " replay: {}{}", table, rows, chunks, shard, why, suffix(suppressed));
    }
    workerListener.abandoned(shard, chunks, rows, cause);
  }

  private static String describe(WriteException e) {
    return (e.serverCode() > 0 ? "server code " + e.serverCode() + ": " : "") + e.getMessage();
  }

  private static String suffix(long suppressed) {
    return suppressed > 0 ? " (" + suppressed + " similar warnings suppressed)" : "";
  }
}
