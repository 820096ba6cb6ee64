package dev.handoff.core;

import dev.handoff.api.HandoffClock;
import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The driver: pulls payloads from a {@link Source}, pushes their records into a {@link Stage}
 * (normally a {@link SinkHandoff}), and respects the stage's pressure, its in-flight budget
 * included.
 *
 * <p>Between payloads it asks {@link Stage#pressure()}, which also seals chunks that reached the
 * maximum chunk age; while it says {@link FlowControl#BLOCKED} the chain backs off
 * (exponentially, from {@code minBackoff} to {@code maxBackoff}, by the injected clock) and asks
 * again. After each payload it calls {@code onBatchEnd} and {@code takeFatal}; a fatal error stops
 * it at once. When the source is exhausted or {@link #requestStop()} was called, it calls {@code
 * flushTerminal} until {@link FlowControl#CONTINUE} or the drain deadline, then closes the stage
 * (which fails what was not handed on) and returns a {@link ChainReport}. The budget it respects
 * is always the stage's own: a chain has no budget of its own to get wrong.
 *
 * <p>{@link #run()} drives the whole life on the calling thread. {@link #step()} does one unit of
 * work and says what it did, so a simulator can interleave the driver with other events under its
 * own clock.
 *
 * @param <T> the payload type
 */
public final class Chain<T> {

  /** What one {@link #step()} did. */
  public enum Step {
    /** Pulled one payload and pushed its records. */
    PULLED,
    /** Could not pull (stage blocked or budget full) or drain yet; wait {@link #backoffNanos()}. */
    BACKOFF,
    /** The run is over; {@link #report()} is available. */
    DONE
  }

  private enum Phase { RUNNING, DRAINING, DONE }

  private final Source<T> source;
  private final Stage<T> stage;
  private final HandoffClock clock;
  private final long minBackoffNanos;
  private final long maxBackoffNanos;
  private final long drainTimeoutNanos;

  private volatile boolean stopRequested;
  private Phase phase = Phase.RUNNING;
  private long nextBackoffNanos;
  private long lastBackoffNanos;
  private long drainDeadline;
  private long payloads;
  private FatalError fatal;
  private boolean drainTimedOut;
  private ChainReport report;

  private Chain(Builder<T> b) {
    this.source = b.source;
    this.stage = b.stage;
    this.clock = b.clock;
    this.minBackoffNanos = b.minBackoff.toNanos();
    this.maxBackoffNanos = b.maxBackoff.toNanos();
    this.drainTimeoutNanos = b.drainTimeout.toNanos();
    this.nextBackoffNanos = minBackoffNanos;
  }

  /** Starts a builder for a chain from {@code source} into {@code stage}. */
  public static <T> Builder<T> builder(Source<T> source, Stage<T> stage) {
    return new Builder<>(source, stage);
  }

  /**
   * Runs the chain to the end on the calling thread, sleeping on the clock while it backs off.
   *
   * @return the report
   * @throws InterruptedException if interrupted while backing off; the stage is closed first
   * @throws RuntimeException what the source threw; the stage is closed first, so unsent output
   *     fails its acknowledgements and leaves the budget
   */
  public ChainReport run() throws InterruptedException {
    try {
      Step s;
      while ((s = step()) != Step.DONE) {
        if (s == Step.BACKOFF) {
          clock.sleep(lastBackoffNanos);
        }
      }
      return report;
    } catch (InterruptedException e) {
      stage.close();
      phase = Phase.DONE;
      throw e;
    }
  }

  /**
   * Does one unit of work. Call it again until it returns {@link Step#DONE}.
   *
   * @throws RuntimeException what the source threw; the stage is closed first (unsent output
   *     fails its acknowledgements and leaves the budget) and the chain is done
   */
  public Step step() {
    try {
      switch (phase) {
        case RUNNING:
          return stepRunning();
        case DRAINING:
          return stepDraining();
        default:
          return Step.DONE;
      }
    } catch (RuntimeException e) {
      stage.close();
      phase = Phase.DONE;
      throw e;
    }
  }

  private Step stepRunning() {
    if (stopRequested) {
      startDrain();
      return stepDraining();
    }
    if (stage.pressure() == FlowControl.BLOCKED) {
      // Sealing an aged chunk (in pressure() or on the stage's timer) may have stopped the stage;
      // a stopped stage never drains, so waiting for it would back off for ever.
      Optional<FatalError> f = stage.takeFatal();
      if (f.isPresent()) {
        fatal = f.get();
        return finish();
      }
      return backoff();
    }
    nextBackoffNanos = minBackoffNanos;
    long start = clock.nanoTime();
    boolean pulled;
    try {
      pulled = source.pushNext(stage);
    } catch (RuntimeException e) {
      // The records pushed before the source broke were counted (seen, out, skipped, errors);
      // hand those counters to the listener before step() closes the stage and rethrows.
      stage.onBatchEnd(Duration.ofNanos(clock.nanoTime() - start));
      throw e;
    }
    if (!pulled) {
      // Exhausted: no payload was pulled, so there is no batch end to report; drain now.
      startDrain();
      return stepDraining();
    }
    payloads++;
    stage.onBatchEnd(Duration.ofNanos(clock.nanoTime() - start));
    Optional<FatalError> f = stage.takeFatal();
    if (f.isPresent()) {
      fatal = f.get();
      return finish(); // stop at once: no drain after a fatal
    }
    return Step.PULLED;
  }

  private void startDrain() {
    phase = Phase.DRAINING;
    drainDeadline = clock.nanoTime() + drainTimeoutNanos;
    nextBackoffNanos = minBackoffNanos;
  }

  private Step stepDraining() {
    FlowControl flow = stage.flushTerminal();
    Optional<FatalError> f = stage.takeFatal(); // finishChunk may fail while sealing
    if (f.isPresent()) {
      fatal = f.get();
      return finish();
    }
    if (flow == FlowControl.CONTINUE) {
      return finish();
    }
    if (clock.nanoTime() - drainDeadline >= 0) {
      drainTimedOut = true;
      return finish();
    }
    return backoff();
  }

  private Step backoff() {
    lastBackoffNanos = nextBackoffNanos;
    nextBackoffNanos = Math.min(maxBackoffNanos, nextBackoffNanos * 2);
    return Step.BACKOFF;
  }

  private Step finish() {
    stage.close();
    phase = Phase.DONE;
    report = new ChainReport(payloads, Optional.ofNullable(fatal), drainTimedOut,
        stage.shardReports());
    return Step.DONE;
  }

  /** Returns how long the caller should wait after a {@link Step#BACKOFF}. */
  public long backoffNanos() {
    return lastBackoffNanos;
  }

  /**
   * Asks the chain to stop pulling and drain. Thread-safe; takes effect at the next step.
   */
  public void requestStop() {
    stopRequested = true;
  }

  /** Returns the report once the chain is done. */
  public Optional<ChainReport> report() {
    return Optional.ofNullable(report);
  }

  /** Returns the payloads pulled so far. */
  public long payloads() {
    return payloads;
  }

  /**
   * Configures a {@link Chain}. Defaults: the system clock, backoff from 1 ms to 100 ms, a 30 s
   * drain deadline. The budget whose limit stops pulling is always the stage's own, so a chain can
   * never watch a budget other than the one its stage charges.
   *
   * @param <T> the payload type
   */
  public static final class Builder<T> {
    private final Source<T> source;
    private final Stage<T> stage;
    private HandoffClock clock = HandoffClock.system();
    private Duration minBackoff = Duration.ofMillis(1);
    private Duration maxBackoff = Duration.ofMillis(100);
    private Duration drainTimeout = Duration.ofSeconds(30);

    private Builder(Source<T> source, Stage<T> stage) {
      this.source = Objects.requireNonNull(source, "source");
      this.stage = Objects.requireNonNull(stage, "stage");
    }

    /** Sets the clock used to measure payloads and to back off. */
    public Builder<T> clock(HandoffClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Sets the backoff range while blocked. */
    public Builder<T> backoff(Duration min, Duration max) {
      if (min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
        throw new IllegalArgumentException(
            "backoff " + min + ".." + max + " (expected: 0 < min <= max)");
      }
      this.minBackoff = min;
      this.maxBackoff = max;
      return this;
    }

    /** Sets how long the shutdown drain may wait for parked chunks to go out. */
    public Builder<T> drainTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("drainTimeout : " + timeout + " (expected: >= 0)");
      }
      this.drainTimeout = timeout;
      return this;
    }

    /** Builds the chain. */
    public Chain<T> build() {
      return new Chain<>(this);
    }
  }
}
