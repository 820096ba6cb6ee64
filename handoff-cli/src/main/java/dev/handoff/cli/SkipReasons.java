package dev.handoff.cli;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.spi.RowEncoder;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts skipped input rows per reason: lines that are not JSON, lines that are not an object,
 * rows with a field that names no column (under {@code --strict}), and rows an encoder rejects
 * (counted per column and type, from the encoder's message).
 *
 * <p>{@link #wrap} puts a catching layer around an encoder: it lets every exception through
 * unchanged, so the stage applies its policy as always, and keeps the message of a {@code DATA}
 * error for the source, which pushed the row and knows its line ({@link #takeRejection()}).
 * Counting and catching happen on the pipeline thread; reading the counts is safe from any
 * thread.
 */
final class SkipReasons {

  /** The reason of a line that is not valid JSON. */
  static final String MALFORMED_JSON = "malformed JSON";

  /** The reason of a line holding JSON that is not an object. */
  static final String NOT_AN_OBJECT = "not a JSON object";

  /** The reason of a CSV or TSV line that is not a well-formed row. */
  static final String MALFORMED_ROW = "malformed row";

  /** The reason of a row with a field that names no column, under {@code --strict}. */
  static final String UNKNOWN_FIELD = "unknown field";

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
  /** The message of the last DATA error the encoder threw; pipeline thread only. */
  private String rejection;

  /** Counts one skipped row for {@code reason}. */
  void count(String reason) {
    counts.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  /**
   * Returns the message of the DATA error the encoder threw since the last call, or {@code
   * null} when it threw none (the row was taken); clears it.
   */
  String takeRejection() {
    String r = rejection;
    rejection = null;
    return r;
  }

  /** Returns the counts per reason, sorted by reason. */
  Map<String, Long> snapshot() {
    Map<String, Long> m = new TreeMap<>();
    counts.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** Returns the total of every reason. */
  long total() {
    long t = 0;
    for (LongAdder a : counts.values()) {
      t += a.sum();
    }
    return t;
  }

  /**
   * Returns the reason for an encoder's error message: its {@code column "x" (Type)} prefix, so
   * that rows are counted per column and not per value.
   */
  static String reasonOf(String message) {
    if (message == null) {
      return "rejected by the encoder";
    }
    int value = message.indexOf(": value ");
    if (message.startsWith("column ") && value > 0) {
      return message.substring(0, value);
    }
    int colon = message.indexOf(':');
    return colon > 0 && colon < 80 ? message.substring(0, colon) : "rejected by the encoder";
  }

  /** Returns {@code encoder} with a layer that keeps its {@code DATA} errors' messages here. */
  <T> RowEncoder<T> wrap(RowEncoder<T> encoder) {
    return new Counting<>(encoder, this);
  }

  /** The catching layer; one per shard, like the encoder it wraps. */
  private static final class Counting<T> implements RowEncoder<T> {
    private final RowEncoder<T> delegate;
    private final SkipReasons reasons;

    Counting(RowEncoder<T> delegate, SkipReasons reasons) {
      this.delegate = delegate;
      this.reasons = reasons;
    }

    @Override
    public void encode(T row, ChunkBuffer buffer) {
      try {
        delegate.encode(row, buffer);
      } catch (HandoffException e) {
        if (e.errorClass() == ErrorClass.DATA) {
          reasons.rejection = String.valueOf(e.getMessage());
        }
        throw e;
      }
    }

    @Override
    public void finishChunk(ChunkBuffer buffer) {
      delegate.finishChunk(buffer);
    }

    @Override
    public int bufferedBytes() {
      return delegate.bufferedBytes();
    }

    @Override
    public RowEncoder<T> newInstance() {
      return new Counting<>(delegate.newInstance(), reasons);
    }
  }
}
