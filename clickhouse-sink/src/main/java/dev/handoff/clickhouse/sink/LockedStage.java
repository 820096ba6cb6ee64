package dev.handoff.clickhouse.sink;

import dev.handoff.api.Envelope;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import dev.handoff.api.HandoffException;
import dev.handoff.core.ShardReport;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The stage as the sink's {@code Chain} sees it in pull mode: every call takes the sink's lock,
 * so the sink's ticker can seal aged chunks between two records even while the source is busy or
 * blocked inside {@code pushNext}. The stage itself stays single-writer: one thread at a time,
 * whoever holds the lock.
 */
final class LockedStage<T> implements Stage<T> {
  private final SinkHandoff<T> stage;
  private final ReentrantLock lock;
  private final Counter pushed;
  /** The server's sharding key, which replaces the sources' routing keys; null: keep theirs. */
  private final ToLongFunction<? super T> placement;

  /** Counts the records pulled in pull mode; written under the lock. */
  static final class Counter {
    long value;
  }

  LockedStage(SinkHandoff<T> stage, ReentrantLock lock, Counter pushed,
      ToLongFunction<? super T> placement) {
    this.stage = stage;
    this.lock = lock;
    this.pushed = pushed;
    this.placement = placement;
  }

  @Override
  public FlowControl push(Envelope<T> record) {
    if (placement != null) {
      return place(record);
    }
    lock.lock();
    try {
      pushed.value++;
      return stage.push(record);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Pushes a record on the shard the server's sharding key picks, as push mode does; a record
   * whose key has no value is a bad record for the stage's policy.
   */
  private FlowControl place(Envelope<T> record) {
    long key = 0;
    HandoffException badKey = null;
    try {
      key = placement.applyAsLong(record.payload());
    } catch (HandoffException e) {
      badKey = e;
    }
    lock.lock();
    try {
      pushed.value++;
      return badKey != null ? stage.reject(badKey, record.ack())
          : stage.push(record.payload(), record.meta().eventTimeMs(), key, record.ack());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public FlowControl pressure() {
    lock.lock();
    try {
      return stage.pressure();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<ShardReport> shardReports() {
    lock.lock();
    try {
      return stage.shardReports();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onBatchEnd(Duration elapsed) {
    lock.lock();
    try {
      stage.onBatchEnd(elapsed);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<FatalError> takeFatal() {
    lock.lock();
    try {
      return stage.takeFatal();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public FlowControl relieve() {
    lock.lock();
    try {
      return stage.relieve();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public FlowControl flushTerminal() {
    lock.lock();
    try {
      return stage.flushTerminal();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      stage.close();
    } finally {
      lock.unlock();
    }
  }
}
