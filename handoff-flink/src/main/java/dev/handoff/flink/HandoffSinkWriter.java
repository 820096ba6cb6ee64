package dev.handoff.flink;

import dev.handoff.api.FlowControl;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.clickhouse.sink.DeliveryReport;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subtask's writer: one {@link ClickHouseSink} per target table, each with a tracked batch
 * that spans the rows pushed since the last flush.
 *
 * <p><b>Threading:</b> every method, and the metrics timer, runs on the task's thread (the
 * mailbox thread); the facades' workers and tickers run on their own threads and reach this
 * class only through the {@link FlinkMetrics} listener, which is thread-safe.
 */
final class HandoffSinkWriter<T> implements SinkWriter<T> {
  private static final Logger LOG = LoggerFactory.getLogger(HandoffSinkWriter.class);
  /** The longest a blocked writer parks before looking at the mailbox again. */
  private static final long MAX_PARK_NANOS = 10_000_000L;
  private static final long METRICS_INTERVAL_MS = 1_000L;

  private final SinkSettings<T> settings;
  private final AccessorFactory<T> accessor;
  private final MailboxExecutor mailbox;
  private final ProcessingTimeService time;
  private final FlinkMetrics metrics;
  private final String subtask;
  private final Map<String, Target<T>> targets = new HashMap<>();
  private final List<Target<T>> ordered = new ArrayList<>();
  /** The only target when the sink writes one table, so a write looks nothing up. */
  private final Target<T> single;
  private boolean endOfInput;
  private boolean closed;

  HandoffSinkWriter(SinkSettings<T> settings, AccessorFactory<T> accessor,
      WriterInitContext context) throws IOException {
    this.settings = settings;
    this.accessor = accessor;
    this.mailbox = context.getMailboxExecutor();
    this.time = context.getProcessingTimeService();
    this.metrics = new FlinkMetrics(context.metricGroup());
    this.subtask = Integer.toString(context.getTaskInfo().getIndexOfThisSubtask());
    this.single = settings.selector == null ? target(settings.table) : null;
    scheduleMetrics();
  }

  @Override
  public void write(T row, Context context) throws IOException, InterruptedException {
    Target<T> t = single != null ? single : target(settings.selector.table(row));
    FlowControl f;
    try {
      f = t.sink.push(row, t.batch);
    } catch (IllegalStateException stopped) {
      throw new IOException(stopped.getMessage(), stopped);
    }
    if (f == FlowControl.BLOCKED) {
      awaitRoom(t);
    }
  }

  /**
   * Yields to the mailbox (checkpoint triggers, timers, other mails) while {@code t} reports
   * pressure; parks in short, growing slices when there is no mail, so it never spins a core.
   */
  private void awaitRoom(Target<T> t) throws IOException, InterruptedException {
    long park = 100_000L;
    metrics.blocked();
    while (pressure(t) == FlowControl.BLOCKED) {
      if (mailbox.tryYield()) {
        park = 100_000L;
        continue;
      }
      LockSupport.parkNanos(park);
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while " + t.name + " was full");
      }
      park = Math.min(MAX_PARK_NANOS, park * 2);
    }
  }

  private static FlowControl pressure(Target<?> t) throws IOException {
    try {
      FlowControl f = t.sink.pressure();
      if (t.sink.fatalError().isPresent()) {
        throw new IOException("handoff sink of " + t.name + " stopped: "
            + t.sink.fatalError().get().reason());
      }
      return f;
    } catch (IllegalStateException stopped) {
      throw new IOException(stopped.getMessage(), stopped);
    }
  }

  /**
   * Seals every table's open chunks and waits until every row pushed since the last flush is
   * written or dead-lettered; then opens the next batch. Flink calls it before each checkpoint
   * barrier goes on and at the end of input.
   *
   * @throws IOException if some of those rows could not be delivered: the checkpoint fails, and
   *     Flink restores the last one and replays from there
   */
  @Override
  public void flush(boolean endOfInput) throws IOException, InterruptedException {
    if (this.endOfInput) {
      return; // the end of input was flushed; no row came since
    }
    for (Target<T> t : ordered) {
      t.batch.complete();
      try {
        t.sink.seal();
      } catch (IllegalStateException stopped) {
        throw new IOException(stopped.getMessage(), stopped);
      }
    }
    for (Target<T> t : ordered) {
      awaitSettled(t);
      SourceBatch done = t.batch;
      if (done.state() == SourceBatch.State.FAILED) {
        throw new IOException("handoff sink: rows for " + t.name + " pushed since the last "
            + "checkpoint were not delivered, so this checkpoint fails and they replay: "
            + done.failure(), done.failure());
      }
      // After the end of input no row comes: a new batch would stay open for ever.
      t.batch = endOfInput ? null : t.acks.begin();
    }
    this.endOfInput = endOfInput;
    metrics.publish();
  }

  private void awaitSettled(Target<T> t) throws IOException, InterruptedException {
    long park = 100_000L;
    while (t.batch.state() == SourceBatch.State.PENDING) {
      pressure(t); // hands on parked chunks as the budget frees
      if (t.batch.state() != SourceBatch.State.PENDING) {
        return;
      }
      if (mailbox.tryYield()) {
        continue;
      }
      LockSupport.parkNanos(park);
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while flushing " + t.name);
      }
      park = Math.min(MAX_PARK_NANOS, park * 2);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    // After the end of input everything was flushed; otherwise the task failed or was
    // cancelled, and what the sinks hold replays from the last checkpoint: no reason to wait.
    Duration deadline = endOfInput ? settings.closeTimeout : Duration.ZERO;
    for (Target<T> t : ordered) {
      DeliveryReport r = t.sink.close(deadline);
      if (endOfInput && !r.allDelivered()) {
        LOG.warn("subtask {}: closing {} left rows undelivered: {}", subtask, t.name,
            r.summary());
      }
    }
    metrics.publish();
  }

  private Target<T> target(String name) {
    Target<T> t = targets.get(name);
    if (t == null) {
      t = new Target<>(name, settings.open(name, accessor, metrics, name + "-"
          + subtask), "flink-" + name + "-" + subtask);
      targets.put(name, t);
      ordered.add(t);
      metrics.register(name, t.sink);
    }
    return t;
  }

  private void scheduleMetrics() {
    time.registerTimer(time.getCurrentProcessingTime() + METRICS_INTERVAL_MS, now -> {
      if (!closed) {
        metrics.publish();
        scheduleMetrics();
      }
    });
  }

  /** One target table of this subtask. */
  private static final class Target<T> {
    final String name;
    final ClickHouseSink<T> sink;
    final SourceAcks acks;
    /** The batch of the rows pushed since the last flush. */
    SourceBatch batch;

    Target(String name, ClickHouseSink<T> sink, String source) {
      this.name = name;
      this.sink = sink;
      this.acks = sink.source(source);
      this.batch = acks.begin();
    }
  }
}
