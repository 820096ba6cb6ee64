package dev.handoff.encoders.testsupport;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.testkit.Allocations;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * The rows and the measurement the encoders' JSON text allocation tests share: 16 JSON texts of a
 * shape, encoded 100,000 times in blocks, with the JVM's per-thread allocation counter read
 * around the third pass (the first two grow every buffer and path).
 */
public final class JsonTextAllocations {
  /** Rows encoded per measured pass. */
  public static final int ROWS = 100_000;

  private JsonTextAllocations() {}

  /** Table type of the column {@link #plainTexts()} fills. */
  public static final String PLAIN_TYPE = "JSON(tags.score Float64, SKIP drop, SKIP REGEXP '^tmp')";

  /** Table type of the column {@link #textsWithArrays()} fills. */
  public static final String ARRAYS_TYPE = "JSON(ids Array(Nullable(Int64)), SKIP drop)";

  /**
   * 16 one-column rows of JSON objects without arrays: strings with escapes, integers (the
   * smallest Int64 among them), floats, booleans, nulls, a typed path and skipped paths.
   */
  public static Object[][] plainTexts() {
    Object[][] rows = new Object[16][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new Object[] {"{\"id\":" + (i * 7919) + ",\"name\":\"n\\u00e9\\\"" + i
          + "\",\"tags\":{\"score\":" + i + ".5,\"ok\":" + (i % 2 == 0) + ",\"none\":null},"
          + "\"drop\":{\"x\":1},\"tmp1\":\"t\",\"big\":-9223372036854775808,\"e\":1.5e-7}"};
    }
    return rows;
  }

  /**
   * 16 one-column rows of JSON objects with arrays of every kind: of scalars, of mixed kinds, of
   * arrays, of objects, an empty one, and one on a skipped path.
   */
  public static Object[][] textsWithArrays() {
    Object[][] rows = new Object[16][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = new Object[] {"{\"ids\":[" + i + ",null,3],\"tags\":[\"a\",\"b" + i + "\"],"
          + "\"scores\":[1," + i + ".5,null],\"mixed\":[1,\"x\",true,[2]],\"m\":[[1,2],[],[3]],"
          + "\"items\":[{\"id\":" + i + ",\"name\":\"n\",\"deep\":{\"k\":[1,2]}},{\"id\":2,"
          + "\"tags\":[{\"t\":\"u\"}]}],\"empty\":[],\"drop\":[1],\"s\":\"text\"}"};
    }
    return rows;
  }

  /**
   * Encodes {@link #ROWS} rows (cycling through {@code rows}) three times, finishing a chunk
   * every {@code blockRows} rows, and returns the bytes the third pass allocated on this thread,
   * or empty where the JVM has no per-thread allocation counter.
   */
  public static OptionalLong thirdPassBytes(RowEncoder<Object[]> encoder, Object[][] rows,
      int blockRows) {
    LongSupplier counter = Allocations.currentThread();
    if (counter == null) {
      return OptionalLong.empty();
    }
    ChunkBuffer out = new ChunkBuffer(1 << 20);
    encode(encoder, rows, out, blockRows); // warm up, buffers grown
    encode(encoder, rows, out, blockRows);
    long before = counter.getAsLong();
    encode(encoder, rows, out, blockRows);
    return OptionalLong.of(counter.getAsLong() - before);
  }

  private static void encode(RowEncoder<Object[]> e, Object[][] rows, ChunkBuffer out,
      int blockRows) {
    for (int i = 0; i < ROWS; i++) {
      e.encode(rows[i % rows.length], out);
      if (i % blockRows == blockRows - 1) {
        out.truncate(0);
        e.finishChunk(out);
        out.truncate(0);
      }
    }
  }
}
