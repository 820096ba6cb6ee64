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
 * and rows an encoder rejects (counted per column and type, from the encoder's message).
 *
 * <p>{@link #wrap} puts a counting layer around an encoder: it lets every exception through
 * unchanged, so the stage applies its policy as always, and counts {@code DATA} errors while
 * {@link #counting(boolean)} is on (replays turn it off, their rows were counted once already).
 * Counting happens on the pipeline thread; reading the counts is safe from any thread.
 */
final class SkipReasons {

  /** The reason of a line that is not valid JSON. */
  static final String MALFORMED_JSON = "malformed JSON";

  /** The reason of a line holding JSON that is not an object. */
  static final String NOT_AN_OBJECT = "not a JSON object";

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
  private volatile boolean counting = true;

  /** Turns counting on or off (off while a failed range is read again). */
  void counting(boolean on) {
    counting = on;
  }

  /** Counts one skipped row for {@code reason} (when counting is on). */
  void count(String reason) {
    if (counting) {
      counts.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }
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

  /** Returns {@code encoder} with a layer that counts its {@code DATA} errors here. */
  <T> RowEncoder<T> wrap(RowEncoder<T> encoder) {
    return new Counting<>(encoder, this);
  }

  /** The counting layer; one per shard, like the encoder it wraps. */
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
          reasons.count(reasonOf(e.getMessage()));
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
