package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.sink.WorkerRuntime;

/**
 * The runtime the real sink workers run on in a simulation: no threads. Each worker's loop ({@link
 * WorkerRuntime.Loop}) is stepped on the simulation thread, one worker at a time, and every wait
 * the loop ends a step at (a timed poll of an empty queue, a backoff on the clock, a write in the
 * simulated writer) becomes a wake-up in virtual time on a scheduler of its own. The order in which
 * the workers and the driver run is the scheduler's, so a run is as deterministic as the seed.
 *
 * <p>A worker waiting on its queue wakes when its time runs out or, earlier, when the engine sees
 * a chunk arrive ({@link #wakePollers}). A write's answer is decided when the write starts and read
 * by the worker when the write's ticks have passed. {@link W#interrupt} sets the worker's interrupt
 * flag, which is the simulation thread's interrupt flag while the worker's step runs, and wakes it
 * from a poll, a backoff or a write. {@link #killAll} is the process dying: a write hung past
 * shutdown returns first, then each worker still waiting is killed ({@link WorkerRuntime.Loop#kill})
 * and fails what it holds as after an {@link Error}.
 */
final class SimRuntime implements WorkerRuntime {
  static final int NONE = 0;
  static final int POLL = 1;
  static final int SLEEP = 2;
  static final int WRITE = 3;
  static final int STUCK = 4;

  /** What a killed worker unwinds with: the simulated process died. */
  static final class Killed extends Error {
    private static final long serialVersionUID = 1L;

    Killed() {
      super("simulated process died", null, false, false);
    }
  }

  private final Engine e;
  private final Life l;
  /** Worker wake-ups: argument {@code shard | token << 7}; a newer token cancels older ones. */
  final Scheduler wakes = new Scheduler();
  final W[] ws;
  /** The worker whose step runs now, or null. */
  private W stepping;

  /** One worker: its loop and what it waits for. */
  final class W implements WorkerRuntime.Handle {
    final int shard;
    Loop loop;
    boolean ended;
    boolean killed;
    /** The worker's interrupt flag between its steps. */
    boolean interrupted;
    int waiting = NONE;
    /** The tick its current wait ends at (a stuck write's never does). */
    long wakeAt;
    int token;
    /** The tick of its latest wake-up (the one its token names). */
    long wakeScheduled = -1;
    long endedAt = -1;
    Throwable died;

    W(int shard) {
      this.shard = shard;
    }

    @Override
    public boolean isAlive() {
      return loop != null && !ended;
    }

    @Override
    public void join(long nanos) {
      SimRuntime.this.join(this, nanos);
    }

    @Override
    public void interrupt() {
      if (ended) {
        return;
      }
      checkGrace(this);
      interrupted = true;
      if (waiting == POLL || waiting == SLEEP || waiting == WRITE) {
        schedule(this, e.clock.tick);
      }
    }
  }

  SimRuntime(Engine engine, Life life, int shards) {
    this.e = engine;
    this.l = life;
    this.ws = new W[shards];
    for (int s = 0; s < shards; s++) {
      ws[s] = new W(s);
    }
  }

  @Override
  public Handle start(int shard, Loop loop) {
    W w = ws[shard];
    w.loop = loop;
    schedule(w, e.clock.tick);
    return w;
  }

  /**
   * Shutdown interrupts a worker only after its deadline and a grace period for the attempt in
   * progress: the drain lasts the deadline while a worker lives, then the grace, which shutdown
   * waits on the clock in at most as many full poll intervals as it holds (at least one).
   */
  private void checkGrace(W w) {
    if (!l.shuttingDown) {
      return;
    }
    long grace = e.graceTicks <= 0 ? 0
        : Math.min(e.graceTicks, Math.max(1, e.graceTicks / e.pollTicks) * e.pollTicks);
    long earliest = l.shutdownStart + l.shutdownDeadline + grace;
    e.book.checks[OracleBook.DRAIN_BOUNDED]++;
    if (e.clock.tick < earliest) {
      e.book.fail(OracleBook.DRAIN_BOUNDED, "shutdown interrupted the worker of shard " + w.shard
          + " at t=" + e.clock.tick + ", before its deadline and grace period ended (t="
          + earliest + ")");
    }
  }

  /** Returns the worker whose step runs now, or null outside a worker's step. */
  W current() {
    return stepping;
  }

  /* ------------------------------------------------------------------ the worker's side */

  @Override
  public EncodedChunk poll(ShardQueues queues, int shard, long timeoutNanos)
      throws InterruptedException {
    EncodedChunk c = take(shard);
    if (c != null || timeoutNanos <= 0) {
      return c;
    }
    if (Thread.interrupted()) { // as a blocking queue's timed poll does
      throw new InterruptedException("simulated interrupt while polling shard " + shard);
    }
    waitFor(POLL, e.clock.tick + ticks(timeoutNanos));
    return null;
  }

  private EncodedChunk take(int shard) {
    EncodedChunk c = l.view.poll(shard);
    if (c != null) {
      l.polled[shard]++;
      e.ledger.taken(l, c);
      l.taken[shard].set((int) c.sequence());
      l.takenAt(shard, (int) c.sequence(), e.clock.tick);
    }
    return c;
  }

  /** The clock's sleep, in a worker's step: it goes on after the time or at an interrupt. */
  void sleep(long nanos) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException("simulated interrupt before a backoff");
    }
    waitFor(SLEEP, e.clock.tick + ticks(nanos));
  }

  /**
   * A write that takes {@code ticks}: the worker reads its answer that much later (earlier at an
   * interrupt). A stuck write ({@code ticks < 0}) answers only when the process dies.
   */
  void write(long ticks) {
    if (ticks < 0) {
      waitFor(STUCK, -1);
    } else if (ticks > 0) {
      waitFor(WRITE, e.clock.tick + ticks);
    }
  }

  private void waitFor(int kind, long at) {
    W w = stepping;
    if (w == null) {
      throw new IllegalStateException("only a simulated sink worker's step waits");
    }
    w.waiting = kind;
    w.wakeAt = at;
  }

  static long ticks(long nanos) {
    return nanos <= 0 ? 0 : (nanos + VirtualClock.NANOS_PER_TICK - 1) / VirtualClock.NANOS_PER_TICK;
  }

  /* ------------------------------------------------------------------ the simulation's side */

  private void schedule(W w, long at) {
    w.token = (w.token + 1) & 0xFF_FFFF;
    w.wakeScheduled = at;
    wakes.schedule(at, 0, w.shard | (w.token << 7), l.epoch);
  }

  /**
   * Wakes every worker waiting on an empty-then-filled queue, at the current tick (one already due
   * to wake by now keeps its wake-up).
   */
  void wakePollers() {
    long now = e.clock.tick;
    for (W w : ws) {
      if (w.waiting == POLL && w.wakeScheduled > now && l.view.size(w.shard) > 0) {
        schedule(w, now);
      }
    }
  }

  long nextWake() {
    return wakes.isEmpty() ? Long.MAX_VALUE : wakes.peekTime();
  }

  /** Pops the next wake-up and runs its worker until it waits again (stale ones are dropped). */
  void runNext() {
    wakes.pop();
    W w = ws[wakes.popArg & 0x7F];
    if ((wakes.popArg >>> 7) != w.token || w.ended || w.waiting == STUCK && !w.killed) {
      return;
    }
    e.clock.tick = Math.max(e.clock.tick, wakes.popTime);
    resume(w);
    e.workerRan(w);
  }

  /** Runs every wake-up due by {@code tick}. */
  void runDue(long tick) {
    while (nextWake() <= tick && !e.book.anyFailed()) {
      runNext();
    }
  }

  /**
   * Steps {@code w} until it waits or ends, with its interrupt flag on this thread for the length
   * of its steps, and schedules its wake-up.
   */
  private void resume(W w) {
    W outer = stepping;
    boolean outerFlag = Thread.interrupted(); // this thread's own flag is not the worker's
    stepping = w;
    w.waiting = NONE;
    if (w.interrupted) {
      Thread.currentThread().interrupt();
    }
    try {
      boolean more;
      do {
        more = w.loop.step();
      } while (more && w.waiting == NONE);
      if (!more) {
        w.ended = true;
      } else if (w.waiting != STUCK) {
        schedule(w, w.wakeAt);
      }
    } catch (Throwable t) { // an Error the worker rethrew after failing what it held
      w.died = t;
      w.ended = true;
    } finally {
      w.interrupted = Thread.interrupted();
      stepping = outer;
      if (outerFlag) {
        Thread.currentThread().interrupt();
      }
    }
    if (w.ended && w.endedAt < 0) {
      w.endedAt = e.clock.tick;
    }
  }

  /** Shutdown's join: runs the workers until {@code w} ends or the time passed. */
  private void join(W w, long nanos) {
    if (nanos <= 0) {
      return;
    }
    long end = e.clock.tick + ticks(nanos);
    while (!w.ended && nextWake() <= end) {
      runNext();
    }
    if (!w.ended) {
      e.clock.tick = Math.max(e.clock.tick, end);
    }
  }

  /**
   * The process dies: a write hung past shutdown returns first, then every worker still running
   * is killed where it waits.
   */
  void killAll() {
    for (W w : ws) {
      if (w.waiting == STUCK && !w.ended) {
        // The hung write returns at last, as a writer's socket timeout would end it: the worker
        // settles what it holds, which shutdown already failed on its behalf (the claim decides).
        resume(w);
        e.workerRan(w);
      }
    }
    for (W w : ws) {
      if (w.loop != null && !w.ended) {
        w.killed = true;
        w.ended = true;
        try {
          w.loop.kill(new Killed());
        } catch (Throwable t) {
          w.died = t;
        }
        e.book.checks[OracleBook.SETTLED_ONCE]++;
        if (w.died != null) {
          e.book.fail(OracleBook.SETTLED_ONCE, "the sink worker of shard " + w.shard + " threw "
              + w.died + " while it unwound and failed what it held");
        }
      }
    }
  }

  boolean anyStuck() {
    for (W w : ws) {
      if (w.waiting == STUCK && !w.ended) {
        return true;
      }
    }
    return false;
  }
}
