package dev.handoff.simulator;

import dev.handoff.core.Chain;

/**
 * The driver's event: one step of the lifetime's {@link Chain} (or a crash or the teardown the
 * seed draws before it), and the checks of what the step did: the back-off, the stage's drain
 * deadline, the chain's report when it is done. Runs on the simulation thread only.
 */
final class SimDriver {
  private final Engine e;
  /** Whether the chain's step is running (workers may run in the middle of a payload). */
  boolean inStep;
  private boolean teardownDone;

  SimDriver(Engine e) {
    this.e = e;
  }

  void step() {
    Life l = e.cur;
    l.driverTick = e.clock.tick;
    long drainBefore = l.drainStartTick;
    if (l.faulty && e.rng.chance(e.restartRate)) {
      e.crash();
      return;
    }
    if (e.teardownAt >= 0 && !teardownDone && l.faulty && e.book.event >= e.teardownAt) {
      teardownDone = true;
      l.chain.requestStop();
      l.teardownTick = e.clock.tick;
      if (l.drainStartTick < 0) {
        l.drainStartTick = e.clock.tick; // a running chain starts its drain in this step
      }
      e.fault(Faults.TEARDOWN, "at event " + e.book.event);
      e.log.add(e.clock.tick, l.epoch, EventLog.TEARDOWN, -1, e.book.event, 0);
    }
    Chain.Step step;
    inStep = true;
    try {
      step = l.chain.step();
    } catch (SimSources.SourceFailure failure) {
      inStep = false;
      // The chain closed the stage before rethrowing; the process ends this lifetime once the
      // workers have written what reached the queues, then restarts from the checkpoints.
      l.chainDone = true;
      e.stageClosed(l);
      e.log.add(e.clock.tick, l.epoch, EventLog.DRIVER_DONE, -1, 1, 0);
      SimWorkers.shutdown(e, l);
      return;
    }
    inStep = false;
    switch (step) {
      case PULLED:
        l.nextBackoffTicks = 1;
        e.log.add(e.clock.tick, l.epoch, EventLog.PULLED, -1, e.feed.lastSource, e.feed.lastBatch);
        e.sched.schedule(e.clock.tick + 1, Engine.EV_DRIVER, -1, l.epoch);
        break;
      case BACKOFF:
        checkStageDrain(l, false);
        checkBackoff(l, drainBefore);
        if (!l.budget.hasRoom()) {
          e.fault(Faults.BUDGET_LIMIT, l.budget.inflightBytes() + " bytes in flight");
        }
        e.log.add(e.clock.tick, l.epoch, EventLog.BACKOFF, -1, l.stage.parkedChunks(),
            l.budget.inflightBytes());
        e.sched.schedule(e.clock.tick + Math.max(1, l.chain.backoffNanos()
            / VirtualClock.NANOS_PER_TICK), Engine.EV_DRIVER, -1, l.epoch);
        break;
      default:
        l.chainDone = true;
        e.stageClosed(l);
        e.gauges.checkChainReport(l, l.chain.report().orElseThrow());
        e.book.checks[OracleBook.GAUGES_EXACT]++;
        if (l.chain.step() != Chain.Step.DONE) { // a chain that is done stays done
          e.book.fail(OracleBook.GAUGES_EXACT, "the driver's step after DONE did something");
        }
        e.stageChecks.checkShardReports(l, l.chain.report().orElseThrow().shards());
        if (l.chain.report().orElseThrow().drainTimedOut()) {
          checkStageDrain(l, true);
          e.fault(Faults.DRAIN_DEADLINE, "the stage's drain ran out of time");
        }
        e.log.add(e.clock.tick, l.epoch, EventLog.DRIVER_DONE, -1, 0, 0);
        SimWorkers.shutdown(e, l);
        return;
    }
    int parked = l.stage.parkedChunks();
    if (parked > l.lastParked) {
      e.fault(Faults.QUEUE_PRESSURE, (parked - l.lastParked) + " chunk(s) parked");
    }
    l.lastParked = parked;
    l.runtime.wakePollers();
  }

  /**
   * The driver's back-off: 1 tick after a payload or when its drain begins, doubling with every
   * back-off in a row up to {@link Engine#MAX_BACKOFF_TICKS} (the chain the engine built).
   */
  private void checkBackoff(Life l, long drainBefore) {
    long expected = drainBefore < 0 && l.drainStartTick >= 0 ? 1 : l.nextBackoffTicks;
    e.book.checks[OracleBook.BACKPRESSURE]++;
    if (l.chain.backoffNanos() != expected * VirtualClock.NANOS_PER_TICK) {
      e.book.fail(OracleBook.BACKPRESSURE, "the driver backs off " + l.chain.backoffNanos()
          + " ns at t=" + e.clock.tick + "; after the back-offs in a row since its last payload (or"
          + " its drain's start) it should wait " + expected + " tick(s)");
    }
    l.nextBackoffTicks = Math.min(Engine.MAX_BACKOFF_TICKS, 2 * expected);
  }

  /**
   * The stage's drain ends exactly at its deadline: a drain step at or past the deadline does not
   * back off again, and a drain does not time out before it.
   */
  private void checkStageDrain(Life l, boolean timedOut) {
    if (!l.faulty || e.drainDeadline < 0 || l.drainStartTick < 0) {
      return;
    }
    long took = e.clock.tick - l.drainStartTick;
    e.book.checks[OracleBook.DRAIN_BOUNDED]++;
    if (timedOut ? took < e.drainDeadline : took >= e.drainDeadline) {
      e.book.fail(OracleBook.DRAIN_BOUNDED, "the stage's drain " + (timedOut ? "timed out"
          : "backed off again") + " at t=" + e.clock.tick + ", " + took + " ticks after it began;"
          + " its deadline is " + e.drainDeadline + " ticks");
    }
  }
}
