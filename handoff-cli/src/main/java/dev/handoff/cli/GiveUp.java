package dev.handoff.cli;

import dev.handoff.api.spi.WriteException;
import dev.handoff.core.Chain;
import dev.handoff.core.sink.WorkerListener;
import java.io.PrintWriter;
import java.util.function.BooleanSupplier;

/**
 * Stops an {@code ingest} run when an insert was given up after {@code --retry-max-elapsed} of
 * transient failures (the server is gone or keeps failing): waiting the same time again for
 * every other queued insert would only delay the verdict. Inserts the server rejected (permanent
 * failures) replay as {@code --max-replays} says instead. Says so once on stderr.
 */
final class GiveUp implements WorkerListener {
  private final Ingest.Settings s;
  private final PrintWriter err;
  private final BooleanSupplier stopping;
  private volatile String reason;
  private volatile Chain<?> chain;

  /**
   * Creates the listener.
   *
   * @param stopping says whether the run is stopping already (a signal, the deadline)
   */
  GiveUp(Ingest.Settings s, PrintWriter err, BooleanSupplier stopping) {
    this.s = s;
    this.err = err;
    this.stopping = stopping;
  }

  /** Sets the chain to stop. */
  void chain(Chain<?> c) {
    chain = c;
  }

  /** Returns why the run gave up, or {@code null}. */
  String reason() {
    return reason;
  }

  @Override
  public void abandoned(int shard, int chunks, int rows, Throwable cause) {
    if (reason != null || stopping.getAsBoolean() || !transientFailure(cause)) {
      return;
    }
    synchronized (this) {
      if (reason != null) {
        return;
      }
      reason = "gave up on " + (s.out() != null ? "the writer" : s.url())
          + ": inserts kept failing for --retry-max-elapsed ("
          + Sizes.formatDuration(s.retryMaxElapsed()) + "): " + cause.getMessage();
    }
    synchronized (err) {
      err.println("ingest: " + reason + "; writing the checkpoint and stopping");
      err.flush();
    }
    Chain<?> c = chain;
    if (c != null) {
      c.requestStop();
    }
  }

  private static boolean transientFailure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof WriteException w) {
        return w.isTransient();
      }
    }
    return false;
  }
}
