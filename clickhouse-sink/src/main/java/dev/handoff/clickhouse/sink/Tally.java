package dev.handoff.clickhouse.sink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.core.ShardReport;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.sink.WorkerListener;
import dev.handoff.core.sink.WorkersReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The sink's own listener of the stage and the workers: counts what the report needs, keeps the
 * first few distinct reasons for rows not delivered or dead-lettered, and forwards every event to
 * the application's listeners. (The workers themselves log those inserts at WARN.)
 *
 * <p>Threading: {@link #onFlush} runs under the sink's lock; the worker callbacks run on the
 * workers' threads; the reasons are guarded by {@code this}.
 */
final class Tally implements StageMetrics.Listener, WorkerListener {
  private static final int MAX_REASONS = 8;

  private final StageMetrics.Listener stageListener;
  private final WorkerListener workerListener;
  private final Set<String> reasons = new LinkedHashSet<>();
  /** Rows skipped by the encode policy; written under the sink's lock, read after close. */
  private long skipped;

  Tally(StageMetrics.Listener stageListener, WorkerListener workerListener) {
    this.stageListener = stageListener;
    this.workerListener = workerListener;
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

  /**
   * Returns the delivery report of a closed sink: rows not written, dead-lettered or skipped are
   * not delivered, and rows the stage failed back at the deadline add a reason.
   */
  DeliveryReport report(String table, long rowsPushed, WorkersReport w, List<ShardReport> shards,
      long rowsInDoubt, long failedBatches, long unfinished, boolean timedOut) {
    long failedBack = 0;
    for (ShardReport s : shards) {
      failedBack += s.rowsFailedBack();
    }
    if (failedBack > 0) {
      reason(failedBack + " rows not handed to the server before the deadline");
    }
    long notDelivered = Math.max(0,
        rowsPushed - w.rowsWritten() - w.deadLetteredRows() - skipped);
    long inserts = 0;
    for (WorkersReport.PerShard s : w.shards()) {
      inserts += s.inserts();
    }
    return new DeliveryReport(table, rowsPushed, w.rowsWritten(), w.deadLetteredRows(), skipped,
        notDelivered, inserts, w.retries(), rowsInDoubt, failedBatches, unfinished, timedOut,
        reasons());
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
    reason("dead-lettered: " + describe(e));
    workerListener.deadLettered(shard, insert, e);
  }

  @Override
  public void abandoned(int shard, int chunks, int rows, Throwable cause) {
    reason("not delivered: " + (cause instanceof WriteException
        ? describe((WriteException) cause) : String.valueOf(cause)));
    workerListener.abandoned(shard, chunks, rows, cause);
  }

  private static String describe(WriteException e) {
    return (e.serverCode() > 0 ? "server code " + e.serverCode() + ": " : "") + e.getMessage();
  }
}
