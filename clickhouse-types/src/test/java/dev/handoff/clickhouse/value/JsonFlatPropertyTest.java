package dev.handoff.clickhouse.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.testkit.JsonTexts;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seed sweep: {@link JsonFlat} (JSON text read flat, as {@link JsonPaths} does first) gives the
 * same leaves as the tree path ({@link JsonText} into maps, walked) on random JSON texts and
 * random JSON types, or says no; and it says no whenever the tree path rejects the text. Values
 * are compared deeply: arrays (nested, of objects, empty, of mixed kinds) element by element, and
 * each object of an array flattened as the JSON value it is written as, both ways. Prints the
 * seed and a shrunk text on a mismatch.
 */
final class JsonFlatPropertyTest {
  private static final int SEEDS = 20_000;
  private static final RowAccessor<Object> VALUES = RowAccessors.values();
  private static final String[] TYPES = {
    "JSON",
    "JSON(max_dynamic_paths=2)",
    "JSON(a.b UInt32, c String)",
    "JSON(a Int64, SKIP b, SKIP REGEXP '^c\\\\.')",
    "JSON(b.c Float64, SKIP a.b, SKIP REGEXP 'x$', max_dynamic_paths=1, max_dynamic_types=2)",
    "JSON(`é` String, SKIP REGEXP '[0-9]')",
    "JSON(a Array(Nullable(Int64)), b Map(String, Nullable(String)), x Tuple(a Int64, b String))",
    "JSON(c Array(JSON), a.b Array(Array(Nullable(String))), max_dynamic_paths=3)",
  };

  @Test
  void flatReadEqualsTreeRead() {
    ClickHouseType[] types = new ClickHouseType[TYPES.length];
    JsonFlat[] flats = new JsonFlat[TYPES.length];
    for (int i = 0; i < TYPES.length; i++) {
      types[i] = ClickHouseType.parse(TYPES[i]);
      flats[i] = new JsonFlat(types[i].names(), types[i].skipPaths(), types[i].skipRegexps());
    }
    int flat = 0;
    int rejected = 0;
    int withArrays = 0;
    int treeOnly = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int t = r.nextInt(types.length);
      String text = JsonTexts.object(r);
      if (r.nextInt(20) == 0) {
        text = JsonTexts.mutate(r, text);
      }
      String why = mismatch(types[t], flats[t], text);
      if (why != null) {
        String small = shrink(types[t], flats[t], text);
        fail("seed %d, type %s: %s%nshrunk text: %s%n%s", seed, TYPES[t], why, small,
            mismatch(types[t], flats[t], small));
      }
      if (flats[t].read(text)) {
        flat++;
        if (text.indexOf('[') >= 0) {
          withArrays++;
        }
      } else {
        rejected++;
        if (treeReads(types[t], text)) {
          treeOnly++;
        }
      }
    }
    System.out.printf("JsonFlatPropertyTest: %d seeds, %d read flat (%d with arrays), %d left to"
        + " the tree path, %d of them valid%n", SEEDS, flat, withArrays, rejected, treeOnly);
    // Many random texts hold a repeated key somewhere (the tree path's); most others read flat.
    assertThat(flat).as("texts read flat (%d left to the tree path)", rejected)
        .isGreaterThan(SEEDS / 3);
    assertThat(withArrays).as("texts with arrays read flat").isGreaterThan(SEEDS / 10);
  }

  /** Texts read flat with the tree path's values: each shape the flat reader takes on. */
  @Test
  void shapesReadFlat() {
    String[] texts = {
      "{\"f\":0.9431263259714648661,\"g\":-0.9999999999999999999}", // 19 digits: no overflow
      "{\"a\":[1,2,null],\"b\":[],\"c\":[[1],[2,[3]]],\"d\":[1,\"x\",true,null,2.5]}",
      "{\"o\":[{\"k\":1,\"n\":{\"m\":[{\"z\":null}]}},{}],\"e\":[{}]}",
      "{\"big\":123456789012345678901234567890,\"u\":[18446744073709551615,-1]}",
      "{\"x\":{\"a\":1,\"b\":\"s\"},\"b\":{\"k\":\"v\",\"n\":null}}",
      "{\"a\":[{\"p.q\":1,\"p\":{\"r\":2}}]}",
    };
    ClickHouseType type = ClickHouseType.parse(TYPES[6]);
    StringBuilder many = new StringBuilder("{\"n\":[");
    for (int i = 0; i < 40; i++) {
      many.append(i % 3 == 0 ? "1" : "null").append(',');
    }
    many.append("null]");
    for (int i = 0; i < 40; i++) {
      many.append(",\"k").append(i).append("\":").append(i % 2 == 0 ? "null" : "[null]");
    }
    String grows = many.append('}').toString(); // the slot arrays grow while reading nulls
    for (String text : concat(texts, grows)) {
      JsonFlat flat = new JsonFlat(type.names(), type.skipPaths(), type.skipRegexps());
      assertThat(flat.read(text)).as(text).isTrue();
      assertThat(mismatch(type, flat, text)).as(text).isNull();
    }
    JsonFlat flat = new JsonFlat(type.names(), type.skipPaths(), type.skipRegexps());
    // An object of an array that has a path twice is read flat; writing it is the tree's error.
    assertThat(flat.read("{\"a\":[{\"p.q\":1,\"p\":{\"q\":2}}]}")).isTrue();
    assertThat(flat.read("{\"a\":[{\"k\":1,\"k\":2}]}")).as("a repeated field").isFalse();
  }

  private static String[] concat(String[] a, String b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = b;
    return out;
  }

  /** Whether the tree path reads {@code text} as a value of {@code type}. */
  static boolean treeReads(ClickHouseType type, String text) {
    try {
      new JsonPaths(type).read(VALUES, new Object[] {JsonText.parse(text)}, 0, "j");
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Returns why the flat read differs from the tree read of {@code text}, or null. */
  static String mismatch(ClickHouseType type, JsonFlat flat, String text) {
    JsonPaths tree = new JsonPaths(type);
    Object parsed;
    try {
      parsed = JsonText.parse(text);
      tree.read(VALUES, new Object[] {parsed}, 0, "j");
    } catch (RuntimeException e) {
      return flat.read(text) ? "flat read a text the tree rejects: " + e.getMessage() : null;
    }
    if (!(parsed instanceof java.util.Map)) {
      return flat.read(text) ? "flat read a text that is not an object" : null;
    }
    if (!flat.read(text)) {
      return null; // left to the tree path
    }
    if (flat.size() != tree.size()) {
      return "flat has " + flat.size() + " leaves, tree " + tree.size();
    }
    for (int i = 0; i < flat.size(); i++) {
      String fp = flat.name(i).toString();
      if (!fp.equals(flat.nameString(i)) || !fp.equals(tree.path(i))) {
        return "leaf " + i + ": path '" + fp + "', tree '" + tree.path(i) + "'";
      }
      if (flat.typed(i) != tree.typed(i)) {
        return "leaf " + i + " (" + fp + "): typed " + flat.typed(i) + ", tree " + tree.typed(i);
      }
      String why = same(type, JsonFlat.LEAVES, flat.source(), flat.slot(i), tree.accessor(i),
          tree.container(i), tree.field(i), 0);
      if (why != null) {
        return "leaf " + i + " (" + fp + "): " + why;
      }
    }
    return null;
  }

  /**
   * Returns why value {@code ff} of {@code fc} (read flat) differs from value {@code tf} of
   * {@code tc} (the tree's), or null: same kind, same value, arrays element by element, objects
   * member by member and, flattened as a JSON value of an array of objects is, path by path.
   */
  static String same(ClickHouseType type, RowAccessor<Object> fa, Object fc, int ff,
      RowAccessor<Object> ta, Object tc, int tf, int depth) {
    ValueKind fk = fa.kind(fc, ff);
    ValueKind tk = ta.kind(tc, tf);
    if (fk != tk) {
      return "kind " + fk + ", tree " + tk;
    }
    switch (fk) {
      case SEQUENCE:
      case MAP: {
        Object fn = fa.getObject(fc, ff);
        Object tn = ta.getObject(tc, tf);
        RowAccessor<Object> fna = fa.nested(fc, ff);
        RowAccessor<Object> tna = ta.nested(tc, tf);
        if (fna.size(fn) != tna.size(tn)) {
          return "size " + fna.size(fn) + ", tree " + tna.size(tn) + " in " + fn;
        }
        for (int k = 0; k < fna.size(fn); k++) {
          String why = same(type, fna, fn, k, tna, tn, k, depth + 1);
          if (why != null) {
            return "[" + k + "] " + why;
          }
        }
        return fk == ValueKind.MAP ? flattened(type, fa, fc, ff, ta, tc, tf, depth) : null;
      }
      case TEXT:
        return fa.getText(fc, ff).toString().equals(ta.getText(tc, tf).toString()) ? null
            : "text " + fa.getText(fc, ff) + ", tree " + ta.getText(tc, tf);
      case BIG_INTEGER:
        return fa.getBigInteger(fc, ff).equals(ta.getBigInteger(tc, tf)) ? null
            : "value " + fa.getBigInteger(fc, ff) + ", tree " + ta.getBigInteger(tc, tf);
      case NULL:
        return null;
      default: {
        Object fv = fa.getObject(fc, ff);
        Object tv = ta.getObject(tc, tf);
        long fb = fk == ValueKind.DOUBLE ? Double.doubleToRawLongBits(fa.getDouble(fc, ff))
            : fk == ValueKind.LONG ? fa.getLong(fc, ff) : fa.getBoolean(fc, ff) ? 1 : 0;
        long tb = fk == ValueKind.DOUBLE ? Double.doubleToRawLongBits(ta.getDouble(tc, tf))
            : fk == ValueKind.LONG ? ta.getLong(tc, tf) : ta.getBoolean(tc, tf) ? 1 : 0;
        return fv.equals(tv) && fb == tb ? null : "value " + fv + ", tree " + tv;
      }
    }
  }

  /** Compares an object's paths as a JSON value of an array of objects reads them, both ways. */
  private static String flattened(ClickHouseType type, RowAccessor<Object> fa, Object fc, int ff,
      RowAccessor<Object> ta, Object tc, int tf, int depth) {
    if (depth > 6) {
      return null;
    }
    ClickHouseType nested = DynamicValues.nestedJson(type);
    JsonPaths fp = new JsonPaths(nested);
    JsonPaths tp = new JsonPaths(nested);
    String fe = null;
    String te = null;
    try {
      fp.read(fa, fc, ff, "j");
    } catch (RuntimeException e) {
      fe = e.getMessage();
    }
    try {
      tp.read(ta, tc, tf, "j");
    } catch (RuntimeException e) {
      te = e.getMessage();
    }
    if (fe != null || te != null) {
      return (fe == null) == (te == null) ? null : "flattened: error " + fe + ", tree " + te;
    }
    if (fp.size() != tp.size()) {
      return "flattened: " + fp.size() + " paths, tree " + tp.size();
    }
    for (int i = 0; i < fp.size(); i++) {
      if (!fp.path(i).equals(tp.path(i)) || !fp.pathText(i).toString().equals(tp.path(i))) {
        return "flattened path " + i + ": '" + fp.path(i) + "', tree '" + tp.path(i) + "'";
      }
      String why = same(nested, fp.accessor(i), fp.container(i), fp.field(i), tp.accessor(i),
          tp.container(i), tp.field(i), depth + 1);
      if (why != null) {
        return "flattened path " + fp.path(i) + ": " + why;
      }
    }
    return null;
  }

  /** Deletes chunks of {@code text} while it still mismatches. */
  static String shrink(ClickHouseType type, JsonFlat flat, String text) {
    String s = text;
    for (int chunk = Math.max(1, s.length() / 2); chunk >= 1; chunk /= 2) {
      boolean progress = true;
      while (progress) {
        progress = false;
        for (int at = 0; at + chunk <= s.length(); at++) {
          String c = s.substring(0, at) + s.substring(at + chunk);
          if (mismatch(type, flat, c) != null) {
            s = c;
            progress = true;
            break;
          }
        }
      }
    }
    return s;
  }
}
