package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.clickhouse.NativeTesting.hexOf;
import static dev.handoff.encoders.clickhouse.NativeTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.DelegatingAccessor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/*
 * LowCardinality(String) looks a String value up in a String → entry cache before encoding it
 * and hashing its bytes. A stale or wrong cache answer shows as a wrong key: here every block is
 * decoded by a reader of its own (dictionary and keys back to values) and compared with the rows
 * that were accepted, and its bytes with the block of the same rows given as StringBuilders,
 * which are never cached (the byte lookup alone). Covered: the same String instances across
 * blocks, across rolled-back rows (whose new entries' numbers are then taken by other values),
 * inside arrays, Nullable, strings that encode to the same bytes, and both the Object[] row
 * program and the accessor path.
 */
class NativeLowCardinalityCacheTest {

  private static final List<RowAccessor<Object[]>> ACCESSORS =
      List.of(RowAccessors.objectArray(), new DelegatingAccessor());

  @Test
  void sameInstancesInTheNextBlock_getTheNextBlocksEntries() {
    String a = "alpha";
    String b = "beta";
    for (RowAccessor<Object[]> acc : ACCESSORS) {
      RowEncoder<Object[]> e = encoder(schema("c", "LowCardinality(String)"), acc);
      encode(e, a, b, a);
      assertThat(decode(seal(e))).containsExactly("alpha", "beta", "alpha");
      // b first now: it takes entry 1, which was a's in the block before.
      encode(e, b, "gamma", a, b);
      byte[] second = seal(e);
      assertThat(decode(second)).containsExactly("beta", "gamma", "alpha", "beta");
      assertThat(hexOf(second)).isEqualTo(hexOf(uncached("LowCardinality(String)",
          List.of("beta", "gamma", "alpha", "beta"))));
    }
  }

  @Test
  void aRolledBackRowsEntry_isNotFoundThroughTheCacheAfterItsNumberIsReused() {
    TableSchema s = schema("lc", "LowCardinality(String)", "x", "UInt8");
    String b = "b";
    for (RowAccessor<Object[]> acc : ACCESSORS) {
      RowEncoder<Object[]> e = encoder(s, acc);
      ChunkBuffer unused = new ChunkBuffer(8);
      e.encode(new Object[] {"a", 1}, unused);
      // b becomes entry 2 and is cached, then x fails: entry 2 goes.
      catchThrowableOfType(HandoffException.class, () -> e.encode(new Object[] {b, -1}, unused));
      e.encode(new Object[] {"c", 2}, unused); // entry 2 now
      e.encode(new Object[] {b, 3}, unused); // must be entry 3, not the cached 2
      e.encode(new Object[] {new String("b"), 4}, unused);
      byte[] got = seal(e);
      assertThat(decode(got)).containsExactly("a", "c", "b", "b");
    }
  }

  @Test
  void aFailedElementAfterANewEntry_inTheSameArrayColumn_dropsItFromTheCache() {
    TableSchema s = schema("v", "Array(LowCardinality(String))");
    String x = "x";
    for (RowAccessor<Object[]> acc : ACCESSORS) {
      RowEncoder<Object[]> e = encoder(s, acc);
      ChunkBuffer unused = new ChunkBuffer(8);
      e.encode(new Object[] {List.of("w")}, unused);
      // x is entry 2 until the null after it fails the row.
      catchThrowableOfType(HandoffException.class,
          () -> e.encode(new Object[] {Arrays.asList(x, null)}, unused));
      e.encode(new Object[] {List.of("y", x, "w")}, unused);
      byte[] got = seal(e);
      byte[] expected = NativeTesting.block(s, List.of(new Object[] {List.of("w")},
          new Object[] {List.of("y", "x", "w")}));
      assertThat(hexOf(got)).isEqualTo(hexOf(expected));
    }
  }

  @Test
  void nullsAndDefaults_inNullable_keepTheirSlots() {
    for (RowAccessor<Object[]> acc : ACCESSORS) {
      RowEncoder<Object[]> e = encoder(schema("c", "LowCardinality(Nullable(String))"), acc);
      encode(e, "", null, "q", "", null, "q");
      byte[] got = seal(e);
      assertThat(decode(got)).containsExactly("", null, "q", "", null, "q");
      assertThat(hexOf(got)).isEqualTo(hexOf(uncached("LowCardinality(Nullable(String))",
          Arrays.asList("", null, "q", "", null, "q"))));
    }
  }

  @Test
  void differentStringsWithTheSameBytes_shareOneEntry() {
    // An unpaired surrogate is written as '?': both values are the entry "?".
    List<String> values = List.of("?", "\uD800", "?", "\uD800", "a\uDC00", "a?");
    for (RowAccessor<Object[]> acc : ACCESSORS) {
      RowEncoder<Object[]> e = encoder(schema("c", "LowCardinality(String)"), acc);
      encode(e, values.toArray());
      byte[] got = seal(e);
      assertThat(decode(got)).containsExactly("?", "?", "?", "?", "a?", "a?");
      assertThat(hexOf(got)).isEqualTo(hexOf(uncached("LowCardinality(String)", values)));
    }
  }

  /**
   * Random rows from a small pool, given as the pool's instances, copies or StringBuilders, with
   * long and non-ASCII values, failing rows and blocks sealed at random: every block decodes to
   * the accepted rows and equals the uncached block of them, on both paths.
   */
  @Test
  void randomBlocks_decodeToTheAcceptedRows_andEqualTheUncachedBlocks() {
    String[] pool = new String[300]; // more than 255: some blocks have UInt16 keys
    for (int i = 0; i < pool.length; i++) {
      pool[i] = i % 37 == 0 ? "long-" + "x".repeat(120 + i % 20)
          : i % 11 == 0 ? "\u00e9t\u00e9-" + i : "v" + i;
    }
    TableSchema s = schema("lc", "LowCardinality(String)", "x", "UInt8",
        "n", "LowCardinality(Nullable(String))");
    for (RowAccessor<Object[]> acc : ACCESSORS) {
      SplittableRandom r = new SplittableRandom(29);
      RowEncoder<Object[]> e = encoder(s, acc);
      List<Object[]> accepted = new ArrayList<>();
      int blocks = 0;
      for (int i = 0; i < 20_000; i++) {
        int hot = r.nextInt(4) == 0 ? pool.length : 20; // mostly a few values, sometimes any
        Object lc = variant(pool[r.nextInt(hot)], r);
        Object n = r.nextInt(5) == 0 ? null : variant(pool[r.nextInt(hot)], r);
        int x = r.nextInt(10) == 0 ? 256 : r.nextInt(256); // 256 fails the row after lc
        Object[] row = {lc, x, n};
        try {
          e.encode(row, new ChunkBuffer(1));
          accepted.add(row);
        } catch (HandoffException ex) {
          assertThat(x).isEqualTo(256);
        }
        if (r.nextInt(400) == 0 || i == 19_999) {
          byte[] got = seal(e);
          List<Object> lcs = new ArrayList<>();
          for (Object[] a : accepted) {
            lcs.add(a[0].toString());
          }
          assertThat(decode(got)).as("block %d", blocks).isEqualTo(lcs);
          assertThat(hexOf(got)).as("block %d", blocks).isEqualTo(hexOf(uncachedRows(s,
              accepted)));
          accepted.clear();
          blocks++;
        }
      }
      assertThat(blocks).isGreaterThan(30);
    }
  }

  /** The pool's instance, a copy of it, or a StringBuilder of it. */
  private static Object variant(String v, SplittableRandom r) {
    switch (r.nextInt(3)) {
      case 0: return v;
      case 1: return new String(v.toCharArray());
      default: return new StringBuilder(v);
    }
  }

  private static RowEncoder<Object[]> encoder(TableSchema s, RowAccessor<Object[]> acc) {
    return new NativeEncoderProvider().create(s, acc, Map.of());
  }

  private static void encode(RowEncoder<Object[]> e, Object... values) {
    for (Object v : values) {
      e.encode(new Object[] {v}, new ChunkBuffer(1));
    }
  }

  private static byte[] seal(RowEncoder<Object[]> e) {
    int buffered = e.bufferedBytes();
    byte[] b = NativeTesting.finish(e);
    assertThat(b).hasSize(buffered);
    return b;
  }

  /** The block of one column {@code c} of these values, each given as a StringBuilder. */
  private static byte[] uncached(String type, List<String> values) {
    List<Object[]> rows = new ArrayList<>();
    for (String v : values) {
      rows.add(new Object[] {v});
    }
    return uncachedRows(schema("c", type), rows);
  }

  /** The block of these rows with every CharSequence given as a new StringBuilder. */
  private static byte[] uncachedRows(TableSchema s, List<Object[]> rows) {
    List<Object[]> copies = new ArrayList<>();
    for (Object[] row : rows) {
      Object[] c = row.clone();
      for (int i = 0; i < c.length; i++) {
        if (c[i] instanceof CharSequence t) {
          c[i] = new StringBuilder(t);
        }
      }
      copies.add(c);
    }
    return NativeTesting.block(s, copies);
  }

  /**
   * Decodes the first column of a block, a top-level {@code LowCardinality(String)} or {@code
   * LowCardinality(Nullable(String))}: its values, null for key 0 of a Nullable. Checks on the
   * way that the dictionary holds no value twice (besides a Nullable's NULL slot).
   */
  static List<String> decode(byte[] block) {
    ByteBuffer b = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
    readVarUInt(b); // columns
    int rows = (int) readVarUInt(b);
    readString(b); // name
    String type = readString(b);
    boolean nullable = type.startsWith("LowCardinality(Nullable(");
    assertThat(b.getLong()).as("version").isEqualTo(1);
    long flags = b.getLong();
    assertThat(flags & ~0xFFL).isEqualTo(0x600);
    int width = 1 << (int) (flags & 0xFF);
    int entries = (int) b.getLong();
    List<String> dict = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      dict.add(readString(b));
    }
    List<String> distinct = dict.subList(nullable ? 1 : 0, entries);
    assertThat(distinct).doesNotHaveDuplicates();
    assertThat(width).isEqualTo(entries <= 0xFF ? 1 : entries <= 0xFFFF ? 2 : 4);
    assertThat(b.getLong()).as("keys").isEqualTo(rows);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      int key = width == 1 ? b.get() & 0xFF : width == 2 ? b.getShort() & 0xFFFF : b.getInt();
      values.add(nullable && key == 0 ? null : dict.get(key));
    }
    return values;
  }

  private static long readVarUInt(ByteBuffer b) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      int x = b.get() & 0xFF;
      v |= (long) (x & 0x7F) << shift;
      if (x < 0x80) {
        return v;
      }
    }
  }

  private static String readString(ByteBuffer b) {
    byte[] s = new byte[(int) readVarUInt(b)];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
