package dev.handoff.simulator;

import java.util.concurrent.locks.LockSupport;

/**
 * A one-permit hand-off between the simulation thread and one worker thread of {@link
 * SimThreads}: {@link #give} lets the waiting side go on, {@link #take} parks until it may. It
 * keeps the waiting thread's interrupt flag as it found it (plus any interrupt that arrived while
 * it waited), because the worker reads that flag as its own. It does not spin: on a machine with
 * two busy cores spinning made sweeps slower (about 27,000 against 36,000 records/s).
 */
final class Baton {
  private volatile boolean ready;
  private volatile Thread waiter;

  void give() {
    ready = true;
    Thread t = waiter;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  void take() {
    boolean interrupted = false;
    if (!ready) {
      waiter = Thread.currentThread();
      while (!ready) {
        interrupted |= Thread.interrupted(); // else park would return at once, again and again
        LockSupport.park(this);
      }
      waiter = null;
    }
    ready = false;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
