package dev.handoff.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The background side of {@code ingest}: every {@value #TICK_MILLIS} ms it writes the
 * checkpoint when the watermark moved (at most every {@value #CHECKPOINT_MILLIS} ms), and
 * redraws the progress bar on stderr when one is wanted (at most every {@value #DRAW_MILLIS}
 * ms). One daemon thread; {@link #close()} stops it and writes the final checkpoint.
 */
final class Monitor implements AutoCloseable {

  /** How often the thread wakes up. */
  static final long TICK_MILLIS = 100;

  /** The least time between two checkpoint writes. */
  static final long CHECKPOINT_MILLIS = 500;

  /** The least time between two redraws of the progress bar. */
  static final long DRAW_MILLIS = 250;

  /**
   * What the progress bar shows, sampled from the workers, the budget and the stage.
   *
   * @param rowsRead input rows read
   * @param rowsWritten rows the sink acknowledged
   * @param bytesWritten bytes the sink acknowledged
   * @param inflightBytes encoded bytes not yet written (the budget's value)
   * @param parkedChunks chunks the stage holds because their queue is full
   * @param retries retried insert attempts
   * @param replayed batches read again
   */
  record Sample(long rowsRead, long rowsWritten, long bytesWritten, long inflightBytes,
      int parkedChunks, long retries, long replayed) {}

  /**
   * What the checkpoint holds besides the watermark: the rows already written after it, carried
   * over from the run this one resumed.
   *
   * @param writtenPast rows a previous run wrote after this run's start that this run has not
   *     written again yet
   * @param writtenUntil the offset up to which those lie
   */
  record Carried(long writtenPast, long writtenUntil) {}

  private final Supplier<Sample> sampler;
  private final Consumer<Sample> observer;
  private final CheckpointFile checkpoint;
  private final String input;
  private final InputRanges ranges;
  private final PrintWriter err;
  private final boolean draw;
  private final Thread thread;
  private final long start = System.nanoTime();
  /** Guards {@link #stop}; the thread waits on it between ticks, so close() wakes it at once. */
  private final Object tick = new Object();
  private boolean stop;
  private long writtenVersion = -1;
  private long lastCheckpoint;
  private long lastDraw;
  private int lastWidth;
  private volatile IOException checkpointError;
  private volatile Carried carried = new Carried(0, 0);

  /**
   * Creates the monitor; {@link #start()} starts it.
   *
   * @param observer sees every sample (every tick)
   * @param checkpoint the checkpoint file, or {@code null}
   * @param draw whether to draw the progress bar
   */
  Monitor(Supplier<Sample> sampler, Consumer<Sample> observer, CheckpointFile checkpoint,
      String input, InputRanges ranges, PrintWriter err, boolean draw) {
    this.sampler = sampler;
    this.observer = observer;
    this.checkpoint = checkpoint;
    this.input = input;
    this.ranges = ranges;
    this.err = err;
    this.draw = draw;
    this.thread = new Thread(this::loop, "handoff-ingest-monitor");
    thread.setDaemon(true);
  }

  /** Returns whether stderr is a terminal (Linux: fd 2 is a tty; elsewhere: a console). */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  /**
   * Draws the progress line a last time with the summary's figures, so that its last numbers
   * are the summary's, and ends it.
   */
  void finish(Sample last) {
    if (draw) {
      drawLine(last, System.nanoTime());
      synchronized (err) {
        err.println();
        err.flush();
      }
    }
  }

  /** Starts the thread. */
  void start() {
    thread.start();
  }

  private void loop() {
    while (true) {
      synchronized (tick) {
        if (stop) {
          return;
        }
      }
      long now = System.nanoTime();
      if (checkpoint != null && now - lastCheckpoint >= CHECKPOINT_MILLIS * 1_000_000) {
        lastCheckpoint = now;
        writeCheckpoint(false);
      }
      Sample sample = sampler.get();
      observer.accept(sample);
      if (draw && now - lastDraw >= DRAW_MILLIS * 1_000_000) {
        lastDraw = now;
        drawLine(sample, now);
      }
      try {
        synchronized (tick) {
          if (!stop) {
            tick.wait(TICK_MILLIS); // a spurious wake-up only ticks early
          }
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Sets the rows a previous run wrote past this run's start (see {@link Carried}). */
  void carried(Carried c) {
    carried = c;
  }

  /** Returns the checkpoint as it stands: the watermark and what was written after it. */
  CheckpointFile.Position position(boolean clean) {
    Carried c = carried;
    long mark = ranges.watermark();
    long past = ranges.rowsWrittenPastWatermark();
    long until = ranges.writtenUntil();
    if (c.writtenPast() > 0 && c.writtenUntil() > mark) {
      past += c.writtenPast();
      until = Math.max(until, c.writtenUntil());
    }
    return new CheckpointFile.Position(input, mark, ranges.rowsBeforeWatermark(),
        ranges.linesBeforeWatermark(), past, until, clean);
  }

  /** Writes the checkpoint if the watermark moved since the last write. */
  private synchronized void writeCheckpoint(boolean clean) {
    long version = ranges.version();
    if (version == writtenVersion && !clean) {
      return;
    }
    try {
      // Read the version first: a resolution between the two reads only writes again later.
      checkpoint.write(position(clean));
      writtenVersion = version;
      checkpointError = null;
    } catch (IOException e) {
      checkpointError = e;
    }
  }

  private void drawLine(Sample s, long now) {
    double secs = Math.max(1e-3, (now - start) / 1e9);
    String line = String.format(Locale.ROOT,
        "ingest: %,d read, %,d written  %,.0f rows/s  %.1f MB/s  in flight %s  parked %d"
            + "  retries %,d  replayed %,d  %.0fs",
        s.rowsRead(), s.rowsWritten(), s.rowsWritten() / secs, s.bytesWritten() / 1e6 / secs,
        Sizes.formatBytes(s.inflightBytes()), s.parkedChunks(), s.retries(), s.replayed(), secs);
    int pad = Math.max(0, lastWidth - line.length());
    lastWidth = line.length();
    synchronized (err) {
      err.print("\r" + line + " ".repeat(pad));
      err.flush();
    }
  }

  /**
   * Stops the thread and writes the final checkpoint (which throws if any write failed); see
   * {@link #finish(Sample)} for the progress line.
   *
   * @throws IOException if a checkpoint write failed
   */
  @Override
  public void close() throws IOException {
    // No interrupt: it would close a checkpoint's FileChannel mid-write. A notify ends the wait
    // between ticks at once, so the run does not wait out the tick.
    synchronized (tick) {
      stop = true;
      tick.notifyAll();
    }
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (checkpoint != null) {
      writeCheckpoint(true);
    }
    if (checkpointError != null) {
      throw new IOException("cannot write the checkpoint " + checkpoint.path() + ": "
          + checkpointError.getMessage(), checkpointError);
    }
  }
}
