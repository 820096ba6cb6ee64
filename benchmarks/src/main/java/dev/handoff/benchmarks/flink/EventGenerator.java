package dev.handoff.benchmarks.flink;

import java.time.Instant;
import java.util.Locale;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * Makes row {@code i} (0-based) of the benchmark's data: a new {@link Event} per call, so no
 * sink can rely on objects being reused. It serves as the generator of a {@code
 * DataGeneratorSource} or as a map after a number sequence. The texts come from small pools built once, so the
 * source's own cost stays small next to the sinks' (every contender reads the same objects).
 *
 * <p>The expected table contents follow from the formulas: see {@link #expectedSums(long)}.
 */
public final class EventGenerator implements GeneratorFunction<Long, Event>,
    MapFunction<Long, Event> {
  private static final long serialVersionUID = 1L;
  /** 2026-01-01T00:00:00Z; 500 rows share each second. */
  static final long BASE_SECONDS = 1_767_225_600L;
  private static final int ROWS_PER_SECOND = 500;
  private static final int COUNT_MODULUS = 100_000;
  private static final String[] KINDS = {
      "click", "view", "buy", "cart", "search", "login", "logout", "share"};

  private transient String[] names;

  @Override
  public Event map(Long index) {
    if (names == null) {
      names = new String[1024];
      for (int i = 0; i < names.length; i++) {
        names[i] = String.format(Locale.ROOT, "user-%04d", i);
      }
    }
    long i = index;
    return new Event(i + 1, Instant.ofEpochSecond(BASE_SECONDS + i / ROWS_PER_SECOND),
        names[(int) (i & 1023)], KINDS[(int) (i & 7)], i * 0.25, i % COUNT_MODULUS);
  }

  /**
   * The answer of {@code SELECT count(), sum(id), sum(count), sum(toUInt32(ts))} over the
   * table holding rows 0 to {@code rows - 1}, tab-separated as the server prints it.
   */
  static String expectedSums(long rows) {
    long sumId = rows * (rows + 1) / 2;
    long sumCount = 0;
    long sumTs = 0;
    for (long i = 0; i < rows; i++) {
      sumCount += i % COUNT_MODULUS;
      sumTs += BASE_SECONDS + i / ROWS_PER_SECOND;
    }
    return rows + "\t" + sumId + "\t" + sumCount + "\t" + sumTs;
  }
}
