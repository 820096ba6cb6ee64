package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.HandoffClock;
import java.io.Closeable;
import java.io.IOException;
import java.util.PriorityQueue;

/**
 * Closes what a request holds when its deadline passes: a blocking socket write has no timeout
 * of its own, so a server that stops reading would hold a sender forever without it.
 *
 * <p>One daemon thread ({@code handoff-http-deadlines}) per instance, started by an {@link #arm}
 * and ended by {@link #close} or after a second without deadlines; it sleeps until the earliest
 * deadline armed. {@link #arm} and {@link #disarm} may be called from any thread; a target is
 * closed at most once, on this thread, and {@link Deadline#fired()} tells its owner afterwards
 * whether that happened.
 */
final class Deadlines implements Closeable {
  /**
   * The thread ends after this long without a deadline (within twice this after the last
   * disarm); the next {@link #arm} starts another.
   */
  private static final long IDLE_NANOS = 1_000_000_000L;

  private final HandoffClock clock;
  private final PriorityQueue<Deadline> queue =
      new PriorityQueue<>((a, b) -> Long.compare(a.atNanos, b.atNanos));
  private Thread thread; // guarded by this
  private boolean closed; // guarded by this
  private long idleSince; // guarded by this; 0 while deadlines are armed

  /**
   * Creates the deadlines of {@code clock}; the thread waits in real time for the time left by
   * that clock's reading.
   */
  Deadlines(HandoffClock clock) {
    this.clock = clock;
  }

  /** One armed deadline. */
  static final class Deadline {
    private final Closeable target;
    private final long atNanos;
    private volatile boolean fired;

    private Deadline(Closeable target, long atNanos) {
      this.target = target;
      this.atNanos = atNanos;
    }

    /** Returns whether the deadline passed and its target was closed. */
    boolean fired() {
      return fired;
    }
  }

  /** Arms a deadline that closes {@code target} at {@code atNanos} (the clock's nano time). */
  synchronized Deadline arm(Closeable target, long atNanos) {
    Deadline d = new Deadline(target, atNanos);
    queue.add(d);
    if (thread == null || !thread.isAlive()) {
      closed = false;
      idleSince = 0;
      thread = new Thread(this::run, "handoff-http-deadlines");
      thread.setDaemon(true);
      thread.start();
    } else if (queue.peek() == d) {
      notifyAll();
    }
    return d;
  }

  /**
   * Disarms {@code d}; returns whether it had already fired (then its target is closed or being
   * closed). Idempotent.
   */
  synchronized boolean disarm(Deadline d) {
    queue.remove(d);
    return d.fired;
  }

  /**
   * Ends the thread once the deadlines armed now are disarmed or fired; a later arm restarts it.
   */
  @Override
  public synchronized void close() {
    closed = true;
    notifyAll();
  }

  private void run() {
    while (true) {
      Deadline due;
      synchronized (this) {
        while (true) {
          Deadline head = queue.peek();
          if (head == null) {
            if (closed || idleSince != 0 && clock.nanoTime() - idleSince >= IDLE_NANOS) {
              thread = null;
              return;
            }
            if (idleSince == 0) {
              idleSince = clock.nanoTime();
            }
            waitNanos(IDLE_NANOS);
            continue;
          }
          idleSince = 0;
          long left = head.atNanos - clock.nanoTime();
          if (left <= 0) {
            due = queue.poll();
            due.fired = true;
            break;
          }
          // At most a second: a disarm does not wake the thread (no wake-up per request), so it
          // looks again each second to find the queue empty and end once idle.
          waitNanos(Math.min(left, IDLE_NANOS));
        }
      }
      try {
        due.target.close();
      } catch (IOException | RuntimeException e) {
        // The owner sees its request fail either way; nothing to add.
      }
    }
  }

  private void waitNanos(long nanos) {
    try {
      if (nanos == 0) {
        wait();
      } else {
        wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
      }
    } catch (InterruptedException e) {
      // Nobody interrupts this thread but the JVM's end; the daemon goes with it.
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
