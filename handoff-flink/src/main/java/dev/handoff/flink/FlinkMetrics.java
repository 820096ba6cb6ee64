package dev.handoff.flink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.core.ShardReport;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.sink.WorkerListener;
import dev.handoff.core.sink.WorkerMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * A subtask's metrics in Flink's sink writer group: {@code numRecordsSend}, {@code
 * numBytesSend}, {@code numRecordsSendErrors} (rows dead-lettered or given up), {@code
 * numRecordsOutErrors} (rows the encoder refused and skipped) and {@code currentSendTime}, plus a
 * {@code handoff} group with counters of retries and blocked writes and, per table and shard,
 * gauges of parked chunks, queued chunks, the age of the oldest unacknowledged chunk and the
 * budget in use.
 *
 * <p><b>Threading:</b> the workers' and the stage's events arrive on their threads and go into
 * adders; {@link #publish()} moves them into Flink's counters (which are not thread-safe) and
 * refreshes the gauges' snapshots on the task thread. Gauges read volatile snapshots.
 */
final class FlinkMetrics implements WorkerListener, StageMetrics.Listener {
  private final SinkWriterMetricGroup group;
  private final MetricGroup handoff;
  private final Counter retriesCounter;
  private final Counter blockedCounter;
  private final LongAdder rows = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final LongAdder sendErrors = new LongAdder();
  private final LongAdder skipped = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private long blocked; // task thread only
  private long rowsDone;
  private long bytesDone;
  private long sendErrorsDone;
  private long skippedDone;
  private long retriesDone;
  private long blockedDone;
  private volatile long currentSendTimeMs;
  private final List<TableGauges> tables = new ArrayList<>();

  FlinkMetrics(SinkWriterMetricGroup group) {
    this.group = group;
    this.handoff = group.addGroup("handoff");
    this.retriesCounter = handoff.counter("retries");
    this.blockedCounter = handoff.counter("blockedWrites");
    group.setCurrentSendTimeGauge(() -> currentSendTimeMs);
  }

  @Override
  public void inserted(int shard, int rowCount, long byteCount, long nanos) {
    rows.add(rowCount);
    bytes.add(byteCount);
    currentSendTimeMs = nanos / 1_000_000L;
  }

  @Override
  public void retried(int shard, Insert insert, WriteException e, int attempt, long backoff) {
    retries.increment();
  }

  @Override
  public void deadLettered(int shard, Insert insert, WriteException e) {
    sendErrors.add(insert.rows());
  }

  @Override
  public void abandoned(int shard, int chunks, int rowCount, Throwable cause) {
    sendErrors.add(rowCount);
  }

  @Override
  public void onFlush(StageMetrics m) {
    skipped.add(m.skipped());
  }

  /** Counts a write that had to wait for room. Task thread. */
  void blocked() {
    blocked++;
  }

  /** Registers the gauges of one table's sink. Task thread. */
  void register(String table, ClickHouseSink<?> sink) {
    MetricGroup g = handoff.addGroup("table", table);
    TableGauges t = new TableGauges(sink);
    g.gauge("budgetInUseBytes", (Gauge<Long>) sink::inflightBytes);
    for (int i = 0; i < sink.workerMetrics().shards().size(); i++) {
      final int shard = i;
      MetricGroup s = g.addGroup("shard", Integer.toString(i));
      s.gauge("parkedChunks", (Gauge<Long>) () -> t.parked[shard]);
      s.gauge("queuedChunks", (Gauge<Long>) () -> t.queued[shard]);
      s.gauge("oldestUnackedAgeMs", (Gauge<Long>) () -> t.oldestMs[shard]);
    }
    tables.add(t);
    t.refresh();
  }

  /** Moves counted events into Flink's counters and refreshes the gauges. Task thread. */
  void publish() {
    rowsDone = move(rows, rowsDone, group.getNumRecordsSendCounter());
    bytesDone = move(bytes, bytesDone, group.getNumBytesSendCounter());
    sendErrorsDone = move(sendErrors, sendErrorsDone, group.getNumRecordsSendErrorsCounter());
    skippedDone = move(skipped, skippedDone, group.getNumRecordsOutErrorsCounter());
    retriesDone = move(retries, retriesDone, retriesCounter);
    blockedCounter.inc(blocked - blockedDone);
    blockedDone = blocked;
    for (TableGauges t : tables) {
      t.refresh();
    }
  }

  private static long move(LongAdder from, long done, Counter to) {
    long now = from.sum();
    to.inc(now - done);
    return now;
  }

  /** Snapshots of one table's per-shard gauges, written on the task thread. */
  private static final class TableGauges {
    private final ClickHouseSink<?> sink;
    volatile long[] parked;
    volatile long[] queued;
    volatile long[] oldestMs;

    TableGauges(ClickHouseSink<?> sink) {
      this.sink = sink;
      int n = sink.workerMetrics().shards().size();
      parked = new long[n];
      queued = new long[n];
      oldestMs = new long[n];
    }

    void refresh() {
      WorkerMetrics w = sink.workerMetrics();
      List<ShardReport> reports = sink.shardReports();
      long[] p = new long[reports.size()];
      long[] q = new long[p.length];
      long[] o = new long[p.length];
      for (int i = 0; i < p.length; i++) {
        ShardReport r = reports.get(i);
        p[i] = r.chunksSealed() - r.chunksSent() - r.chunksFailedBack();
        q[i] = w.shard(i).queuedChunks();
        o[i] = w.shard(i).oldestUnackedAgeNanos() / 1_000_000L;
      }
      parked = p;
      queued = q;
      oldestMs = o;
    }
  }
}
