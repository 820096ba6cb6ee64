package dev.handoff.cli;

import java.io.PrintWriter;

/**
 * Tells the user on stderr about every row that was not written as it was read: one line per
 * skipped row, naming its input line, byte offset and why (the column, the value and the reason
 * where the encoder rejected it), and one note per unknown field name.
 *
 * <p>Rate-limited so that a file of bad rows does not flood the terminal: up to {@value #BURST}
 * lines at once, then {@value #PER_SECOND} a second. A line printed after some were held back
 * says how many; {@link #finish()} says how many were not shown at all. The summary counts every
 * one per reason. Called on the pipeline thread.
 */
final class RowReport {

  /** Lines printed before the rate applies. */
  static final int BURST = 20;

  /** Lines a second once the burst is used up. */
  static final int PER_SECOND = 10;

  private final PrintWriter err;
  private final boolean bar;
  private double tokens = BURST;
  private long lastRefill = System.nanoTime();
  private long hiddenSinceShown;
  private long hidden;

  /**
   * Creates the report.
   *
   * @param bar whether a progress bar shares the line (each message then starts a fresh line)
   */
  RowReport(PrintWriter err, boolean bar) {
    this.err = err;
    this.bar = bar;
  }

  /** Reports a skipped row (rate-limited). */
  void skipped(long line, long offset, String detail) {
    limited("ingest: skipped " + Messages.where(line, offset) + ": " + detail);
  }

  /** Prints {@code message} unless the rate holds it back. */
  void limited(String message) {
    long now = System.nanoTime();
    tokens = Math.min(BURST, tokens + (now - lastRefill) / 1e9 * PER_SECOND);
    lastRefill = now;
    if (tokens < 1) {
      hiddenSinceShown++;
      hidden++;
      return;
    }
    tokens -= 1;
    if (hiddenSinceShown > 0) {
      message += " (" + hiddenSinceShown + " similar lines not shown before this one)";
      hiddenSinceShown = 0;
    }
    print(message);
  }

  /** Prints {@code message} always. */
  void print(String message) {
    synchronized (err) {
      if (bar) {
        err.print("\r\u001b[K");
      }
      err.println(message);
      err.flush();
    }
  }

  /** Says how many lines the rate held back, if any. */
  void finish() {
    if (hidden > 0) {
      print("ingest: " + hidden + " more lines about skipped rows were not shown (at most "
          + PER_SECOND + " a second); the summary counts every skipped row per reason");
      hidden = 0;
      hiddenSinceShown = 0;
    }
  }

  /** Returns how many lines the rate held back so far. */
  long hidden() {
    return hidden;
  }
}
