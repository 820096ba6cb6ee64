package dev.handoff.simulator;

import dev.handoff.api.Envelope;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import dev.handoff.core.ShardReport;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The stage a lifetime's {@code Chain} drives: the real {@link SinkHandoff}, passed through
 * unchanged. The negative controls ({@link StageVariants}) extend it and break one promise from the
 * outside; the stage inside is always the real one.
 *
 * <p>Besides the {@link Stage} calls it gives the engine what it reads from the stage (parked
 * chunks, whether it stopped) and the timer's {@link #sealAged()}.
 */
class SimStage implements Stage<SimRow> {
  /** The real stage; a variant may replace it (see {@code StageVariants.Restarting}). */
  SinkHandoff<SimRow> inner;

  SimStage(SinkHandoff<SimRow> inner) {
    this.inner = inner;
  }

  @Override
  public FlowControl push(Envelope<SimRow> record) {
    return inner.push(record);
  }

  @Override
  public void onBatchEnd(Duration elapsed) {
    inner.onBatchEnd(elapsed);
  }

  @Override
  public Optional<FatalError> takeFatal() {
    return inner.takeFatal();
  }

  @Override
  public FlowControl relieve() {
    return inner.relieve();
  }

  @Override
  public FlowControl pressure() {
    return inner.pressure();
  }

  @Override
  public FlowControl flushTerminal() {
    return inner.flushTerminal();
  }

  @Override
  public void close() {
    inner.close();
  }

  @Override
  public List<ShardReport> shardReports() {
    return inner.shardReports();
  }

  /** What the timer calls every tick, as the ClickHouse sink facade's timer thread does. */
  int sealAged() {
    return inner.sealAged();
  }

  int parkedChunks() {
    return inner.parkedChunks();
  }

  long parkedBytes() {
    return inner.parkedBytes();
  }

  int parkedChunks(int shard) {
    return inner.parkedChunks(shard);
  }

  boolean isStopped() {
    return inner.isStopped();
  }
}
