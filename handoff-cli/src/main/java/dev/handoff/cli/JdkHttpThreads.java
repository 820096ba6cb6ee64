package dev.handoff.cli;

import java.util.Arrays;
import java.util.Collection;

/**
 * Ends the threads of the JDK's HTTP clients ({@link java.net.http.HttpClient}) when the program
 * exits, so that the exit does not wait for them.
 *
 * <p>Each client has a selector thread that waits in native code ({@code epoll_wait}) for as long
 * as the client lives, and JDK 17 has no way to close a client. When the JVM exits it waits for
 * every thread in native code to come back, and gives up only after about 300 ms: every {@code
 * ingest} that used the server paid those 300 ms after printing its summary. Interrupting the
 * selector thread wakes it; it then closes its connections and ends (the JDK's own shutdown of an
 * unused client). Called only once the command is done, when no request can still be running.
 */
final class JdkHttpThreads {

  /** The JDK names each client's selector thread {@code HttpClient-<id>-SelectorManager}. */
  private static final String SELECTOR_PREFIX = "HttpClient-";
  private static final String SELECTOR_SUFFIX = "-SelectorManager";

  /** How long to wait for each thread to end: it takes well under a millisecond. */
  private static final long JOIN_MILLIS = 100;

  private JdkHttpThreads() {}

  /** Interrupts every HTTP client's selector thread and waits briefly for each to end. */
  static void stop() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() + 16];
    int n = root.enumerate(threads, true);
    stop(Arrays.asList(threads).subList(0, n));
  }

  /**
   * Interrupts those of {@code threads} that are HTTP client selector threads and waits briefly
   * for each to end; returns how many it interrupted.
   */
  static int stop(Collection<Thread> threads) {
    int stopped = 0;
    for (Thread t : threads) {
      String name = t.getName();
      if (name.startsWith(SELECTOR_PREFIX) && name.endsWith(SELECTOR_SUFFIX)) {
        t.interrupt();
        stopped++;
        try {
          t.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return stopped;
        }
      }
    }
    return stopped;
  }
}
