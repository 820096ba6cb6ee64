package dev.handoff.encoders.testsupport;

import static org.assertj.core.api.Assertions.fail;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.value.JsonText;
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
  private static final String[] KEYS = {"a", "b", "c", "x", "a.b", "b.c", "é", "", "1", "\\u0061",
    "k\\\"q", "\\n", "日本"};

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
        StringBuilder sb = new StringBuilder();
        object(r, sb, 0);
        String text = sb.toString();
        if (r.nextInt(20) == 0) {
          text = mutate(r, text);
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

  /** Inserts a fault into {@code text} (cut, stray backslash, comma, word). */
  public static String mutate(SplittableRandom r, String text) {
    int at = r.nextInt(text.length() + 1);
    switch (r.nextInt(4)) {
      case 0: return text.substring(0, at);
      case 1: return text.substring(0, at) + "\\" + text.substring(at);
      case 2: return text.substring(0, at) + ",}" + text.substring(at);
      default: return text.substring(0, at) + " x " + text.substring(at);
    }
  }

  private static void ws(SplittableRandom r, StringBuilder sb) {
    if (r.nextInt(4) == 0) {
      sb.append(" \t\n\r".charAt(r.nextInt(4)));
    }
  }

  /** Appends a random JSON object of nesting {@code depth} and below. */
  public static void object(SplittableRandom r, StringBuilder sb, int depth) {
    sb.append('{');
    ws(r, sb);
    int n = r.nextInt(depth == 0 ? 6 : 4);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
        ws(r, sb);
      }
      sb.append('"').append(KEYS[r.nextInt(KEYS.length)]);
      if (r.nextInt(3) == 0) {
        sb.append(r.nextInt(10));
      }
      sb.append('"');
      ws(r, sb);
      sb.append(':');
      ws(r, sb);
      value(r, sb, depth + 1);
      ws(r, sb);
    }
    sb.append('}');
  }

  private static void value(SplittableRandom r, StringBuilder sb, int depth) {
    int k = r.nextInt(depth > 4 ? 8 : 11);
    switch (k) {
      case 0: sb.append("null"); break;
      case 1: sb.append(r.nextBoolean()); break;
      case 2: sb.append(r.nextLong(-1000, 1000)); break;
      case 3: sb.append(r.nextLong()); break;
      case 4: number(r, sb); break;
      case 5: case 6: string(r, sb); break;
      case 7: sb.append(r.nextBoolean() ? "\"\"" : r.nextBoolean() ? "-0" : "0.0"); break;
      case 8: case 9: object(r, sb, depth); break;
      default: array(r, sb, depth); break;
    }
  }

  /**
   * Appends an array: of mixed values, of objects (as an array of objects is stored: Array(JSON)),
   * of integers with nulls, of strings, of floats and integers, of arrays; often empty.
   */
  private static void array(SplittableRandom r, StringBuilder sb, int depth) {
    sb.append('[');
    ws(r, sb);
    int n = r.nextInt(5);
    int shape = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(',');
        ws(r, sb);
      }
      switch (depth > 5 && shape >= 4 ? 0 : shape) {
        case 0: value(r, sb, depth + 1); break;
        case 1: object(r, sb, depth + 1); break;
        case 2: sb.append(r.nextInt(4) == 0 ? "null" : Long.toString(r.nextLong(-50, 50))); break;
        case 3: string(r, sb); break;
        case 4: if (r.nextBoolean()) { number(r, sb); } else { sb.append(r.nextInt(9)); } break;
        default: array(r, sb, depth + 1); break;
      }
    }
    ws(r, sb);
    sb.append(']');
  }

  private static void number(SplittableRandom r, StringBuilder sb) {
    switch (r.nextInt(10)) {
      case 0: sb.append(r.nextDouble() * Math.pow(10, r.nextInt(-30, 30))); break;
      case 1: sb.append("9223372036854775807"); break;
      case 2: sb.append("-9223372036854775808"); break;
      case 3: sb.append("9223372036854775808"); break;
      case 4: sb.append("123456789012345678901234567890"); break;
      case 5: sb.append(r.nextInt(1000)).append('.').append(r.nextInt(1000)); break;
      case 6: sb.append(r.nextInt(100)).append(r.nextBoolean() ? "e" : "E")
          .append(r.nextBoolean() ? "-" : r.nextBoolean() ? "+" : "").append(r.nextInt(400));
        break;
      case 7: sb.append(r.nextBoolean() ? "1." : r.nextBoolean() ? "-.5" : "1e"); break;
      case 8: sb.append("0.").append(r.nextLong(Long.MAX_VALUE)).append(r.nextInt(1000)); break;
      default: sb.append("00").append(r.nextInt(100)); break;
    }
  }

  private static void string(SplittableRandom r, StringBuilder sb) {
    sb.append('"');
    int n = r.nextInt(8);
    for (int i = 0; i < n; i++) {
      switch (r.nextInt(12)) {
        case 0: sb.append("\\\"\\\\\\/\\b\\f\\n\\r\\t".substring(0, 2 * (1 + r.nextInt(8))));
          break;
        case 1: sb.append(String.format("\\u%04x", r.nextInt(0x10000))); break;
        case 2: sb.append(String.format("\\u%04X", r.nextInt(0x10000))); break;
        case 3: sb.append("é日本\uD83D\uDE00"); break;
        case 4: sb.append(r.nextBoolean() ? "\\u+041" : "\\uzz"); break;
        default: sb.append((char) ('a' + r.nextInt(26))); break;
      }
    }
    sb.append('"');
  }
}
