package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * The word-at-a-time scans of the byte scanners against byte-by-byte references: {@link
 * JsonStrings#plainEnd} (the end of a string's plain ASCII run), {@link JsonStrings#rawEnd} (of
 * its run without escapes), {@link ByteWords#indexOf}, {@link JsonStrings#hex4} (its
 * table of hex digits), and the column names matched as 8-byte words (names of 1 to 20 bytes,
 * at the end of the line and near it, next to names that extend or cut them), whose rows must
 * read as the trees of the same lines.
 */
class ScanWordsTest {

  private static final byte[] ALPHABET = {'a', 'Z', '0', ' ', '"', '\\', 0x1F, 0x00, 0x7F,
      (byte) 0x80, (byte) 0xC3, (byte) 0xFF, '}', ','};

  @Test
  void plainEndRawEndIndexOf_findTheFirstByteAsByteByByteLoopsDo() {
    for (long seed = 1; seed <= 3000; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      byte[] b = new byte[1 + r.nextInt(40)];
      int rare = 1 + r.nextInt(30); // one byte in `rare` ends a run
      for (int i = 0; i < b.length; i++) {
        b[i] = r.nextInt(rare) == 0 ? ALPHABET[r.nextInt(ALPHABET.length)]
            : (byte) (0x20 + r.nextInt(0x5F));
        if (b[i] == '"' || b[i] == '\\') {
          b[i] = r.nextInt(rare) == 0 ? b[i] : (byte) 'q';
        }
      }
      int from = r.nextInt(b.length);
      int end = from + r.nextInt(b.length - from + 1);
      int want = end;
      for (int i = from; i < end; i++) {
        if (b[i] == '"' || b[i] == '\\' || b[i] < 0x20) {
          want = i;
          break;
        }
      }
      assertThat(JsonStrings.plainEnd(b, from, end))
          .as("seed %d: %s [%d, %d)", seed, java.util.HexFormat.of().formatHex(b), from, end)
          .isEqualTo(want);
      int raw = end;
      for (int i = from; i < end; i++) {
        if (b[i] == '"' || b[i] == '\\' || (b[i] >= 0 && b[i] < 0x20)) {
          raw = i;
          break;
        }
      }
      assertThat(JsonStrings.rawEnd(b, from, end))
          .as("rawEnd, seed %d: %s [%d, %d)", seed, java.util.HexFormat.of().formatHex(b), from,
              end)
          .isEqualTo(raw);
      int comma = -1;
      for (int i = from; i < end; i++) {
        if (b[i] == ',') {
          comma = i;
          break;
        }
      }
      assertThat(ByteWords.indexOf(b, (byte) ',', from, end)).as("indexOf, seed %d", seed)
          .isEqualTo(comma);
    }
  }

  @Test
  void hex4_readsEveryByteAsCharacterDigitDoes() {
    for (int pos = 0; pos < 4; pos++) {
      for (int v = 0; v < 256; v++) {
        byte[] b = {'0', 'a', 'F', '9'};
        b[pos] = (byte) v;
        int want = 0;
        for (byte c : b) {
          int d = Character.digit(c, 16); // a byte beyond ASCII is negative: no digit
          want = want < 0 || d < 0 ? -1 : want << 4 | d;
        }
        assertThat(JsonStrings.hex4(b, 0, 4)).as("byte %02x at %d", v, pos).isEqualTo(want);
      }
    }
  }

  @Test
  void longAndShortNames_readAsTheTreesOfTheSameLines() throws Exception {
    List<String> columns = List.of("i", "opt_floa", "opt_float", "seventeen_bytes_x", "ab",
        "twenty_bytes_name_xy");
    String[] fields = {"i", "opt_floa", "opt_float", "opt_floatx", "seventeen_bytes_x",
        "seventeen_bytes_", "ab", "a", "abc", "twenty_bytes_name_xy", "twenty_bytes_name_x"};
    TableSchema schema = new TableSchema(
        columns.stream().map(n -> new ColumnSpec(n, "String")).toList());
    RowAccessor<JsonNode> tree = JsonRows.accessor(schema);
    BlockRows flat = new BlockRows(tree, columns.size());
    ObjectMapper mapper = new ObjectMapper();
    for (long seed = 1; seed <= 500; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      StringBuilder line = new StringBuilder("{");
      int n = 1 + r.nextInt(8);
      int next = r.nextInt(columns.size());
      for (int k = 0; k < n; k++) {
        // Mostly the schema's next column (the word-compared case), sometimes another name.
        String name = r.nextInt(4) == 0 ? fields[r.nextInt(fields.length)]
            : columns.get(next++ % columns.size());
        line.append(k > 0 ? "," : "").append('"').append(name).append('"')
            .append(r.nextInt(6) == 0 ? " : " : ":")
            .append(r.nextBoolean() ? "\"v" + k + "\"" : String.valueOf(k));
      }
      line.append(r.nextInt(5) == 0 ? "}  " : "}");
      String text = line.toString();
      // The line alone (its names end near the block's end) and with a long line after it.
      for (String block : new String[] {text, text + "\n" + "{\"i\":\"" + "x".repeat(40)
          + "\"}"}) {
        byte[] bytes = (block + "\n").getBytes(StandardCharsets.UTF_8);
        ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
        new LineParser(columns, false, false).parse(b);
        JsonNode want = mapper.readTree(text);
        BlockRows.Row row = new BlockRows.Row().at(b, 0);
        String where = "seed " + seed + ": " + text;
        assertThat(b.reasonOf(0)).as(where).isNull();
        for (int c = 0; c < columns.size(); c++) {
          assertThat(Objects.toString(flat.getObject(row, c)))
              .as(where + " column " + columns.get(c))
              .isEqualTo(Objects.toString(tree.getObject(want, c)));
        }
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> it = want.fieldNames(); it.hasNext(); ) {
          String f = it.next();
          if (!columns.contains(f) && !unknown.contains(f)) {
            unknown.add(f);
          }
        }
        assertThat(b.unknownOf(0) == null ? List.of() : List.of(b.unknownOf(0)))
            .as(where).isEqualTo(unknown);
      }
    }
  }
}
