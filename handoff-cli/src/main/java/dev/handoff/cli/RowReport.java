package dev.handoff.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Tells the user on stderr about every row that was not written as it was read: one line per
 * skipped row, naming its input line, byte offset and why (the column, the value and the reason
 * where the encoder rejected it), and one note per unknown field name.
 *
 * <p>Rate-limited so that a file of bad rows does not flood the terminal: up to {@value #BURST}
 * lines at once, then {@value #PER_SECOND} a second. A line printed after some were held back
 * says how many; {@link #finish()} says how many were not shown at all. The summary counts every
 * one per reason. With {@code --rejects FILE} every skipped row's line also goes to a file as it
 * was read, with its reason in a second file. Called on the pipeline thread.
 */
final class RowReport {

  /** Lines printed before the rate applies. */
  static final int BURST = 20;

  /** Lines a second once the burst is used up. */
  static final int PER_SECOND = 10;

  private final PrintWriter err;
  private final boolean bar;
  private final OutputStream rejects;
  private final Writer reasons;
  private final Path rejectsFile;
  private long rejected;
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
    this.rejects = null;
    this.reasons = null;
    this.rejectsFile = null;
  }

  /**
   * Creates the report with a reject file: each skipped row's line goes to {@code rejects} as it
   * was read, and a line saying where it came from and why to {@code rejects} plus {@code
   * .reasons}, line for line, so the rows can be fixed and loaded again.
   *
   * @param append whether to add to the files (a resumed run) instead of replacing them
   * @throws IOException if the files cannot be created
   */
  RowReport(PrintWriter err, boolean bar, Path rejects, boolean append) throws IOException {
    this.err = err;
    this.bar = bar;
    this.rejectsFile = rejects;
    Path dir = rejects.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    java.nio.file.OpenOption[] how = append
        ? new java.nio.file.OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.APPEND}
        : new java.nio.file.OpenOption[] {StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE};
    this.rejects = new BufferedOutputStream(Files.newOutputStream(rejects, how), 1 << 16);
    this.reasons = Files.newBufferedWriter(reasonsFile(rejects), StandardCharsets.UTF_8, how);
  }

  /** Returns the file beside {@code rejects} that holds the reasons. */
  static Path reasonsFile(Path rejects) {
    return rejects.resolveSibling(rejects.getFileName() + ".reasons");
  }

  /**
   * Reports a skipped row (rate-limited on stderr) and writes it to the reject file, if any.
   *
   * @param line the row's line, as read (without its newline)
   */
  void skipped(long lineNumber, long offset, String detail, byte[] line, int off, int len) {
    skipped(lineNumber, offset, detail);
    if (rejects != null) {
      try {
        rejects.write(line, off, len);
        rejects.write('\n');
        reasons.write(Messages.where(lineNumber, offset) + ": " + detail.replace('\n', ' ')
            + "\n");
        rejected++;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the reject file " + rejectsFile + ": "
            + e.getMessage(), e);
      }
    }
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

  /**
   * Says how many lines the rate held back, if any, and closes the reject file (naming it when
   * it holds rows).
   *
   * @throws UncheckedIOException if the reject file cannot be written
   */
  void finish() {
    if (rejects != null) {
      try {
        rejects.close();
        reasons.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the reject file " + rejectsFile + ": "
            + e.getMessage(), e);
      }
      if (rejected > 0) {
        print("ingest: " + rejected + " skipped rows are in " + rejectsFile + " as they were"
            + " read (why: " + reasonsFile(rejectsFile) + "); fix them and ingest that file");
      }
    }
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
