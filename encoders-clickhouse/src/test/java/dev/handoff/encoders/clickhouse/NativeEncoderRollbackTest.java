package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.clickhouse.NativeTesting.block;
import static dev.handoff.encoders.clickhouse.NativeTesting.encoder;
import static dev.handoff.encoders.clickhouse.NativeTesting.finish;
import static dev.handoff.encoders.clickhouse.NativeTesting.hexOf;
import static dev.handoff.encoders.clickhouse.NativeTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/*
 * Per-row atomicity, bufferedBytes and block reuse. A row that fails in column k leaves no trace:
 * the block equals the block of the good rows alone, also when the failure is deep inside an
 * array, in a map value after its key, or in a LowCardinality column after the row added
 * dictionary entries. bufferedBytes always equals what finishChunk writes.
 */
class NativeEncoderRollbackTest {

  private static final TableSchema WIDE = schema(
      "i", "Int32",
      "s", "String",
      "n", "Nullable(UInt8)",
      "a", "Array(Array(Int16))",
      "t", "Tuple(FixedString(2), Nullable(String))",
      "m", "Map(String, Int64)",
      "lc", "LowCardinality(String)",
      "lcn", "LowCardinality(Nullable(String))",
      "alc", "Array(LowCardinality(String))");

  private static Object[] good(int k) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int j = 0; j < k % 3; j++) {
      m.put("k" + j + "_" + k, (long) j * k);
    }
    return new Object[] {k, "s" + k, k % 4 == 0 ? null : k % 200,
        List.of(List.of(k % 100), List.of()),
        Arrays.asList("x" + (k % 10), k % 2 == 0 ? null : "y"),
        m, "lc" + (k % 7), k % 5 == 0 ? null : "n" + (k % 3),
        List.of("e" + k, "e" + (k % 2))};
  }

  /** Returns a copy of {@code row} with a bad value somewhere inside column {@code col}. */
  private static Object[] bad(Object[] row, int col) {
    Object[] r = row.clone();
    switch (col) {
      case 0: r[0] = "not a number"; break;
      case 1: r[1] = List.of(1); break;
      case 2: r[2] = 300; break;
      case 3: r[3] = List.of(List.of(1, 2), List.of(3, 70000)); break; // 4th element too big
      case 4: r[4] = Arrays.asList("abc", "fine"); break; // FixedString(2) too long
      case 5: {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ok", 1L);
        m.put("bad", "x"); // the key is appended, then the value fails
        r[5] = m;
        break;
      }
      case 6: r[6] = List.of("x"); break;
      case 7: r[7] = Map.of(); break;
      default: r[8] = Arrays.asList("new1_" + row[0], "new2_" + row[0], null); break;
    }
    return r;
  }

  @Test
  void aBadValueInAnyColumnLeavesTheBlockOfTheGoodRows() {
    for (int col = 0; col < WIDE.size(); col++) {
      RowEncoder<Object[]> e = encoder(WIDE);
      List<Object[]> goods = new ArrayList<>();
      ChunkBuffer unused = new ChunkBuffer(16);
      for (int k = 0; k < 20; k++) {
        Object[] g = good(k);
        if (k % 3 == 1) {
          Object[] b = bad(g, col);
          HandoffException x = catchThrowableOfType(HandoffException.class,
              () -> e.encode(b, unused));
          assertThat(x).as("column %d row %d", col, k).isNotNull();
          assertThat(x.errorClass()).isEqualTo(ErrorClass.DATA);
          assertThat(x.getMessage()).contains(WIDE.column(col).name());
        }
        e.encode(g, unused);
        goods.add(g);
        assertThat(e.bufferedBytes()).isEqualTo(block(WIDE, goods).length);
      }
      assertThat(hexOf(finish(e))).as("column %d", col).isEqualTo(hexOf(block(WIDE, goods)));
      assertThat(unused.length()).isZero();
    }
  }

  /**
   * Top-level String columns keep no value offsets and find the rollback point by reading the
   * lengths: values of one- and two-byte lengths, non-ASCII text, several rollbacks per block,
   * failures before and after a String column, and blocks after blocks.
   */
  @Test
  void topLevelStringsRollBackAcrossLongValuesAndBlocks() {
    TableSchema s = schema("a", "String", "i", "Int32", "b", "String", "c", "String");
    SplittableRandom r = new SplittableRandom(19);
    RowEncoder<Object[]> e = encoder(s);
    ChunkBuffer unused = new ChunkBuffer(8);
    for (int blockNo = 0; blockNo < 4; blockNo++) {
      List<Object[]> goods = new ArrayList<>();
      for (int k = 0; k < 300; k++) {
        Object[] g = {text(r), r.nextInt(), text(r), text(r)};
        if (r.nextInt(4) == 0) {
          Object[] b = g.clone();
          switch (r.nextInt(3)) {
            case 0: b[1] = "x"; break; // after a
            case 1: b[3] = List.of(1); break; // after a and b
            default: b[0] = List.of(2); break; // the first column
          }
          catchThrowableOfType(HandoffException.class, () -> e.encode(b, unused));
          assertThat(e.bufferedBytes()).isEqualTo(goods.isEmpty() ? 0 : block(s, goods).length);
        }
        e.encode(g, unused);
        goods.add(g);
      }
      assertThat(e.bufferedBytes()).isEqualTo(block(s, goods).length);
      assertThat(hexOf(finish(e))).as("block %d", blockNo).isEqualTo(hexOf(block(s, goods)));
    }
  }

  /** Up to 300 chars, ASCII or with a 2-byte letter, so lengths take one or two bytes. */
  private static String text(SplittableRandom r) {
    int n = r.nextInt(4) == 0 ? 100 + r.nextInt(200) : r.nextInt(20);
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(r.nextInt(50) == 0 ? '\u00e9' : (char) ('a' + r.nextInt(26)));
    }
    return b.toString();
  }

  @Test
  void aFailedFirstRowLeavesNothing() {
    RowEncoder<Object[]> e = encoder(WIDE);
    catchThrowableOfType(HandoffException.class,
        () -> e.encode(bad(good(3), 8), new ChunkBuffer(8)));
    assertThat(e.bufferedBytes()).isZero();
    assertThat(finish(e)).isEmpty();
    e.encode(good(1), new ChunkBuffer(8));
    assertThat(hexOf(finish(e))).isEqualTo(hexOf(block(WIDE, List.<Object[]>of(good(1)))));
  }

  @Test
  void lowCardinalityRollbackRemovesTheRowsNewEntriesOnly() {
    TableSchema s = schema("lc", "LowCardinality(String)", "x", "UInt8");
    RowEncoder<Object[]> e = encoder(s);
    ChunkBuffer unused = new ChunkBuffer(8);
    e.encode(new Object[] {"a", 1}, unused);
    // "b" becomes entry 2, then x fails: "b" must go, "a" must stay.
    catchThrowableOfType(HandoffException.class, () -> e.encode(new Object[] {"b", -1}, unused));
    e.encode(new Object[] {"a", 2}, unused);
    e.encode(new Object[] {"c", 3}, unused); // takes entry 2, where "b" was
    e.encode(new Object[] {"b", 4}, unused); // found again only if really inserted again
    byte[] got = finish(e);
    assertThat(hexOf(got)).isEqualTo(hexOf(block(s, List.of(new Object[] {"a", 1},
        new Object[] {"a", 2}, new Object[] {"c", 3}, new Object[] {"b", 4}))));
  }

  @Test
  void nonHandoffExceptionsBecomeDataErrorsAndRollBack() {
    TableSchema s = schema("i", "Int32", "s", "String");
    RowAccessor<Object[]> lying = new RowAccessor<>() {
      @Override
      public ValueKind kind(Object[] row, int field) {
        return row[field] instanceof String ? ValueKind.TEXT : ValueKind.LONG;
      }

      @Override
      public Object getObject(Object[] row, int field) {
        return row[field];
      }

      @Override
      public CharSequence getText(Object[] row, int field) {
        if ("boom".equals(row[field])) {
          throw new IllegalStateException("adapter broke");
        }
        return (CharSequence) row[field];
      }
    };
    RowEncoder<Object[]> e = new NativeEncoderProvider().create(s, lying, Map.of());
    ChunkBuffer unused = new ChunkBuffer(8);
    e.encode(new Object[] {1, "a"}, unused);
    HandoffException x = catchThrowableOfType(HandoffException.class,
        () -> e.encode(new Object[] {2, "boom"}, unused));
    assertThat(x.errorClass()).isEqualTo(ErrorClass.DATA);
    assertThat(x.getMessage()).contains("\"s\"");
    assertThat(x.getCause()).isInstanceOf(IllegalStateException.class);
    assertThat(hexOf(finish(e))).isEqualTo(hexOf(block(s, List.<Object[]>of(new Object[] {1,
        "a"}))));
  }

  @Test
  void bufferedBytesEqualsTheBlockForRandomRows() {
    SplittableRandom rnd = new SplittableRandom(42);
    RowEncoder<Object[]> e = encoder(WIDE);
    ChunkBuffer out = new ChunkBuffer(64);
    for (int block = 0; block < 5; block++) {
      assertThat(e.bufferedBytes()).isZero();
      int n = rnd.nextInt(1, 400);
      for (int r = 0; r < n; r++) {
        Object[] row = good(rnd.nextInt(100_000));
        if (rnd.nextInt(10) == 0) {
          Object[] b = bad(row, rnd.nextInt(WIDE.size()));
          catchThrowableOfType(HandoffException.class, () -> e.encode(b, out));
        }
        e.encode(row, out);
      }
      int expected = e.bufferedBytes();
      int before = out.length();
      e.finishChunk(out);
      assertThat(out.length() - before).isEqualTo(expected);
    }
    assertThat(out.length()).isPositive();
  }

  @Test
  void finishChunkResetsAndBlocksRepeat() {
    RowEncoder<Object[]> e = encoder(WIDE);
    ChunkBuffer unused = new ChunkBuffer(8);
    byte[] first = null;
    for (int b = 0; b < 3; b++) {
      for (int k = 0; k < 50; k++) {
        e.encode(good(k), unused);
      }
      byte[] got = finish(e);
      if (first == null) {
        first = got;
      }
      assertThat(got).isEqualTo(first);
      assertThat(e.bufferedBytes()).isZero();
      assertThat(finish(e)).isEmpty();
    }
  }

  @Test
  void twoBlocksBackToBackInOneBuffer() {
    TableSchema s = schema("x", "UInt8");
    RowEncoder<Object[]> e = encoder(s);
    ChunkBuffer out = new ChunkBuffer(8);
    e.encode(new Object[] {1}, out);
    e.finishChunk(out);
    e.encode(new Object[] {2}, out);
    e.encode(new Object[] {3}, out);
    e.finishChunk(out);
    assertThat(hexOf(out.toByteArray())).isEqualTo(
        "01 01 01 78 05 55 49 6e 74 38 01 01 02 01 78 05 55 49 6e 74 38 02 03");
  }

  @Test
  void newInstanceHoldsItsOwnRows() {
    TableSchema s = schema("x", "UInt8");
    RowEncoder<Object[]> a = encoder(s);
    a.encode(new Object[] {1}, new ChunkBuffer(8));
    RowEncoder<Object[]> b = a.newInstance();
    assertThat(b.bufferedBytes()).isZero();
    b.encode(new Object[] {2}, new ChunkBuffer(8));
    assertThat(finish(a)).isEqualTo(block(s, List.<Object[]>of(new Object[] {1})));
    assertThat(finish(b)).isEqualTo(block(s, List.<Object[]>of(new Object[] {2})));
  }
}
