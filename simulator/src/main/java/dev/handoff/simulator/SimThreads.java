package dev.handoff.simulator;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.sink.WorkerRuntime;

/**
 * The runtime the real sink workers run on in a simulation: each worker loop has its own thread,
 * but only one thread runs at a time, handed a baton by the simulation thread and handing it back
 * whenever the worker waits (on its queue, on the clock, in the simulated writer). Every wait
 * becomes a wake-up in virtual time, so a run is as deterministic as the seed: the order in which
 * the workers and the driver run is the scheduler's, never the operating system's.
 *
 * <p>A worker waiting on its queue wakes when its time runs out or, earlier, when the engine sees
 * a chunk arrive ({@link #wakePollers}). {@link W#interrupt} sets the thread's real interrupt flag
 * (read by the worker as usual) and wakes an interruptible wait. {@link #killAll} is the process
 * dying: a write hung past shutdown returns first, then each waiting worker throws {@link
 * Killed} and unwinds as after an {@link Error}.
 */
final class SimThreads implements WorkerRuntime {
  static final int NONE = 0;
  static final int POLL = 1;
  static final int SLEEP = 2;
  static final int WRITE = 3;
  static final int STUCK = 4;

  /** Thrown from a wait when the simulated process dies: the worker's thread unwinds. */
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
  private final Baton back = new Baton();

  /** One worker: its thread, its baton and what it waits for. */
  final class W implements WorkerRuntime.Handle {
    final int shard;
    final Baton go = new Baton();
    Thread thread;
    volatile boolean ended;
    boolean killed;
    int waiting = NONE;
    int token;
    long endedAt = -1;
    Throwable died;

    W(int shard) {
      this.shard = shard;
    }

    @Override
    public boolean isAlive() {
      return thread != null && !ended;
    }

    @Override
    public void join(long nanos) {
      SimThreads.this.join(this, nanos);
    }

    @Override
    public void interrupt() {
      if (ended) {
        return;
      }
      thread.interrupt();
      if (waiting == POLL || waiting == SLEEP || waiting == WRITE) {
        schedule(this, e.clock.tick);
      }
    }
  }

  SimThreads(Engine engine, Life life, int shards) {
    this.e = engine;
    this.l = life;
    this.ws = new W[shards];
    for (int s = 0; s < shards; s++) {
      ws[s] = new W(s);
    }
  }

  @Override
  public Handle start(int shard, Runnable worker) {
    W w = ws[shard];
    w.thread = new Thread(() -> body(w, worker), "sim-sink-" + l.epoch + "-" + shard);
    w.thread.setDaemon(true);
    w.thread.start();
    schedule(w, e.clock.tick);
    return w;
  }

  private void body(W w, Runnable worker) {
    w.go.take();
    try {
      if (!w.killed) {
        worker.run();
      }
    } catch (Killed k) {
      // the process died: the worker unwound like after an Error
    } catch (Throwable t) {
      w.died = t;
    } finally {
      w.ended = true;
      back.give();
    }
  }

  /** Returns the worker whose thread is calling, or null for any other thread. */
  W current() {
    Thread t = Thread.currentThread();
    for (W w : ws) {
      if (w.thread == t) {
        return w;
      }
    }
    return null;
  }

  boolean isWorkerThread(Thread t) {
    for (W w : ws) {
      if (w.thread == t) {
        return true;
      }
    }
    return false;
  }

  /* ------------------------------------------------------------------ the worker's side */

  @Override
  public EncodedChunk poll(ShardQueues queues, int shard, long timeoutNanos)
      throws InterruptedException {
    W w = current();
    EncodedChunk c = take(shard);
    if (c != null || timeoutNanos <= 0) {
      return c;
    }
    await(w, POLL, e.clock.tick + ticks(timeoutNanos));
    if (Thread.interrupted()) {
      throw new InterruptedException("simulated interrupt while polling shard " + shard);
    }
    return take(shard);
  }

  private EncodedChunk take(int shard) {
    EncodedChunk c = l.view.poll(shard);
    if (c != null) {
      l.polled[shard]++;
      e.ledger.taken(l, c);
      l.taken[shard].set((int) c.sequence());
    }
    return c;
  }

  /** The clock's sleep, on a worker thread: wakes after the time or at an interrupt. */
  void sleep(long nanos) throws InterruptedException {
    W w = current();
    if (Thread.interrupted()) {
      throw new InterruptedException("simulated interrupt before a backoff");
    }
    await(w, SLEEP, e.clock.tick + ticks(nanos));
    if (Thread.interrupted()) {
      throw new InterruptedException("simulated interrupt during a backoff");
    }
  }

  /**
   * A write that takes {@code ticks}; returns early on an interrupt if {@code interruptible}. A
   * stuck write ({@code ticks < 0}) returns only when the process dies.
   */
  void write(long ticks) {
    W w = current();
    if (ticks < 0) {
      await(w, STUCK, -1);
    } else if (ticks > 0) {
      await(w, WRITE, e.clock.tick + ticks);
    }
  }

  private void await(W w, int kind, long at) {
    w.waiting = kind;
    if (at >= 0) {
      schedule(w, at);
    }
    back.give();
    w.go.take();
    w.waiting = NONE;
    if (w.killed) {
      throw new Killed();
    }
  }

  static long ticks(long nanos) {
    return nanos <= 0 ? 0 : (nanos + VirtualClock.NANOS_PER_TICK - 1) / VirtualClock.NANOS_PER_TICK;
  }

  /* ------------------------------------------------------------------ the simulation's side */

  private void schedule(W w, long at) {
    w.token = (w.token + 1) & 0xFF_FFFF;
    wakes.schedule(at, 0, w.shard | (w.token << 7), l.epoch);
  }

  /** Wakes every worker waiting on an empty-then-filled queue, at the current tick. */
  void wakePollers() {
    for (W w : ws) {
      if (w.waiting == POLL && l.view.size(w.shard) > 0) {
        schedule(w, e.clock.tick);
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

  private void resume(W w) {
    w.go.give();
    back.take();
    if (w.ended && w.endedAt < 0) {
      w.endedAt = e.clock.tick;
    }
  }

  /** Shutdown's join, on the simulation thread: runs the workers until {@code w} ends or time. */
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
   * unwinds from its wait.
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
      if (w.thread != null && !w.ended) {
        w.killed = true;
        resume(w);
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
