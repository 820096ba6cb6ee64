package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.json.JsonRows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fast path of {@link LineParser} (flat rows from parser tokens) against the tree path it
 * replaces: for random blocks of JSON lines (scalars of every kind, duplicates, unknown fields,
 * nested values, array rows, several values on a line, objects over two lines, broken lines),
 * every row reads the same through {@link BlockRows} as the line's own tree through the tree
 * accessor, and every bad line gets the tree's reason and message. Strings cover JSON's escapes,
 * UTF-8 of every length and malformed forms; every other seed reads a column as Float64.
 */
class FlatRowsPropertyTest {

  static final List<String> COLUMNS = List.of("id", "ts", "name", "x", "flag", "big");
  static final String[] FIELDS = {"id", "ts", "name", "x", "flag", "big", "extra", "Id", "n\u00e9"};

  @Test
  void flatRows_readAsTheTreesOfTheSameLines() throws Exception {
    for (long seed = 1; seed <= 300; seed++) {
      for (boolean exact : new boolean[] {false, true}) {
        for (boolean strict : new boolean[] {false, true}) {
          List<String> lines = lines(new SplittableRandom(seed), 1 + (int) (seed % 40));
          // Every other seed reads column x as Float64 (exact decimals become doubles there).
          Set<String> float64 = seed % 2 == 0 ? Set.of("x") : Set.of();
          // Every third seed makes id and name String columns (strings as their UTF-8 bytes).
          Set<String> strings = seed % 3 == 0 ? Set.of("id", "name") : Set.of();
          String failure = check(lines, exact, strict, float64, strings);
          if (failure != null) {
            // Shrink: drop lines while the check still fails.
            for (int i = lines.size() - 1; i >= 0; i--) {
              List<String> fewer = new ArrayList<>(lines);
              fewer.remove(i);
              String f = check(fewer, exact, strict, float64, strings);
              if (f != null) {
                lines = fewer;
                failure = f;
              }
            }
            throw new AssertionError("seed " + seed + " exact " + exact + " strict " + strict
                + " float64 " + float64 + " strings " + strings + ": " + failure + "\nshrunk block:\n" + String.join("\n", lines));
          }
        }
      }
    }
  }

  @Test
  void malformedUtf8_getsTheTreesReasonAndWellFormedReadsAsTheTree() throws Exception {
    byte[][] strings = {{(byte) 0x80}, {(byte) 0xC3}, {(byte) 0xFF, 'a'}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82},
        {(byte) 0xC3, (byte) 0xA9}, {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}};
    ObjectMapper mapper = new ObjectMapper();
    for (byte[] s : strings) {
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      line.write("{\"id\":1,\"name\":\"x".getBytes(StandardCharsets.US_ASCII));
      line.write(s);
      line.write("\"}\n".getBytes(StandardCharsets.US_ASCII));
      byte[] bytes = line.toByteArray();
      ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
      new LineParser(COLUMNS, false, false).parse(b);
      JsonNode tree;
      try {
        tree = mapper.readTree(bytes);
      } catch (Exception e) {
        tree = null;
      }
      String what = java.util.HexFormat.of().formatHex(s);
      if (tree == null) {
        assertThat(b.reasonOf(0)).as(what).isEqualTo(SkipReasons.MALFORMED_JSON);
      } else {
        assertThat(b.reasonOf(0)).as(what).isNull();
        BlockRows flat = new BlockRows(JsonRows.accessor(new TableSchema(
            COLUMNS.stream().map(n -> new ColumnSpec(n, "String")).toList())), COLUMNS.size());
        assertThat(flat.getObject(new BlockRows.Row().at(b, 0), 2)).as(what)
            .isEqualTo(tree.get("name").textValue());
      }
    }
  }

  /** Returns why the block's rows differ from their trees, or {@code null}. */
  static String check(List<String> lines, boolean exact, boolean strict) throws Exception {
    return check(lines, exact, strict, Set.of(), Set.of());
  }

  /**
   * Returns why the block's rows differ from their trees, or {@code null}; with exact decimals, a
   * number with a fraction in one of {@code float64} must read as the correctly rounded double of
   * the tree's decimal when that double is finite and not zero; a string in one of {@code
   * strings} may read as bytes, which must be the UTF-8 of the tree's text.
   */
  static String check(List<String> lines, boolean exact, boolean strict, Set<String> float64,
      Set<String> strings) throws Exception {
    byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    new LineParser(COLUMNS, exact, strict, null, List.of(), float64, strings).parse(b);
    ObjectMapper mapper = new ObjectMapper();
    if (exact) {
      mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }
    TableSchema schema = new TableSchema(
        COLUMNS.stream().map(n -> new ColumnSpec(n, "String")).toList());
    RowAccessor<JsonNode> tree = JsonRows.accessor(schema);
    BlockRows flat = new BlockRows(tree, COLUMNS.size());
    BlockRows.Row cursor = new BlockRows.Row();
    int row = 0;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      String where = "line " + (row + 1) + " " + line;
      String why = referenceReason(mapper, line, strict);
      if (!java.util.Objects.equals(why, b.reasonOf(row))) {
        return where + ": reason " + b.reasonOf(row) + ", the tree path gives " + why;
      }
      if (why == null) {
        JsonNode n = mapper.readTree(line);
        Set<String> unknown = new LinkedHashSet<>();
        if (n.isObject()) {
          for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!COLUMNS.contains(f)) {
              unknown.add(f);
            }
          }
        }
        List<String> got = b.unknownOf(row) == null ? List.of() : List.of(b.unknownOf(row));
        if (!got.equals(new ArrayList<>(unknown))) {
          return where + ": unknown fields " + got + ", the tree has " + unknown;
        }
        cursor.at(b, row);
        for (int c = 0; c < COLUMNS.size(); c++) {
          boolean asDouble = exact && float64.contains(COLUMNS.get(c)) && n.isObject()
              && n.get(COLUMNS.get(c)) != null && n.get(COLUMNS.get(c)).isBigDecimal();
          if (strings.contains(COLUMNS.get(c)) && flat.kind(cursor, c) == ValueKind.BYTES
              && tree.kind(n, c) == ValueKind.TEXT) {
            byte[] want = tree.getText(n, c).toString().getBytes(StandardCharsets.UTF_8);
            if (!java.util.Arrays.equals(flat.getBytes(cursor, c), want)) {
              return where + ": String column " + c + " bytes differ from the tree's text";
            }
            continue;
          }
          if (!asDouble && flat.kind(cursor, c) != tree.kind(n, c)) {
            return where + ": column " + c + " kind " + flat.kind(cursor, c) + ", tree "
                + tree.kind(n, c);
          }
          Object a = flat.getObject(cursor, c);
          Object e = tree.getObject(n, c);
          JsonNode v = n.isObject() ? n.get(COLUMNS.get(c)) : null;
          if (exact && float64.contains(COLUMNS.get(c)) && v != null && v.isBigDecimal()) {
            double d = Double.parseDouble(v.decimalValue().toString());
            if (d != 0 && !Double.isInfinite(d)) {
              // A line the flat path declines stays a tree, holding the decimal itself.
              if (!Double.valueOf(d).equals(a) && !java.util.Objects.equals(a, e)) {
                return where + ": Float64 column " + c + " value " + a + " (" + type(a)
                    + "), expected the double " + d;
              }
              continue;
            }
          }
          if (!(a instanceof Object[]) && !java.util.Objects.equals(a, e)) {
            return where + ": column " + c + " value " + a + " (" + type(a) + "), tree " + e
                + " (" + type(e) + ")";
          }
          if (flat.isNull(cursor, c) != tree.isNull(n, c)) {
            return where + ": column " + c + " isNull differs";
          }
        }
      }
      row++;
    }
    return row == b.rows ? null : "rows " + b.rows + ", lines " + row;
  }

  private static String type(Object o) {
    return o == null ? "null" : o.getClass().getSimpleName();
  }

  /** Returns the reason the tree path gives a line alone, or {@code null}. */
  static String referenceReason(ObjectMapper mapper, String line, boolean strict) {
    JsonNode n;
    try (var p = mapper.getFactory().createParser(line)) {
      n = mapper.readTree(p);
      if (n == null || !(n.isObject() || n.isArray())) {
        return SkipReasons.NOT_AN_OBJECT;
      }
      if (p.nextToken() != null) {
        return SkipReasons.MALFORMED_JSON;
      }
    } catch (Exception e) {
      return SkipReasons.MALFORMED_JSON;
    }
    if (strict && n.isObject()) {
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        if (!COLUMNS.contains(it.next())) {
          return SkipReasons.UNKNOWN_FIELD;
        }
      }
    }
    return null;
  }

  static List<String> lines(SplittableRandom r, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int shape = r.nextInt(20);
      if (shape == 0) {
        out.add(r.nextBoolean() ? "" : "  \t");
      } else if (shape == 1) {
        out.add("[" + value(r) + "," + value(r) + "]");
      } else if (shape == 2) {
        out.add(object(r) + " " + object(r));
      } else if (shape == 3) {
        String o = object(r);
        int cut = 1 + r.nextInt(Math.max(1, o.length() - 1));
        out.add(o.substring(0, cut));
        out.add(o.substring(cut));
      } else if (shape == 4) {
        out.add(value(r));
      } else {
        out.add(object(r) + (r.nextInt(8) == 0 ? "  " : ""));
      }
    }
    return out;
  }

  static String object(SplittableRandom r) {
    StringBuilder s = new StringBuilder("{");
    int n = r.nextInt(9);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        s.append(r.nextInt(6) == 0 ? " , " : ",");
      }
      String gap = r.nextInt(5) == 0 ? " \t" : "";
      s.append(gap).append('"').append(FIELDS[r.nextInt(FIELDS.length)]).append('"')
          .append(gap).append(':').append(gap)
          .append(r.nextInt(10) == 0 ? "{\"k\":[1,2]}" : value(r));
    }
    return s.append('}').toString();
  }

  /** Number and literal forms at the edges of what the byte scanner takes. */
  static final String[] EDGES = {"-0", "0", "007", "1.", ".5", "-", "1e5", "1E+2", "-12.5e-3",
      "2147483647", "2147483648", "-2147483648", "-2147483649", "999999999999999999",
      "-999999999999999999", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "tru", "nul", "truex", "nulls", "falsee", "1.5.2", "1e", "-e5",
      "\"a\tb\"", "\"\u007f\"", "\"\"", "\"x\\/y\"", "0.1", "1.7976931348623157e309",
      "4.9e-325", "123456789012345678901234567890.5", "\"ab", "+1", "0x10"};

  /** Strings beyond plain ASCII: escapes, UTF-8 of every length, and malformed ones. */
  static final String[] STRINGS = {"\"caf\u00e9 \u6f22\"",
      "\"\u041f\u0440\u0438\u0432\u0435\u0442\"",
      "\"smile \ud83d\ude00!\"", "\"\\ud83d\\ude00\"", "\"\\uD83D\\uDE00 x\"", "\"\\ud83d x\"",
      "\"\\udc00\"", "\"\\ud83d\\u0041\"", "\"\\b\\f\\n\\r\\t\\\"\\\\\\/\"", "\"\\x\"",
      "\"\\u12G4\"", "\"\\u12\"", "\"\\u00E9\\u00e9\"", "\"\u00e9", "\"\u00e9\u0001\"",
      "\"\u00e9\\", "\"\u00e9\\u", "\"\\u0000\"", "\"tab\\tthen \u00fc\"",
      "\"" + "\u00e9".repeat(300) + "\""};

  static String value(SplittableRandom r) {
    if (r.nextInt(4) == 0) {
      return EDGES[r.nextInt(EDGES.length)];
    }
    switch (r.nextInt(12)) {
      case 0:
        return "null";
      case 1:
        return r.nextBoolean() ? "true" : "false";
      case 2:
        return Integer.toString(r.nextInt());
      case 3:
        return Long.toString(r.nextLong());
      case 4:
        return "1" + Long.toUnsignedString(r.nextLong()) + "7";
      case 5:
        return Double.toString(r.nextDouble() * 1e6);
      case 6:
        return "1.50e-3";
      case 7:
        return "\"pl\\u00e9in \\\"q\\\" \\n\"";
      case 8:
        return STRINGS[r.nextInt(STRINGS.length)];
      case 9:
        return "[1,\"a\"]";
      case 10:
        return "\"" + Long.toHexString(r.nextLong()) + "\"";
      default:
        return "-0.0";
    }
  }
}
