package dev.handoff.simulator;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.Envelope;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.ShardReport;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.StageMetrics;
import dev.handoff.core.ack.BatchListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The negative controls of one process lifetime, built from the outside of the real core classes:
 * decorators around the real {@link SinkHandoff} (what the driver calls), around what the stage is
 * given (its metrics listener, the acks handed in with the records) and around what the simulator
 * reads (the checkpoints {@code SourceAcks} reports). Each breaks one promise so that one oracle
 * must fail; with {@link Mutation#NONE} everything passes straight through. The sink-side controls
 * are in {@link QueueView} and {@link SinkWorkers}.
 */
final class StageVariants {
  private final Mutation m;
  /** Records the {@code drop-record} stage dropped since the last metrics flush. */
  private long droppedSinceFlush;

  StageVariants(Mutation mutation) {
    this.m = mutation;
  }

  /** Wraps the metrics listener the stage is given. */
  private StageMetrics.Listener metrics(StageMetrics.Listener real) {
    switch (m) {
      case UNCOUNTED_SKIP: // the stage never reports a record it skipped
        return s -> real.onFlush(new StageMetrics(s.stage(), s.seen(), s.out(), 0, s.errors(),
            s.elapsed(), s.parkedChunks(), s.parkedBytes()));
      case UNCOUNTED_ERROR: // the stage never reports an encode error
        return s -> real.onFlush(new StageMetrics(s.stage(), s.seen(), s.out(), s.skipped(), 0,
            s.elapsed(), s.parkedChunks(), s.parkedBytes()));
      case DROP_RECORD: // the dropped records count as seen, as records the stage took
        return s -> {
          long dropped = droppedSinceFlush;
          droppedSinceFlush = 0;
          real.onFlush(new StageMetrics(s.stage(), s.seen() + dropped, s.out(), s.skipped(),
              s.errors(), s.elapsed(), s.parkedChunks(), s.parkedBytes()));
        };
      default:
        return real;
    }
  }

  /**
   * Wraps what a source's {@code SourceAcks} tells the simulator: under {@code checkpoint-lags}
   * every checkpoint past the lifetime's first reads one batch behind.
   */
  BatchListener checkpoints(BatchListener real, long startCheckpoint) {
    if (m != Mutation.CHECKPOINT_LAGS) {
      return real;
    }
    return (batch, cp) -> real.onResolved(batch, cp > startCheckpoint ? cp - 1 : cp);
  }

  /**
   * Builds lifetime {@code l}'s real stage on its queues and budget, with the engine's encoder,
   * router, clock and chunk configuration, and returns what the driver calls around it.
   */
  SimStage stage(Engine e, Life l) {
    StageMetrics.Listener listener = metrics(s -> {
      l.stageSkipped += s.skipped();
      l.stageSeen += s.seen();
      l.stageOut += s.out();
      l.stageErrors += s.errors();
      e.gauges.checkFlush(l, s);
    });
    Supplier<SinkHandoff<SimRow>> fresh = () -> SinkHandoff.builder(e.template, l.queues)
        .name("sim")
        .router(e.router)
        .budget(l.budget)
        .pool(l.pool)
        .config(new ChunkConfig(e.target, e.policy, Duration.ofMillis(e.maxAgeTicks)))
        .clock(e.clock)
        .metrics(listener)
        .build();
    SinkHandoff<SimRow> real = fresh.get();
    InflightBudget budget = l.budget;
    switch (m) {
      case DROP_RECORD: return new Dropping(real);
      case THROW_ON_PUSH: return new Throwing(real);
      case KEEP_PARTIAL_ACKS: return new KeepingAcks(real);
      case UNCOUNTED_FAILBACK: return new UncountedFailback(real);
      case RELIEVE_NEVER_DRAINS: return new NeverDraining(real, budget);
      case IGNORE_BACKPRESSURE: return new IgnoringPressure(real);
      case SEND_AFTER_FATAL: return new Restarting(real, () -> {
        e.shadow.discardOpen(l); // the fresh stage's encoders hold no row: nor does the shadow
        return fresh.get();
      });
      case NEVER_SEALS_AGED: return new NeverSealingAged(real, budget);
      default: return new SimStage(real);
    }
  }

  /** Drops every 97th record: not passed on, not counted as skipped, its ack untouched. */
  private final class Dropping extends SimStage {
    private long pushes;

    Dropping(SinkHandoff<SimRow> real) {
      super(real);
    }

    @Override
    public FlowControl push(Envelope<SimRow> record) {
      if (++pushes % 97 == 0) {
        droppedSinceFlush++;
        return FlowControl.CONTINUE;
      }
      return inner.push(record);
    }
  }

  /** Every 101st push throws, though push never throws (B1). */
  private static final class Throwing extends SimStage {
    private long pushes;

    Throwing(SinkHandoff<SimRow> real) {
      super(real);
    }

    @Override
    public FlowControl push(Envelope<SimRow> record) {
      if (++pushes % 101 == 0) {
        throw new IllegalStateException("broken stage: push threw");
      }
      return inner.push(record);
    }
  }

  /**
   * Hands the stage each batch's ack through a wrapper that ignores what {@code close()} does to
   * it: the acks teardown should fail (parked chunks, open buffers) stay unresolved (B13).
   */
  private static final class KeepingAcks extends SimStage {
    private final Map<Ack, Ack> wrappers = new IdentityHashMap<>();
    private boolean closing;

    KeepingAcks(SinkHandoff<SimRow> real) {
      super(real);
    }

    @Override
    public FlowControl push(Envelope<SimRow> record) {
      Ack ack = wrappers.computeIfAbsent(record.ack(), this::wrap);
      return inner.push(new Envelope<>(record.payload(), record.meta(), ack));
    }

    private Ack wrap(Ack real) {
      return new Ack() {
        @Override
        public long batchId() {
          return real.batchId();
        }

        @Override
        public void retain() {
          real.retain();
        }

        @Override
        public void release() {
          if (!closing) {
            real.release();
          }
        }

        @Override
        public void fail(Throwable cause) {
          if (!closing) {
            real.fail(cause);
          }
        }
      };
    }

    @Override
    public void close() {
      closing = true;
      inner.close();
    }
  }

  /** Reports no chunk failed back by {@code close()} in its shard reports. */
  private static final class UncountedFailback extends SimStage {
    UncountedFailback(SinkHandoff<SimRow> real) {
      super(real);
    }

    @Override
    public List<ShardReport> shardReports() {
      List<ShardReport> out = new ArrayList<>();
      for (ShardReport r : inner.shardReports()) {
        out.add(new ShardReport(r.shard(), r.chunksSealed(), r.chunksSent(), 0,
            r.bytesAbandoned(), r.rowsFailedBack()));
      }
      return out;
    }
  }

  /** Reports parked chunks but never calls the real relieve, so they never leave (B6, B8). */
  private static final class NeverDraining extends SimStage {
    private final InflightBudget budget;

    NeverDraining(SinkHandoff<SimRow> real, InflightBudget budget) {
      super(real);
      this.budget = budget;
    }

    @Override
    public FlowControl relieve() {
      return inner.parkedChunks() == 0 ? FlowControl.CONTINUE : FlowControl.BLOCKED;
    }

    @Override
    public FlowControl pressure() {
      inner.sealAged();
      return relieve() == FlowControl.BLOCKED || !budget.hasRoom() ? FlowControl.BLOCKED
          : FlowControl.CONTINUE;
    }
  }

  /** Says CONTINUE while the real stage is blocked or its budget full. */
  private static final class IgnoringPressure extends SimStage {
    IgnoringPressure(SinkHandoff<SimRow> real) {
      super(real);
    }

    @Override
    public FlowControl pressure() {
      inner.pressure();
      return FlowControl.CONTINUE;
    }
  }

  /**
   * Never stops: once the real stage stopped on a fatal error it hides the error from the driver
   * and goes on with a fresh real stage on the same queues and budget, so chunks keep reaching the
   * queues after the fatal (B11, B14).
   */
  private static final class Restarting extends SimStage {
    private final Supplier<SinkHandoff<SimRow>> fresh;
    private final List<SinkHandoff<SimRow>> retired = new ArrayList<>();
    private final List<SinkHandoff<SimRow>> unflushed = new ArrayList<>();

    Restarting(SinkHandoff<SimRow> real, Supplier<SinkHandoff<SimRow>> fresh) {
      super(real);
      this.fresh = fresh;
    }

    private void restartIfStopped() {
      if (inner.isStopped()) {
        retired.add(inner);
        unflushed.add(inner);
        inner = fresh.get();
      }
    }

    @Override
    public FlowControl push(Envelope<SimRow> record) {
      restartIfStopped();
      return inner.push(record);
    }

    @Override
    public void onBatchEnd(Duration elapsed) {
      for (SinkHandoff<SimRow> s : unflushed) {
        s.onBatchEnd(elapsed); // the retired stage's last counters
      }
      unflushed.clear();
      inner.onBatchEnd(elapsed);
    }

    @Override
    public Optional<FatalError> takeFatal() {
      inner.takeFatal();
      restartIfStopped();
      return Optional.empty();
    }

    @Override
    public FlowControl pressure() {
      restartIfStopped();
      return inner.pressure();
    }

    @Override
    public FlowControl flushTerminal() {
      restartIfStopped();
      return inner.flushTerminal();
    }

    @Override
    public void close() {
      for (SinkHandoff<SimRow> s : retired) {
        s.close();
      }
      inner.close();
    }
  }

  /** Never seals an aged chunk: the timer's call does nothing, and pressure only relieves (B15). */
  private static final class NeverSealingAged extends SimStage {
    private final InflightBudget budget;

    NeverSealingAged(SinkHandoff<SimRow> real, InflightBudget budget) {
      super(real);
      this.budget = budget;
    }

    @Override
    int sealAged() {
      return 0;
    }

    @Override
    public FlowControl pressure() {
      return inner.relieve() == FlowControl.BLOCKED || !budget.hasRoom() ? FlowControl.BLOCKED
          : FlowControl.CONTINUE;
    }
  }
}
