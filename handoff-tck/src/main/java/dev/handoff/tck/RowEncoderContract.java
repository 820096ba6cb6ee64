package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.spi.RowEncoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The {@link RowEncoder} contract, for row formats (which write each row into the chunk buffer)
 * and columnar formats (which hold rows until {@link RowEncoder#finishChunk}) alike.
 *
 * <p>A test class extends it once per encoder configuration and supplies a fresh encoder, rows the
 * encoder accepts and rows it rejects, each with the column and value its error message names:
 *
 * <pre>{@code
 * final class MyEncoderContractTest extends RowEncoderContract<Object[]> {
 *   protected RowEncoder<Object[]> newEncoder() { return new MyEncoder(...); }
 *   protected boolean rowFormat() { return true; }
 *   protected List<Object[]> goodRows() { return List.of(...); }
 *   protected List<BadRow<Object[]>> badRows() {
 *     return List.of(BadRow.of(new Object[] {null, "x"}, "id", "null"));
 *   }
 * }
 * }</pre>
 *
 * <p>Each check uses the SPI only, as the stage does: a frame is what {@code encode} wrote into
 * the chunk buffer followed by what {@code finishChunk} appended, and after a failed {@code
 * encode} the buffer is truncated back to the length it had before the call. The checks:
 *
 * <ul>
 *   <li>every good row encodes and adds bytes; every bad row fails with a {@link HandoffException}
 *       of class {@link ErrorClass#DATA} and nothing else, on a fresh encoder and after good rows;
 *   <li>the message of each such error names the column, the value and (when given) the reason;
 *   <li>a {@code DATA} error leaves no trace: the frame equals the frame of the good rows alone,
 *       wherever the bad row came;
 *   <li>{@code buffer.length() + bufferedBytes()} after every row is exactly the frame's length
 *       after {@code finishChunk}; a row format holds nothing ({@code bufferedBytes() == 0}), a
 *       columnar one writes nothing into the buffer before {@code finishChunk};
 *   <li>{@code newInstance()} gives independent encoders that write the same bytes for the same
 *       rows;
 *   <li>{@code finishChunk} empties the encoder: nothing held after it, nothing written by a
 *       second call, and the next chunk is encoded as by a fresh encoder.
 * </ul>
 *
 * @param <T> the payload type
 */
public abstract class RowEncoderContract<T> {
  /** Small on purpose: the buffer grows while the checks encode, as a real chunk's does. */
  private static final int BUFFER_CAPACITY = 16;

  /** Creates the suite; subclasses supply the encoder and the samples. */
  protected RowEncoderContract() {}

  /**
   * A row the encoder must reject with a {@code DATA} error, and what the error's message must
   * name.
   *
   * @param row the row
   * @param column the name of the column whose value is bad; the message must contain it
   * @param value the bad value as the message shows it (for example {@code 300} or {@code null});
   *     the message must contain it
   * @param reason a fragment of the reason the message must contain (for example {@code out of
   *     range}), or {@code null} to check only the column and the value
   * @param <T> the payload type
   */
  public record BadRow<T>(T row, String column, String value, String reason) {

    /** Checks that the column and the value are given. */
    public BadRow {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(value, "value");
    }

    /** Returns a bad row whose message must name {@code column} and {@code value}. */
    public static <T> BadRow<T> of(T row, String column, String value) {
      return new BadRow<>(row, column, value, null);
    }

    /** Returns a bad row whose message must name {@code column}, {@code value} and why. */
    public static <T> BadRow<T> of(T row, String column, String value, String reason) {
      return new BadRow<>(row, column, value, reason);
    }
  }

  /**
   * Returns a new encoder holding no rows, as a provider's {@code create} returns it. Called once
   * or more per check.
   */
  protected abstract RowEncoder<T> newEncoder();

  /**
   * Returns whether the encoder is a row format, which writes each row into the chunk buffer in
   * {@code encode} and holds nothing ({@code bufferedBytes()} is always 0), rather than a columnar
   * format, which holds rows until {@code finishChunk}.
   */
  protected abstract boolean rowFormat();

  /**
   * Returns at least two rows the encoder accepts; the first two must encode to different bytes.
   * Varied rows (empty and long strings, nulls, nested values) make the checks stronger.
   */
  protected abstract List<T> goodRows();

  /**
   * Returns at least one row the encoder rejects with a {@code DATA} error, each with the column
   * and value its message names. A row that fails in its last column proves the most: the
   * encoder has written or buffered every other column by then.
   */
  protected abstract List<BadRow<T>> badRows();

  /**
   * Returns a short text for a row in assertion messages; {@code Object[]} rows are shown element
   * by element. Override for payloads whose {@code toString} says little.
   */
  protected String describe(T row) {
    String text = row instanceof Object[] array ? Arrays.deepToString(array) : String.valueOf(row);
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  /**
   * Returns the frame {@code encoder} makes of {@code rows}: each row encoded into one buffer,
   * then {@code finishChunk}. Any error fails the calling check.
   */
  protected final byte[] frame(RowEncoder<T> encoder, List<T> rows) {
    ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
    for (T row : rows) {
      encoder.encode(row, buffer);
    }
    encoder.finishChunk(buffer);
    return buffer.toByteArray();
  }

  /** Checks that the samples can prove anything: two good rows that differ, one bad row. */
  @Test
  public void samplesAreUsable() {
    List<T> good = goodRows();
    assertThat(good).as("goodRows() must give at least two rows").hasSizeGreaterThanOrEqualTo(2);
    assertThat(badRows()).as("badRows() must give at least one row").isNotEmpty();
    assertThat(frame(newEncoder(), List.of(good.get(0))))
        .as("the first two good rows must encode to different bytes, or the independence checks"
            + " prove nothing: %s and %s", describe(good.get(0)), describe(good.get(1)))
        .isNotEqualTo(frame(newEncoder(), List.of(good.get(1))));
  }

  /** Checks that every good row encodes without an error and adds bytes to the frame. */
  @Test
  public void everyGoodRowEncodesAndAddsBytes() {
    RowEncoder<T> encoder = newEncoder();
    ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
    for (T row : goodRows()) {
      int before = buffer.length() + encoder.bufferedBytes();
      Throwable error = catchThrowable(() -> encoder.encode(row, buffer));
      assertThat(error).as("encode(%s), a good row, must not throw", describe(row)).isNull();
      assertThat(buffer.length() + encoder.bufferedBytes())
          .as("buffer.length() + bufferedBytes() after encoding %s must grow", describe(row))
          .isGreaterThan(before);
    }
  }

  /**
   * Checks that every bad row fails with a {@code DATA} {@link HandoffException} and no other
   * exception type, on a fresh encoder and on one that already holds the good rows.
   */
  @Test
  public void everyBadRowIsADataErrorAndNothingElse() {
    for (BadRow<T> bad : badRows()) {
      assertDataError(newEncoder(), new ChunkBuffer(BUFFER_CAPACITY), bad, "a fresh encoder");
      RowEncoder<T> encoder = newEncoder();
      ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
      for (T row : goodRows()) {
        encoder.encode(row, buffer);
      }
      assertDataError(encoder, buffer, bad, "an encoder holding the good rows");
    }
  }

  /**
   * Checks that the message of every {@code DATA} error names the column, the value and why; every
   * bad row is checked and every miss reported.
   */
  @Test
  public void dataErrorMessagesNameTheColumnTheValueAndTheReason() {
    SoftAssertions softly = new SoftAssertions();
    for (BadRow<T> bad : badRows()) {
      String message =
          assertDataError(newEncoder(), new ChunkBuffer(BUFFER_CAPACITY), bad, "a fresh encoder")
              .getMessage();
      softly.assertThat(message)
          .as("the DATA error of %s must name the column %s", describe(bad.row()), bad.column())
          .contains(bad.column());
      softly.assertThat(message)
          .as("the DATA error of %s must show the value %s", describe(bad.row()), bad.value())
          .contains(bad.value());
      if (bad.reason() != null) {
        softly.assertThat(message)
            .as("the DATA error of %s must say why (%s)", describe(bad.row()), bad.reason())
            .contains(bad.reason());
      }
    }
    softly.assertAll();
  }

  /**
   * Checks that a {@code DATA} error leaves no trace: with the buffer truncated to the row's start
   * (as the stage does), the frame equals the frame of the good rows alone, whether the bad row
   * comes first, between good rows or last, and {@code buffer.length() + bufferedBytes()} is back
   * where it was before the bad row.
   */
  @Test
  public void aDataErrorLeavesNoTrace() {
    List<T> good = goodRows();
    byte[] expected = frame(newEncoder(), good);
    for (BadRow<T> bad : badRows()) {
      for (int at = 0; at <= good.size(); at++) {
        RowEncoder<T> encoder = newEncoder();
        ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
        for (int i = 0; i <= good.size(); i++) {
          if (i == at) {
            int before = buffer.length() + encoder.bufferedBytes();
            assertDataError(encoder, buffer, bad, "after " + at + " good rows");
            assertThat(buffer.length() + encoder.bufferedBytes())
                .as("buffer.length() + bufferedBytes() after the DATA error of %s (after %d good"
                    + " rows, buffer truncated to the row's start) must be what it was before",
                    describe(bad.row()), at)
                .isEqualTo(before);
          }
          if (i < good.size()) {
            encoder.encode(good.get(i), buffer);
          }
        }
        encoder.finishChunk(buffer);
        assertThat(buffer.toByteArray())
            .as("the frame of the good rows with %s rejected after %d of them must equal the"
                + " frame of the good rows alone: a DATA error must leave no trace",
                describe(bad.row()), at)
            .isEqualTo(expected);
      }
    }
  }

  /**
   * Checks that {@code buffer.length() + bufferedBytes()} after each row is exactly the length of
   * the frame once {@code finishChunk} has run: the stage seals chunks by it.
   */
  @Test
  public void bufferedBytesIsExactAfterEveryRow() {
    List<T> rows = goodRows();
    for (int n = 1; n <= rows.size(); n++) {
      RowEncoder<T> encoder = newEncoder();
      ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
      for (T row : rows.subList(0, n)) {
        encoder.encode(row, buffer);
      }
      int predicted = buffer.length() + encoder.bufferedBytes();
      encoder.finishChunk(buffer);
      assertThat(buffer.length())
          .as("after %d rows, buffer.length() + bufferedBytes() was %d but finishChunk made a"
              + " frame of %d bytes: bufferedBytes() must be exactly what finishChunk appends", n,
              predicted, buffer.length())
          .isEqualTo(predicted);
    }
  }

  /**
   * Checks that the encoder is the kind {@link #rowFormat()} declares: a row format holds nothing
   * ({@code bufferedBytes() == 0} after every row, {@code finishChunk} appends nothing); a
   * columnar format writes nothing into the buffer before {@code finishChunk} and holds every row
   * it accepted.
   */
  @Test
  public void rowOrColumnarAsDeclared() {
    RowEncoder<T> encoder = newEncoder();
    ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
    for (T row : goodRows()) {
      encoder.encode(row, buffer);
      if (rowFormat()) {
        assertThat(encoder.bufferedBytes())
            .as("a row format holds nothing: bufferedBytes() after %s", describe(row)).isZero();
      } else {
        assertThat(buffer.length())
            .as("a columnar format writes nothing into the buffer in encode (after %s)",
                describe(row))
            .isZero();
        assertThat(encoder.bufferedBytes())
            .as("a columnar format holds the rows it accepted: bufferedBytes() after %s",
                describe(row))
            .isPositive();
      }
    }
    int before = buffer.length();
    encoder.finishChunk(buffer);
    if (rowFormat()) {
      assertThat(buffer.length()).as("a row format's finishChunk appends nothing")
          .isEqualTo(before);
    }
  }

  /**
   * Checks that {@code newInstance()} gives encoders that hold no rows, share no state with their
   * template or each other (rows into one do not change another's bytes) and write the same bytes
   * for the same rows as a fresh encoder.
   */
  @Test
  public void newInstanceGivesIndependentEncoders() {
    RowEncoder<T> template = newEncoder();
    List<T> forward = goodRows();
    List<T> backward = new ArrayList<>(forward);
    Collections.reverse(backward);
    // The template holds a row of its own (a columnar encoder keeps it) that must not leak.
    template.encode(forward.get(0), new ChunkBuffer(BUFFER_CAPACITY));
    RowEncoder<T> a = template.newInstance();
    RowEncoder<T> b = template.newInstance();
    assertThat(a).as("newInstance() must return a new encoder").isNotSameAs(template);
    assertThat(b).as("two calls of newInstance() must return two encoders").isNotSameAs(a);
    assertThat(a.bufferedBytes()).as("an encoder from newInstance() holds no rows").isZero();

    ChunkBuffer bufA = new ChunkBuffer(BUFFER_CAPACITY);
    ChunkBuffer bufB = new ChunkBuffer(BUFFER_CAPACITY);
    for (int i = 0; i < forward.size(); i++) {
      a.encode(forward.get(i), bufA);
      b.encode(backward.get(i), bufB);
    }
    a.finishChunk(bufA);
    b.finishChunk(bufB);
    assertThat(bufA.toByteArray())
        .as("rows encoded by one instance must not change the bytes of another (forward order)")
        .isEqualTo(frame(newEncoder(), forward));
    assertThat(bufB.toByteArray())
        .as("rows encoded by one instance must not change the bytes of another (reverse order)")
        .isEqualTo(frame(newEncoder(), backward));
    assertThat(frame(template.newInstance(), forward))
        .as("two instances must write the same bytes for the same rows")
        .isEqualTo(frame(template.newInstance(), forward));
  }

  /**
   * Checks that {@code finishChunk} empties the encoder: on a fresh encoder it writes nothing;
   * after rows it leaves {@code bufferedBytes() == 0}; a second call writes nothing more.
   */
  @Test
  public void finishChunkEmptiesTheEncoder() {
    RowEncoder<T> encoder = newEncoder();
    ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
    encoder.finishChunk(buffer);
    assertThat(buffer.length()).as("finishChunk of an encoder holding no rows writes nothing")
        .isZero();

    for (T row : goodRows()) {
      encoder.encode(row, buffer);
    }
    encoder.finishChunk(buffer);
    assertThat(encoder.bufferedBytes()).as("bufferedBytes() after finishChunk").isZero();
    int length = buffer.length();
    encoder.finishChunk(buffer);
    assertThat(buffer.length()).as("a second finishChunk, with no rows between, writes nothing")
        .isEqualTo(length);
    assertThat(encoder.bufferedBytes()).as("bufferedBytes() after a second finishChunk").isZero();
  }

  /**
   * Checks that an encoder serves chunk after chunk as the stage uses it (encode, {@code
   * finishChunk}, split the buffer, encode again): each chunk's frame equals the frame a fresh
   * encoder makes of the same rows.
   */
  @Test
  public void eachChunkIsEncodedAsByAFreshEncoder() {
    List<T> rows = goodRows();
    List<T> backward = new ArrayList<>(rows);
    Collections.reverse(backward);
    RowEncoder<T> encoder = newEncoder();
    ChunkBuffer buffer = new ChunkBuffer(BUFFER_CAPACITY);
    for (List<T> chunk : List.of(rows, backward, rows.subList(1, 2))) {
      for (T row : chunk) {
        encoder.encode(row, buffer);
      }
      encoder.finishChunk(buffer);
      assertThat(buffer.split().toByteArray())
          .as("a chunk of %d rows after earlier chunks must equal a fresh encoder's frame of the"
              + " same rows", chunk.size())
          .isEqualTo(frame(newEncoder(), chunk));
    }
  }

  /**
   * Encodes {@code bad} and returns its error after checking that it is a {@code DATA} {@link
   * HandoffException}; truncates the buffer to the row's start, as the stage does.
   */
  private HandoffException assertDataError(RowEncoder<T> encoder, ChunkBuffer buffer,
      BadRow<T> bad, String where) {
    int start = buffer.length();
    Throwable t = catchThrowable(() -> encoder.encode(bad.row(), buffer));
    assertThat(t).as("encode(%s), a bad row, on %s must throw a HandoffException",
        describe(bad.row()), where).isNotNull();
    assertThat(t).as("encode(%s) on %s threw %s: only HandoffException may escape encode",
        describe(bad.row()), where, t).isInstanceOf(HandoffException.class);
    HandoffException e = (HandoffException) t;
    assertThat(e.errorClass()).as("the error class of %s for %s on %s: a bad row is DATA",
        e.getMessage(), describe(bad.row()), where).isEqualTo(ErrorClass.DATA);
    buffer.truncate(start);
    return e;
  }
}
