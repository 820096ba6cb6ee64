package dev.handoff.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.json.JsonRows;
import dev.handoff.core.Providers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The values the parser threads read straight from the bytes ({@link ColumnPlan}, {@link
 * ByteFields}) encode as the line's tree does: for random JSON lines into typed columns (dates,
 * date-times, UUIDs, Strings and FixedStrings with escapes and UTF-8, big UInt64s, decimals into
 * Decimal and Float32), in fixed-offset zones and in a zone with daylight saving time, every row
 * encodes (RowBinary and Native) to the same bytes through {@link BlockRows} as its tree through
 * the tree accessor, or both reject it with the same message (column, value, reason). Most
 * lines vary one column among valid values, so that a row's error cannot hide another column's
 * difference. A failure names the seed, the zone and the line.
 */
class TypedRowsPropertyTest {

  static final String SCHEMA = "ts DateTime, tsn Nullable(DateTime), d Date, d32 Date32,"
      + " u UUID, s String, n Nullable(String), f FixedString(4), big UInt64, neg Int64,"
      + " dec Decimal(18, 4), f32 Float32, f64 Float64, e Enum8('a' = 1, 'b' = 2),"
      + " tsz DateTime('Asia/Kolkata')";
  static final String[] ZONES = {"UTC", "+05:30", "Europe/Berlin"};

  @Test
  void typedRows_encodeAsTheirTrees() throws Exception {
    TableSchema schema = SchemaText.parse(SCHEMA);
    List<String> columns = schema.columns().stream().map(ColumnSpec::name).toList();
    for (long seed = 1; seed <= 200; seed++) {
      String zone = ZONES[(int) (seed % ZONES.length)];
      SplittableRandom r = new SplittableRandom(seed);
      List<String> lines = new ArrayList<>();
      lines.add(line(r, columns));
      for (int i = 0; i < 60; i++) {
        // One random value among valid ones, so that an error names its own column only.
        lines.add(oneValue(r, columns, columns.get(r.nextInt(columns.size()))));
      }
      for (String format : new String[] {"rowbinary", "native"}) {
        for (String line : lines) {
          String failure = check(schema, columns, zone, format, line);
          encoded += failure == null && !lastFlat.startsWith("error") ? 1 : 0;
          if (failure != null) {
            throw new AssertionError("seed " + seed + " zone " + zone + " " + format + ": "
                + failure + "\nline: " + line);
          }
        }
      }
    }
    // Most rows encode (the test is not one of errors only).
    org.assertj.core.api.Assertions.assertThat(encoded).isGreaterThan(200 * 2 * 61 / 2);
  }

  @Test
  void delimitedTypedRows_encodeAsTheirTrees() throws Exception {
    TableSchema schema = SchemaText.parse(SCHEMA);
    List<String> columns = schema.columns().stream().map(ColumnSpec::name).toList();
    ObjectMapper mapper = new ObjectMapper();
    encoded = 0;
    for (long seed = 1; seed <= 200; seed++) {
      String zone = ZONES[(int) (seed % ZONES.length)];
      SplittableRandom r = new SplittableRandom(seed);
      for (int i = 0; i < 61; i++) {
        String json = i == 0 ? line(r, columns)
            : oneValue(r, columns, columns.get(r.nextInt(columns.size())));
        JsonNode n = mapper.readTree(json);
        for (DelimitedText.Kind kind : DelimitedText.Kind.values()) {
          String line = delimited(r, kind, columns, n);
          String failure = checkDelimited(schema, columns, zone, kind, line);
          encoded += failure == null && !lastFlat.startsWith("error") ? 1 : 0;
          if (failure != null) {
            throw new AssertionError("seed " + seed + " zone " + zone + " " + kind + ": "
                + failure + "\nline: " + line);
          }
        }
      }
    }
    org.assertj.core.api.Assertions.assertThat(encoded).isGreaterThan(200 * 2 * 61 / 2);
  }

  /** Rows that encoded, and the last flat row's encoding. */
  private int encoded;
  private static String lastFlat = "";

  @Test
  void valuesPastTheEnds_areRejectedAsText_withTheTreesMessage() throws Exception {
    TableSchema schema = SchemaText.parse(SCHEMA);
    List<String> columns = schema.columns().stream().map(ColumnSpec::name).toList();
    ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    // column, value: each past an end of its column's range or beside the shapes read from bytes.
    String[][] cases = {{"ts", "\"1969-12-31 00:00:00\""}, {"ts", "\"2106-02-08 00:00:00\""},
        {"ts", "\"2026-02-30 08:00:00\""}, {"ts", "\"2026-12-03 24:00:00\""},
        {"d", "\"2149-06-07\""}, {"d", "\"1969-12-31\""}, {"d32", "\"2300-01-01\""},
        {"d32", "\"1899-12-31\""}, {"u", "\"0000000-0000-0000-0000-0000000000001\""},
        {"u", "\"g0000000-0000-0000-0000-000000000001\""}, {"f", "\"abcde\""},
        {"f", "\"\u00e9\u00e9\u00e9\""}, {"big", "18446744073709551616"}, {"big", "-1"},
        {"neg", "-9223372036854775809"}, {"dec", "12345678901234.56789"}};
    for (String zone : ZONES) {
      for (String[] c : cases) {
        String json = oneValue(new SplittableRandom(0), columns, "-").replace(
            "\"" + c[0] + "\":" + VALID.get(c[0]), "\"" + c[0] + "\":" + c[1]);
        for (DelimitedText.Kind kind : new DelimitedText.Kind[] {null, DelimitedText.Kind.CSV}) {
          String line = kind == null ? json
              : delimited(new SplittableRandom(1), kind, columns, mapper.readTree(json));
          String failure = kind == null ? check(schema, columns, zone, "rowbinary", line)
              : checkDelimited(schema, columns, zone, kind, line);
          org.assertj.core.api.Assertions.assertThat(failure).as(zone + " " + line).isNull();
          // Rejected, naming the column and the value as written (text, or the JSON number).
          org.assertj.core.api.Assertions.assertThat(lastFlat).as(zone + " " + line)
              .startsWith("error: column \"" + c[0] + "\"")
              .contains(c[1].replace("\"", "").replace("\\u00e9", "\u00e9"));
        }
      }
    }
  }

  /** A JSON line with a random value (or none) for each column. */
  static String line(SplittableRandom r, List<String> columns) {
    StringBuilder b = new StringBuilder("{");
    for (String c : columns) {
      if (r.nextInt(12) == 0) {
        continue;
      }
      if (b.length() > 1) {
        b.append(',');
      }
      b.append('"').append(c).append("\":").append(value(r, c));
    }
    return b.append('}').toString();
  }

  /** A valid value for each column. */
  static final Map<String, String> VALID = Map.ofEntries(Map.entry("ts", "\"2020-01-01 00:00:00\""),
      Map.entry("tsn", "null"), Map.entry("d", "\"2020-01-01\""), Map.entry("d32", "\"2020-01-01\""),
      Map.entry("u", "\"00000000-0000-0000-0000-000000000001\""), Map.entry("s", "\"s\""),
      Map.entry("n", "null"), Map.entry("f", "\"f\""), Map.entry("big", "1"),
      Map.entry("neg", "-1"), Map.entry("dec", "1.5"), Map.entry("f32", "1.5"),
      Map.entry("f64", "1.5"), Map.entry("e", "\"a\""), Map.entry("tsz", "0"));

  /** A JSON line of valid values but for {@code column}'s, random (or missing). */
  static String oneValue(SplittableRandom r, List<String> columns, String column) {
    StringBuilder b = new StringBuilder("{");
    for (String c : columns) {
      boolean it = c.equals(column);
      if (it && r.nextInt(12) == 0) {
        continue;
      }
      if (b.length() > 1) {
        b.append(',');
      }
      b.append('"').append(c).append("\":").append(it ? value(r, c) : VALID.get(c));
    }
    return b.append('}').toString();
  }

  private static final String[] TEXTS = {"\"\"", "\"abc\"", "\"caf\u00e9\"", "\"\\u00e9\\ud83d\\ude00\"",
      "\"say \\\"hi\\\"\\t\\\\\"", "\"\u6771\u4eac\"", "\"\\/x\"", "\"abcd\"", "\"abcde\"",
      "\"\u00e9\u00e9\"", "\"\u00e9\u00e9\u00e9\"", "null", "1", "1.5", "true", "\"a\"", "\"b\"",
      "\"c\""};

  private static String value(SplittableRandom r, String column) {
    int k = r.nextInt(10);
    if (k == 0) {
      return TEXTS[r.nextInt(TEXTS.length)]; // anything, for the errors
    }
    switch (column) {
      case "ts": case "tsn": case "tsz": {
        String d = String.format("%04d-%02d-%02d", 1968 + r.nextInt(140), 1 + r.nextInt(12),
            1 + r.nextInt(31));
        String t = String.format("%02d:%02d:%02d", r.nextInt(25), r.nextInt(60), r.nextInt(61));
        String[] tails = {"", "", "", "Z", ".5", "+01:00"};
        String s = d + (r.nextBoolean() ? " " : "T") + t + tails[r.nextInt(tails.length)];
        if (r.nextInt(8) == 0) {
          // The hours around Berlin's switches to and from summer time.
          s = (r.nextBoolean() ? "2026-03-29 0" : "2026-10-25 0") + r.nextInt(4) + ":30:00";
        }
        return k == 1 ? String.valueOf(r.nextLong(5_000_000_000L)) : '"' + s + '"';
      }
      case "d": case "d32":
        return k == 1 ? String.valueOf(r.nextInt(70_000))
            : String.format("\"%04d-%02d-%02d\"", 1890 + r.nextInt(420), 1 + r.nextInt(12),
                1 + r.nextInt(31));
      case "u": {
        String u = new java.util.UUID(r.nextLong(), r.nextLong()).toString();
        return '"' + (k == 1 ? u.toUpperCase(java.util.Locale.ROOT) : k == 2 ? u.substring(1) : u)
            + '"';
      }
      case "big": case "neg": {
        if (k == 1) {
          // The ends of long and of 64 unsigned bits, where 19 and 20 digits change kind.
          String[] ends = {"9223372036854775807", "9223372036854775808", "18446744073709551615",
              "18446744073709551616", "1000000000000000000", "9999999999999999999"};
          return (column.equals("neg") ? "-" : "") + ends[r.nextInt(ends.length)];
        }
        java.math.BigInteger v = new java.math.BigInteger(65, new java.util.Random(r.nextLong()));
        return (column.equals("neg") ? "-" : "") + v;
      }
      case "dec": case "f32": case "f64": {
        String s = (r.nextBoolean() ? "-" : "") + r.nextInt(1_000_000) + "." + r.nextInt(100_000);
        if (k == 3) {
          // Exponents from underflow to overflow, either case, with and without a sign.
          String[] signs = {"", "+", "-"};
          return (r.nextBoolean() ? s : s.substring(0, s.indexOf('.')))
              + (r.nextBoolean() ? "e" : "E") + signs[r.nextInt(3)] + r.nextInt(330);
        }
        return k == 1 ? s + "0" : k == 2 ? s + "e3" : s;
      }
      case "e":
        return r.nextBoolean() ? "\"a\"" : "\"b\"";
      default:
        return TEXTS[r.nextInt(TEXTS.length)];
    }
  }

  /** Returns how the line's flat row and its tree encode differently, or {@code null}. */
  static String check(TableSchema schema, List<String> columns, String zone, String format,
      String line) throws Exception {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    new LineParser(columns, true, false, null, List.of(),
        ColumnPlan.of(schema, java.time.ZoneId.of(zone))).parse(b);
    if (b.bad(0)) {
      return "the line is bad: " + b.reasonOf(0);
    }
    ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    JsonNode tree = mapper.readTree(line);
    BlockRows flat = new BlockRows(JsonRows.accessor(schema), columns.size());
    String got = encode(schema, flat, new BlockRows.Row().at(b, 0), zone, format);
    lastFlat = got;
    String want = encode(schema, JsonRows.accessor(schema), tree, zone, format);
    return got.equals(want) ? null : "flat " + got + "\ntree " + want;
  }

  /** The JSON row {@code n} as a CSV or TSV line of {@code columns}, quoted at random. */
  static String delimited(SplittableRandom r, DelimitedText.Kind kind, List<String> columns,
      JsonNode n) {
    StringBuilder b = new StringBuilder();
    for (String c : columns) {
      if (b.length() > 0 || !c.equals(columns.get(0))) {
        b.append(kind == DelimitedText.Kind.CSV ? ',' : '\t');
      }
      JsonNode v = n.get(c);
      if (v == null || v.isNull()) {
        b.append(v == null && kind == DelimitedText.Kind.CSV ? "" : "\\N");
      } else if (kind == DelimitedText.Kind.TSV) {
        b.append(v.asText().replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"));
      } else if (v.isTextual() || r.nextInt(4) == 0) {
        String t = v.asText();
        boolean bare = r.nextBoolean() && !t.isEmpty() && t.indexOf(',') < 0
            && t.indexOf('"') < 0 && t.indexOf('\'') < 0 && !t.equals("\\N");
        b.append(bare ? t : '"' + t.replace("\"", "\"\"") + '"');
      } else {
        b.append(v.asText());
      }
    }
    return b.toString();
  }

  /** As {@link #check}, for a CSV or TSV line under the header {@code columns}. */
  static String checkDelimited(TableSchema schema, List<String> columns, String zone,
      DelimitedText.Kind kind, String line) throws Exception {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    new LineParser(columns, true, false, kind, columns,
        ColumnPlan.of(schema, java.time.ZoneId.of(zone))).parse(b);
    if (b.bad(0)) {
      return "the line is bad: " + b.reasonOf(0);
    }
    byte[] text = line.getBytes(StandardCharsets.UTF_8);
    JsonNode tree = DelimitedText.row(columns, DelimitedText.fields(kind, text, 0, text.length));
    BlockRows flat = new BlockRows(JsonRows.accessor(schema), columns.size());
    String got = encode(schema, flat, new BlockRows.Row().at(b, 0), zone, "rowbinary");
    lastFlat = got;
    String want = encode(schema, JsonRows.accessor(schema), tree, zone, "rowbinary");
    return got.equals(want) ? null : "flat " + got + "\ntree " + want;
  }

  private static <T> String encode(TableSchema schema, dev.handoff.api.row.RowAccessor<T> acc,
      T row, String zone, String format) {
    RowEncoder<T> encoder = Providers.encoder(format).create(schema, acc,
        Map.of(Ingest.TIMEZONE_OPTION, zone));
    ChunkBuffer out = new ChunkBuffer(256);
    try {
      encoder.encode(row, out);
      encoder.finishChunk(out);
      return HexFormat.of().formatHex(out.toByteArray());
    } catch (RuntimeException e) {
      return "error: " + e.getMessage();
    }
  }
}
