package dev.handoff.encoders.testsupport;

import static org.assertj.core.api.Assertions.fail;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.value.JsonText;
import dev.handoff.testkit.JsonTexts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seed sweep of a JSON column given as text against the same value given as maps: the encoder
 * reads JSON text flat (no tree, no allocation) where it can and as a tree where it cannot; both
 * must write exactly the bytes the maps (the tree path) give. Random texts: nested objects,
 * arrays (empty, nested, of objects, of mixed kinds), escapes, unicode, numbers of every kind,
 * whitespace, repeated keys and broken text; random JSON types with typed paths (Array, Map,
 * Tuple, Array(JSON) ones too), SKIP, SKIP REGEXP and max_dynamic_paths. Prints the seed and a
 * shrunk text on a mismatch.
 */
public final class JsonTextSweep {
  private JsonTextSweep() {}

  /** The JSON types the sweep picks from. */
  public static final String[] TYPES = {
    "JSON",
    "JSON(max_dynamic_paths=2)",
    "JSON(a.b UInt32, c String)",
    "JSON(a Int64, SKIP b, SKIP REGEXP '^c\\\\.')",
    "JSON(b.c Float64, SKIP a.b, SKIP REGEXP 'x$', max_dynamic_paths=1, max_dynamic_types=2)",
    "JSON(`é` String, SKIP REGEXP '[0-9]')",
    "JSON(a Array(Nullable(Int64)), b Map(String, Nullable(String)), x Tuple(a Int64, b String))",
    "JSON(c Array(JSON), a.b Array(Array(Nullable(String))), max_dynamic_paths=3)",
  };

  /**
   * Runs {@code seeds} seeds from {@code first}: per seed five texts of one random type, encoded
   * as one batch of text rows and as one batch of map rows, compared byte for byte; a text the
   * map path rejects must be rejected as text too.
   */
  public static void run(VariantSweep.Format format, long first, int seeds) {
    for (long seed = first; seed < first + seeds; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      String type = TYPES[r.nextInt(TYPES.length)];
      TableSchema schema = new TableSchema(List.of(new ColumnSpec("j", type)));
      List<String> texts = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
          String text = JsonTexts.object(r);
        if (r.nextInt(20) == 0) {
          text = JsonTexts.mutate(r, text);
        }
        if (mapBytes(format, schema, text) != null) {
          texts.add(text);
        } else if (textBytes(format, schema, List.of(text)) != null) {
          fail("seed %d, %s, %s: the text is read though the maps are rejected: %s", seed,
              format.name(), type, text);
        }
      }
      List<Object[]> maps = new ArrayList<>();
      for (String t : texts) {
        maps.add(new Object[] {JsonText.parse(t)});
      }
      byte[] want = format.encode(schema, maps);
      byte[] got = textBytes(format, schema, texts);
      if (!java.util.Arrays.equals(want, got)) {
        String one = texts.stream().filter(t -> !same(format, schema, t)).findFirst().orElse(null);
        fail("seed %d, %s, %s: text rows differ from map rows (%s); shrunk text: %s", seed,
            format.name(), type, one == null ? "only in a batch: " + texts : "one text alone",
            one == null ? null : shrink(format, schema, one));
      }
    }
  }

  private static byte[] mapBytes(VariantSweep.Format format, TableSchema schema, String text) {
    try {
      Object parsed = JsonText.parse(text);
      if (!(parsed instanceof Map)) {
        return null;
      }
      List<Object[]> rows = new ArrayList<>();
      rows.add(new Object[] {parsed});
      return format.encode(schema, rows);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static byte[] textBytes(VariantSweep.Format format, TableSchema schema,
      List<String> texts) {
    List<Object[]> rows = new ArrayList<>();
    for (String t : texts) {
      rows.add(new Object[] {t});
    }
    try {
      return format.encode(schema, rows);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static boolean same(VariantSweep.Format format, TableSchema schema, String text) {
    return java.util.Arrays.equals(mapBytes(format, schema, text),
        textBytes(format, schema, List.of(text)));
  }

  private static String shrink(VariantSweep.Format format, TableSchema schema, String text) {
    String s = text;
    for (int chunk = Math.max(1, s.length() / 2); chunk >= 1; chunk /= 2) {
      boolean progress = true;
      while (progress) {
        progress = false;
        for (int at = 0; at + chunk <= s.length(); at++) {
          String c = s.substring(0, at) + s.substring(at + chunk);
          if (!same(format, schema, c)) {
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
