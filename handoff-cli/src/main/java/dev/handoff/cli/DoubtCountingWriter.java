package dev.handoff.cli;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import java.net.ConnectException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps an {@link InsertWriter} and counts the rows of attempts whose outcome is unknown: a
 * transient failure without a server error code that is not a refused connection (a timeout, a
 * connection reset while the server was answering). The server may have written such an insert
 * before the answer was lost, so its retry may write the rows twice; the count bounds the
 * duplicates retries can cause. Everything else passes through unchanged.
 */
final class DoubtCountingWriter implements InsertWriter {
  private final InsertWriter delegate;
  private final AtomicLong rowsInDoubt = new AtomicLong();

  DoubtCountingWriter(InsertWriter delegate) {
    this.delegate = delegate;
  }

  @Override
  public void write(Insert insert) throws WriteException {
    try {
      delegate.write(insert);
    } catch (WriteException e) {
      if (e.isTransient() && e.serverCode() < 0 && !refused(e)) {
        rowsInDoubt.addAndGet(insert.rows());
      }
      throw e;
    }
  }

  private static boolean refused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Optional<List<Frame>> split(Frame frame) {
    return delegate.split(frame);
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Returns the rows of attempts whose outcome was unknown. */
  long rowsInDoubt() {
    return rowsInDoubt.get();
  }
}
