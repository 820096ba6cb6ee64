package dev.handoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.clickhouse.json.JsonRows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * CSV and TSV rows on the flat path of {@link LineParser} against the tree that {@link
 * DelimitedText#row} builds for the same line: for random headers (unknown and repeated names)
 * and rows (quotes, doubled quotes, separators and escapes inside fields, {@code \N}, empty
 * fields, rows of the wrong width, unclosed quotes), every row reads the same through {@link
 * BlockRows} as its tree through the tree accessor, with the same unknown fields and the same
 * reason for a bad row. A failure names the seed and the shrunk block.
 */
class DelimitedRowsPropertyTest {

  static final List<String> COLUMNS = FlatRowsPropertyTest.COLUMNS;
  static final String[] NAMES = {"id", "ts", "name", "x", "flag", "big", "extra", "Id"};
  static final String[] CSV_FIELDS = {"1", "-7", "", "\\N", "\"\\N\"", "\"a,b\"", "\"say \"\"hi\"\"\"",
      "'q'", "caf\u00e9", "\"\"", "2026-12-03 08:00:00", "1.5", "\"x", "a\\tb", " sp "};
  static final String[] TSV_FIELDS = {"1", "-7", "", "\\N", "a\\tb", "a\\\\b", "line\\nbreak",
      "caf\u00e9", "\"quoted\"", "a,b", "x\\", "1.5", "\\'q\\'"};

  @Test
  void delimitedRows_readAsTheirTrees() throws Exception {
    for (long seed = 1; seed <= 300; seed++) {
      for (DelimitedText.Kind kind : DelimitedText.Kind.values()) {
        for (boolean strict : new boolean[] {false, true}) {
          SplittableRandom r = new SplittableRandom(seed);
          List<String> header = new ArrayList<>();
          int width = 1 + r.nextInt(6);
          for (int i = 0; i < width; i++) {
            header.add(NAMES[r.nextInt(NAMES.length)]);
          }
          List<String> lines = new ArrayList<>();
          for (int i = 1 + r.nextInt(30); i > 0; i--) {
            lines.add(line(r, kind, width + (r.nextInt(12) == 0 ? 1 : 0)));
          }
          String failure = check(kind, header, lines, strict);
          if (failure != null) {
            for (int i = lines.size() - 1; i >= 0; i--) {
              List<String> fewer = new ArrayList<>(lines);
              fewer.remove(i);
              String f = check(kind, header, fewer, strict);
              if (f != null) {
                lines = fewer;
                failure = f;
              }
            }
            throw new AssertionError("seed " + seed + " " + kind + " strict " + strict
                + " header " + header + ": " + failure + "\nshrunk block:\n"
                + String.join("\n", lines));
          }
        }
      }
    }
  }

  @Test
  void csvQuotedFields_doubledQuotesStandForOne() throws Exception {
    String line = "\"a\"\"b\",\"\"\"\",\"x\"\"\",'it''s',\"\",\\N,,\"caf\u00e9, \"\"q\"\"\"";
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    org.assertj.core.api.Assertions.assertThat(
            DelimitedText.fields(DelimitedText.Kind.CSV, b, 0, b.length))
        .containsExactly("a\"b", "\"", "x\"", "it's", "", null, null, "caf\u00e9, \"q\"");
    byte[] open = "\"a\"\"".getBytes(StandardCharsets.UTF_8);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> DelimitedText.fields(DelimitedText.Kind.CSV, open, 0, open.length))
        .isInstanceOf(DelimitedText.BadLine.class).hasMessageContaining("not closed");
  }

  static String line(SplittableRandom r, DelimitedText.Kind kind, int width) {
    String[] pool = kind == DelimitedText.Kind.CSV ? CSV_FIELDS : TSV_FIELDS;
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < width; i++) {
      if (i > 0) {
        s.append(kind == DelimitedText.Kind.CSV ? ',' : '\t');
      }
      s.append(pool[r.nextInt(pool.length)]);
    }
    return s.toString();
  }

  static String check(DelimitedText.Kind kind, List<String> header, List<String> lines,
      boolean strict) throws Exception {
    byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    new LineParser(COLUMNS, false, strict, kind, header).parse(b);
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
      byte[] lb = line.getBytes(StandardCharsets.UTF_8);
      JsonNode n = null;
      String why = null;
      List<String> unknown = new ArrayList<>();
      try {
        n = DelimitedText.row(header, DelimitedText.fields(kind, lb, 0, lb.length));
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
          String f = it.next();
          if (!COLUMNS.contains(f)) {
            unknown.add(f);
          }
        }
        if (strict && !unknown.isEmpty()) {
          why = SkipReasons.UNKNOWN_FIELD;
        }
      } catch (DelimitedText.BadLine e) {
        why = SkipReasons.MALFORMED_ROW;
      }
      if (!Objects.equals(why, b.reasonOf(row))) {
        return where + ": reason " + b.reasonOf(row) + ", the tree path gives " + why;
      }
      if (why == null) {
        List<String> got = b.unknownOf(row) == null ? List.of() : List.of(b.unknownOf(row));
        if (!got.equals(unknown)) {
          return where + ": unknown fields " + got + ", the tree has " + unknown;
        }
        cursor.at(b, row);
        for (int c = 0; c < COLUMNS.size(); c++) {
          if (flat.kind(cursor, c) != tree.kind(n, c)
              || !Objects.equals(flat.getObject(cursor, c), tree.getObject(n, c))
              || flat.isNull(cursor, c) != tree.isNull(n, c)) {
            return where + ": column " + c + " " + flat.kind(cursor, c) + " "
                + flat.getObject(cursor, c) + ", tree " + tree.kind(n, c) + " "
                + tree.getObject(n, c);
          }
          if (!flat.isNull(cursor, c)
              && !flat.getText(cursor, c).toString().equals(tree.getText(n, c).toString())) {
            return where + ": column " + c + " text differs";
          }
        }
      }
      row++;
    }
    return row == b.rows ? null : "rows " + b.rows + ", lines " + row;
  }
}
