package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link InsertWriter} contract: inserts are written or fail classified (a sink that cannot be
 * reached is {@link WriteException.Kind#TRANSIENT}, an insert the sink rejects is {@link
 * WriteException.Kind#PERMANENT}, each message naming the cause), {@code split} keeps every row
 * in order in smaller frames, writes for different shards run at once, and {@code close} is
 * idempotent and final.
 *
 * <p>A test class extends it once per writer and format, and supplies writers to a live sink and
 * to one that cannot be reached, inserts the sink accepts and rejects, frames of a fixed run of
 * rows and a reader of the rows a frame holds (independent of the writer: a decoder of the format,
 * or the sink itself):
 *
 * <pre>{@code
 * final class MyWriterContractTest extends InsertWriterContract {
 *   protected InsertWriter newWriter() { return new MyWriter(liveSink); }
 *   protected InsertWriter unreachableWriter() { return new MyWriter(deadEndpoint); }
 *   protected String unreachableCause() { return "cannot connect"; }
 *   protected Insert goodInsert() { return insertOf(3, frameOf(3)); }
 *   protected Insert rejectedInsert() { return insertOf(1, badFrame); }
 *   protected String rejectionCause() { return "type mismatch"; }
 *   protected Frame frameOf(int rows) { ... }
 *   protected List<?> rowsOf(Frame frame) { ... }
 * }
 * }</pre>
 *
 * <p>After {@code close()}, {@code write} throws {@link IllegalStateException} whose message says
 * that the writer is closed: sink workers call {@code close()} once, after every worker ended, so
 * a later write is a caller's bug, and a writer that released its connections cannot send it.
 */
public abstract class InsertWriterContract {
  /** How many rows the split checks put in a frame. */
  private static final int ROWS = 5;

  /** Creates the suite; subclasses supply the writers, inserts and frames. */
  protected InsertWriterContract() {}

  /** Returns a new writer to a live sink that accepts {@link #goodInsert()}. */
  protected abstract InsertWriter newWriter();

  /**
   * Returns a new writer whose sink cannot be reached (an endpoint where nothing listens); a
   * write through it must fail as {@code TRANSIENT} within the suite's one-minute timeout.
   */
  protected abstract InsertWriter unreachableWriter();

  /** Returns text that the message of a write through {@link #unreachableWriter()} contains. */
  protected abstract String unreachableCause();

  /** Returns an insert the live sink accepts, every time it is sent. */
  protected abstract Insert goodInsert();

  /** Returns an insert the live sink rejects permanently (bad data, not a transport failure). */
  protected abstract Insert rejectedInsert();

  /** Returns text that the message of the rejection of {@link #rejectedInsert()} contains. */
  protected abstract String rejectionCause();

  /**
   * Returns a frame holding the first {@code rows} rows of a fixed run of distinct rows, as the
   * encoder of this writer's format makes it ({@code rows >= 1}).
   */
  protected abstract Frame frameOf(int rows);

  /**
   * Returns the rows {@code frame} holds, in order, as values comparable with {@code equals}
   * (text lines, say), read without the writer under test: by a decoder of the format, or by
   * inserting the frame into a scratch table of the sink and reading it back.
   */
  protected abstract List<?> rowsOf(Frame frame);

  /**
   * Returns whether the writer splits frames. {@code true} by default; a writer that cannot
   * (the interface's default {@code split}) returns {@code false}, and the suite then checks that
   * {@code split} returns an empty result.
   */
  protected boolean splits() {
    return true;
  }

  /** Returns {@code frames} as one insert of {@code rows} rows for shard 0, attempt 1. */
  protected static Insert insertOf(int rows, Frame... frames) {
    long bytes = 0;
    for (Frame f : frames) {
      bytes += f.length();
    }
    return new Insert(0, 0, 0, List.of(frames), rows, bytes, 1);
  }

  /** Checks that a good insert is written, and written again when it is sent a second time. */
  @Test
  public void aGoodInsertIsWrittenEveryTime() throws Exception {
    try (InsertWriter writer = newWriter()) {
      Insert insert = goodInsert();
      writer.write(insert);
      Throwable again = catchThrowable(() -> writer.write(insert.withAttempt(2)));
      assertThat(again).as("writing the same insert again (delivery is at least once) must"
          + " succeed too").isNull();
    }
  }

  /**
   * Checks that an insert the sink rejects fails as {@code PERMANENT}, on every attempt, with a
   * message naming the cause.
   */
  @Test
  public void aRejectedInsertIsPermanent() {
    try (InsertWriter writer = newWriter()) {
      for (int attempt = 1; attempt <= 2; attempt++) {
        Insert insert = rejectedInsert().withAttempt(attempt);
        WriteException e = writeFailure(writer, insert, "a rejected insert, attempt " + attempt);
        assertThat(e.kind()).as("the kind of a rejected insert's failure (attempt %d): retrying"
            + " cannot help, so it is PERMANENT (%s)", attempt, e.getMessage())
            .isEqualTo(WriteException.Kind.PERMANENT);
        assertThat(e.isTransient()).as("isTransient() of a PERMANENT failure").isFalse();
        assertThat(e.getMessage()).as("the message of a rejected insert's failure must name the"
            + " cause (%s)", rejectionCause()).contains(rejectionCause());
      }
    }
  }

  /**
   * Checks that a write to a sink that cannot be reached fails as {@code TRANSIENT}, with no
   * server code ({@code -1}) and a message naming the cause, within a minute.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  public void anUnreachableSinkIsTransient() {
    try (InsertWriter writer = unreachableWriter()) {
      WriteException e = writeFailure(writer, goodInsert(), "a sink that cannot be reached");
      assertThat(e.kind()).as("the kind of a failure to reach the sink: it may come back, so it"
          + " is TRANSIENT (%s)", e.getMessage()).isEqualTo(WriteException.Kind.TRANSIENT);
      assertThat(e.isTransient()).as("isTransient() of a TRANSIENT failure").isTrue();
      assertThat(e.serverCode()).as("the server code of a failure no server answered")
          .isEqualTo(-1);
      assertThat(e.getMessage()).as("the message of a failure to reach the sink must name the"
          + " cause (%s)", unreachableCause()).contains(unreachableCause());
    }
  }

  /**
   * Checks {@code split} of a frame of several rows: the frames returned are each shorter than it
   * and hold, together and in order, exactly its rows; the frame itself is unchanged. A writer
   * that does not split returns an empty result.
   */
  @Test
  public void splitKeepsEveryRowInOrder() {
    Frame frame = frameOf(ROWS);
    List<?> rows = rowsOf(frame);
    assertThat(rows).as("rowsOf(frameOf(%d)): the subclass's frame or reader is wrong", ROWS)
        .hasSize(ROWS);
    byte[] bytes = frame.toByteArray();
    try (InsertWriter writer = newWriter()) {
      Optional<List<Frame>> split = writer.split(frame);
      assertThat(split).as("split must return a result, empty when it cannot split").isNotNull();
      assertThat(frame.toByteArray()).as("split must not change the frame").isEqualTo(bytes);
      if (!splits()) {
        assertThat(split).as("split of a writer that does not split").isEmpty();
        return;
      }
      assertThat(split).as("split of a frame of %d rows", ROWS).isPresent();
      List<Frame> parts = split.get();
      assertThat(parts).as("split of a frame of %d rows must give at least two frames", ROWS)
          .hasSizeGreaterThanOrEqualTo(2);
      assertParts(frame, rows, parts, "frameOf(" + ROWS + ")");
    }
  }

  /**
   * Checks what the sink workers do with the frames {@code split} returns, splitting them again
   * until they cannot be split: every result is empty or keeps the rows of its frame in order in
   * shorter frames, down to one-row frames; {@code split} of an empty frame is empty.
   */
  @Test
  public void splitAgainKeepsEveryRowOrGivesNothing() {
    try (InsertWriter writer = newWriter()) {
      assertThat(writer.split(Frame.empty())).as("split of an empty frame").isEmpty();
      if (!splits()) {
        return;
      }
      List<Frame> pending = new ArrayList<>(List.of(frameOf(ROWS), frameOf(1)));
      int steps = 0;
      while (!pending.isEmpty()) {
        assertThat(++steps).as("splitting again and again must end").isLessThan(1_000);
        Frame frame = pending.remove(pending.size() - 1);
        Optional<List<Frame>> split = writer.split(frame);
        assertThat(split).as("split must return a result, empty when it cannot split")
            .isNotNull();
        if (split.isPresent() && !split.get().isEmpty()) {
          assertParts(frame, rowsOf(frame), split.get(), "a frame of " + frame.length()
              + " bytes");
          pending.addAll(split.get());
        }
      }
    }
  }

  /** Checks that writes for four shards at once all succeed: a writer serves every shard. */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  public void writesForDifferentShardsRunAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (InsertWriter writer = newWriter()) {
      Insert good = goodInsert();
      List<Callable<Void>> shards = new ArrayList<>();
      for (int s = 0; s < 4; s++) {
        Insert insert = new Insert(s, good.firstSequence(), good.lastSequence(), good.frames(),
            good.rows(), good.bytes(), 1);
        shards.add(() -> {
          for (int i = 0; i < 3; i++) {
            writer.write(insert);
          }
          return null;
        });
      }
      for (Future<Void> f : pool.invokeAll(shards)) {
        Throwable t = catchThrowable(f::get);
        assertThat(t).as("a write of shard threads running at once must succeed: the writer is"
            + " thread-safe across shards").isNull();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Checks that {@code close()} may be called twice. */
  @Test
  public void closeIsIdempotent() {
    InsertWriter writer = newWriter();
    writer.close();
    assertThat(catchThrowable(writer::close)).as("a second close() must do nothing").isNull();
  }

  /**
   * Checks that a write after {@code close()} fails with an {@link IllegalStateException} whose
   * message says the writer is closed, instead of sending anything.
   */
  @Test
  public void aWriteAfterCloseFailsClearly() {
    InsertWriter writer = newWriter();
    writer.close();
    Throwable t = catchThrowable(() -> writer.write(goodInsert()));
    assertThat(t).as("write after close() must throw IllegalStateException")
        .isInstanceOf(IllegalStateException.class);
    assertThat(t.getMessage()).as("the message of a write after close()").contains("closed");
  }

  /** Writes {@code insert}, expecting a {@link WriteException}, and returns it. */
  private static WriteException writeFailure(InsertWriter writer, Insert insert, String what) {
    Throwable t = catchThrowable(() -> writer.write(insert));
    assertThat(t).as("writing %s must throw a WriteException", what).isNotNull();
    assertThat(t).as("writing %s threw %s: a writer classifies every failure as a WriteException",
        what, t).isInstanceOf(WriteException.class);
    assertThat(t.getMessage()).as("the message of the failure of %s", what).isNotBlank();
    return (WriteException) t;
  }

  /** Checks that {@code parts} are shorter than {@code frame} and hold its rows in order. */
  private void assertParts(Frame frame, List<?> rows, List<Frame> parts, String what) {
    List<Object> joined = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      Frame part = parts.get(i);
      assertThat(part).as("part %d of the split of %s", i, what).isNotNull();
      assertThat(part.length())
          .as("part %d of the split of %s must be shorter than the frame", i, what)
          .isLessThan(frame.length());
      joined.addAll(rowsOf(part));
    }
    assertThat(joined)
        .as("the rows of the parts of the split of %s, in order, must be exactly its rows", what)
        .isEqualTo(rows);
  }
}
