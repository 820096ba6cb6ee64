package dev.handoff.encoders.clickhouse;

import static org.assertj.core.api.Assertions.fail;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.value.TypedValue;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.VariantSweep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Rollback in Variant, Dynamic and JSON columns: per seed, random good rows ({@link VariantSweep})
 * with bad rows between them, each failing in one column after part of its value was appended
 * (the third element of an array, a map entry after a good one, a JSON value after new paths were
 * added, a typed path out of range). The block must equal, byte for byte and in {@code
 * bufferedBytes()}, the block of the good rows alone. 600 seeds; a failure prints the seed and
 * the shrunk case (the fewest rows that still differ, found by dropping rows one at a time).
 */
final class NativeVariantDynamicJsonRollbackTest {
  private static final int SEEDS = Integer.getInteger("handoff.rollback.seeds", 600);
  /** The bad rows made by {@link #bad}, by identity: each must fail, every other row pass. */
  private static final java.util.Set<Object[]> BAD =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  @Test
  void aFailedRow_leavesTheGoodRowsBlock() {
    long base = Long.getLong("handoff.rollback.seed", 7_000L);
    System.out.println("NativeVariantDynamicJsonRollbackTest: seeds " + base + ".."
        + (base + SEEDS - 1));
    TableSchema schema = VariantSweep.schema();
    for (long seed = base; seed < base + SEEDS; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      List<Object[]> good = VariantSweep.rows(seed, random.nextInt(1, 25));
      List<Object[]> all = new ArrayList<>();
      for (Object[] row : good) {
        while (random.nextInt(3) == 0) {
          all.add(bad(random, good.get(random.nextInt(good.size()))));
        }
        all.add(row);
      }
      String problem = differs(schema, all);
      if (problem != null) {
        List<Object[]> shrunk = shrink(schema, all);
        fail("seed " + seed + ": " + problem + "\n  shrunk case: " + show(shrunk));
      }
    }
  }

  /** A copy of {@code row} with one column's value replaced by one that fails part-way. */
  static Object[] bad(SplittableRandom random, Object[] row) {
    Object[] r = row.clone();
    int c = random.nextInt(r.length);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("k1", 1L);
    json.put("fresh" + random.nextInt(3), "x");
    json.put("zz", TypedValue.of("UInt8", 300)); // out of range, after two paths
    switch (c) {
      case 0: r[c] = TypedValue.of("Array(UInt8)", List.of(1, 2, 256)); break;
      case 1: r[c] = Arrays.asList(1, "a", 2.5); break;
      case 2: case 3: r[c] = TypedValue.of("Array(UInt8)", List.of(7, -1)); break;
      case 4: r[c] = Map.of("a", 1L, "b", new Object()); break;
      case 5: r[c] = Arrays.asList(1, 2L, json); break;
      case 7: r[c] = Map.of("k2", "y", "a", Map.of("b", -1L)); break;
      case 8: r[c] = Arrays.asList(Map.of("a", 1L), "[not an object]"); break;
      case 9: r[c] = "{\"a\": 1, \"b\": "; break;
      default: r[c] = json;
    }
    BAD.add(r);
    return r;
  }

  /** Returns why the block of {@code rows} differs from the good rows' block, or null. */
  static String differs(TableSchema schema, List<Object[]> rows) {
    RowEncoder<Object[]> withBad = encoder(schema);
    RowEncoder<Object[]> goodOnly = encoder(schema);
    for (Object[] row : rows) {
      boolean ok;
      try {
        withBad.encode(row, new ChunkBuffer(8));
        ok = true;
      } catch (HandoffException e) {
        if (e.errorClass() != ErrorClass.DATA) {
          return "not a DATA error: " + e;
        }
        ok = false;
        if (!BAD.contains(row)) {
          return "a good row failed: " + e.getMessage();
        }
      }
      if (ok && BAD.contains(row)) {
        return "a bad row was accepted: " + Arrays.deepToString(row);
      }
      if (ok) {
        goodOnly.encode(row, new ChunkBuffer(8));
      }
    }
    int sizeA = withBad.bufferedBytes();
    int sizeB = goodOnly.bufferedBytes();
    ChunkBuffer a = new ChunkBuffer(64);
    ChunkBuffer b = new ChunkBuffer(64);
    withBad.finishChunk(a);
    goodOnly.finishChunk(b);
    if (sizeA != a.length()) {
      return "bufferedBytes() " + sizeA + " but the block has " + a.length() + " bytes";
    }
    if (!Arrays.equals(a.toByteArray(), b.toByteArray()) || sizeA != sizeB) {
      return "the block differs from the good rows' block:\n  " + HexFormat.of().formatHex(
          a.toByteArray()) + "\n  " + HexFormat.of().formatHex(b.toByteArray());
    }
    return null;
  }

  private static List<Object[]> shrink(TableSchema schema, List<Object[]> rows) {
    List<Object[]> current = new ArrayList<>(rows);
    for (int i = current.size() - 1; i >= 0; i--) {
      List<Object[]> fewer = new ArrayList<>(current);
      fewer.remove(i);
      if (differs(schema, fewer) != null) {
        current = fewer;
      }
    }
    return current;
  }

  private static String show(List<Object[]> rows) {
    StringBuilder sb = new StringBuilder();
    for (Object[] r : rows) {
      sb.append("\n    ").append(Arrays.deepToString(r));
    }
    return sb.toString();
  }

  private static RowEncoder<Object[]> encoder(TableSchema schema) {
    return new NativeEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
  }
}
