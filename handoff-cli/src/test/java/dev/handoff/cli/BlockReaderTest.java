package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class BlockReaderTest {

  /** A row as read: its text, line number, and the offsets of its line. */
  record Row(String text, long line, long offset, long end) {}

  /** A row's flat slots as the parser left them: kind, value and object of each column. */
  record Slots(String text, List<String> slots) {}

  static List<Row> read(InputStream in, long start, long linesBefore, int blockRows,
      int threads) throws Exception {
    List<Row> rows = new ArrayList<>();
    readBlocks(in, start, linesBefore, blockRows, threads, true, b -> {
      for (int i = 0; i < b.rows; i++) {
        rows.add(new Row(b.lineText(i), b.lineNumber(i), b.offset(i), b.start + b.lineEnd[i]));
      }
    });
    return rows;
  }

  /**
   * Reads every block, hands it to {@code seen}, then (with {@code reuse}) recycles it as the
   * ingest source does once it pushed the block's rows.
   */
  static void readBlocks(InputStream in, long start, long linesBefore, int blockRows,
      int threads, boolean reuse, java.util.function.Consumer<ParsedBlock> seen)
      throws Exception {
    LineParser parser = new LineParser(List.of("a", "b", "c", "k", "x"), false, false);
    try (BlockReader r = new BlockReader(in, start, linesBefore, blockRows, threads, reuse, b -> {
      synchronized (parser) {
        parser.parse(b);
      }
      return b;
    })) {
      long expectStart = start;
      ParsedBlock b;
      while ((b = r.next()) != BlockReader.END) {
        assertThat(b.start).as("blocks follow each other").isEqualTo(expectStart);
        assertThat(b.end - b.start).isEqualTo(b.length);
        expectStart = b.end;
        seen.accept(b);
        if (reuse) {
          r.recycle(b);
        }
      }
    }
  }

  @Test
  void reusedBlocks_holdTheSameRowsAndSlots_asFreshOnes() throws Exception {
    // Rows of varying width and missing fields: a reused block's slots must read as a fresh
    // block's (nulls where a row has no field), whatever the block before it held.
    StringBuilder sb = new StringBuilder();
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 30_000; i++) {
      sb.append('{');
      if (random.nextBoolean()) {
        sb.append("\"a\":").append(random.nextInt()).append(',');
      }
      if (random.nextInt(3) == 0) {
        sb.append("\"b\":\"").append("w".repeat(random.nextInt(300))).append("\",");
      }
      if (random.nextInt(7) == 0) {
        sb.append("\"c\":[1,2],"); // a tree row
      }
      if (random.nextInt(50) == 0) {
        sb.append("\"x\":nope,"); // a row that does not parse
      }
      sb.append("\"k\":").append(i).append("}\n");
    }
    byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
    List<Slots> fresh = slots(bytes, false);
    List<Slots> reused = slots(bytes, true);

    assertThat(reused).hasSize(30_000).isEqualTo(fresh);
  }

  /**
   * Blocks read into reused arrays (the reader reads straight into a block's array and moves what
   * it read past the block's last line to the next one's) hold the rows fresh blocks hold, with
   * lines of every length: short ones whose blocks end at the row bound, ones that cross the
   * byte bound, and ones longer than a block (which are read to their end, the array growing).
   */
  @Test
  void reusedArrays_holdTheRowsOfFreshOnes_withLinesLongerThanABlock() throws Exception {
    StringBuilder sb = new StringBuilder();
    SplittableRandom random = new SplittableRandom(5);
    int[] widths = {3, 200, 70_000, BlockReader.BLOCK_BYTES - 40,
        BlockReader.LineBuffer.REUSED_BYTES + 1_000, 3 * BlockReader.BLOCK_BYTES};
    for (int i = 0; i < 400; i++) {
      int w = widths[random.nextInt(4) == 0 ? random.nextInt(widths.length) : random.nextInt(2)];
      sb.append("{\"b\":\"").append("w".repeat(w)).append("\",\"k\":").append(i).append("}\n");
      if (random.nextInt(20) == 0) {
        sb.append("\n"); // a blank line
      }
    }
    byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
    List<Slots> fresh = slots(bytes, false);
    List<Slots> reused = slots(bytes, true);

    // A line longer than a block once ended the input there, silently (both ways). The
    // messages give sizes and keys only: a row's text is megabytes.
    assertThat(fresh.stream().map(r -> r.text().length() + ":" + r.slots().get(3)).toList())
        .hasSize(400);
    assertThat(reused.equals(fresh)).as("reused blocks hold the rows of fresh ones").isTrue();
  }

  private static List<Slots> slots(byte[] bytes, boolean reuse) throws Exception {
    List<Slots> out = new ArrayList<>();
    readBlocks(new ByteArrayInputStream(bytes), 0, 0, 97, 3, reuse, b -> {
      for (int i = 0; i < b.rows; i++) {
        List<String> s = new ArrayList<>();
        s.add(String.valueOf(b.nodes[i]));
        s.add(String.valueOf(b.reasonOf(i)));
        for (int c = 0; c < b.columns; c++) {
          int k = i * b.columns + c;
          Object o = b.objects[k];
          s.add(b.kinds[k] + ":" + (b.kinds[k] == BlockRows.NULL ? "" : b.values[k]) + ":"
              + (o instanceof byte[] a ? new String(a, StandardCharsets.UTF_8) : o));
        }
        out.add(new Slots(b.lineText(i), s));
      }
    });
    return out;
  }

  static List<Row> read(String text, long start, int blockRows) throws Exception {
    return read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), start, 0,
        blockRows, 2);
  }

  @Test
  void offsetsAndLineNumbers_areExact_blankLinesCountAsLinesNotRows() throws Exception {
    List<Row> rows = read("{\"a\":1}\r\n\n  \n{\"b\":\"é\"}\n{\"x\":2}", 1000, 2);

    assertThat(rows).containsExactly(new Row("{\"a\":1}", 1, 1000, 1009),
        new Row("{\"b\":\"é\"}", 4, 1013, 1024), new Row("{\"x\":2}", 5, 1024, 1031));
  }

  @Test
  void longLines_endABlockAtTheByteBound_withEveryRowKeptInOrder() throws Exception {
    // 1,000 lines of 10,000 bytes: 10 MB, so blocks of at most 1,000 rows end at 2 MiB.
    StringBuilder text = new StringBuilder();
    String pad = "x".repeat(9_981);
    for (int i = 0; i < 1_000; i++) {
      text.append(String.format("{\"a\":%5d,\"b\":\"%s\"}\n", i, pad));
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    List<ParsedBlock> blocks = new ArrayList<>();
    LineParser parser = new LineParser(List.of("a", "b"), false, false);
    try (BlockReader r = new BlockReader(new ByteArrayInputStream(bytes), 0, 0, 1_000, 2, false,
        b -> {
      synchronized (parser) {
        parser.parse(b);
      }
      return b;
    })) {
      ParsedBlock b;
      while ((b = r.next()) != BlockReader.END) {
        blocks.add(b);
      }
    }
    int rows = 0;
    for (ParsedBlock b : blocks) {
      // A block stops at the first line that takes it to the bound.
      assertThat(b.length).isLessThan(BlockReader.BLOCK_BYTES + 10_000);
      for (int i = 0; i < b.rows; i++) {
        assertThat(b.lineNumber(i)).isEqualTo(rows + 1);
        assertThat(b.offset(i)).isEqualTo(10_000L * rows);
        rows++;
      }
    }
    assertThat(rows).isEqualTo(1_000);
    assertThat(blocks.size()).isGreaterThanOrEqualTo(5);
  }

  @Test
  void manyThreads_keepTheInputOrder() throws Exception {
    StringBuilder sb = new StringBuilder();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      sb.append("{\"k\":").append(i).append(",\"x\":\"").append("v".repeat(random.nextInt(200)))
          .append("\"}\n");
      if (random.nextInt(50) == 0) {
        sb.append('\n');
      }
    }
    List<Row> rows = read(new ByteArrayInputStream(sb.toString().getBytes(StandardCharsets.UTF_8)),
        0, 0, 37, 4);

    assertThat(rows).hasSize(20_000);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(rows.get(i).text()).startsWith("{\"k\":" + i + ",");
    }
    assertThat(rows.get(rows.size() - 1).end()).isEqualTo(sb.length());
  }

  @Test
  void trickleStream_givesTheSameRows() throws Exception {
    byte[] bytes = "{\"a\":1}\n{\"b\":2}\n{\"c\":3}".getBytes(StandardCharsets.UTF_8);
    InputStream trickle = new InputStream() {
      int pos;

      @Override
      public int read() {
        return pos < bytes.length ? bytes[pos++] : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (pos >= bytes.length) {
          return -1;
        }
        b[off] = bytes[pos++];
        return 1;
      }
    };

    assertThat(read(trickle, 0, 0, 100, 1)).extracting(Row::text)
        .containsExactly("{\"a\":1}", "{\"b\":2}", "{\"c\":3}");
  }

  @Test
  void aPause_endsTheBlock_soItsRowsDoNotWaitForMore() throws Exception {
    PipedOutputStream feed = new PipedOutputStream();
    PipedInputStream pipe = new PipedInputStream(feed, 1024);
    LineParser parser = new LineParser(List.of("a"), false, false);
    try (BlockReader r = new BlockReader(pipe, 0, 0, 1000, 1, false, b -> {
      parser.parse(b);
      return b;
    })) {
      feed.write("{\"a\":1}\n{\"a\":".getBytes(StandardCharsets.UTF_8));
      ParsedBlock first = r.next();
      assertThat(first.rows).isEqualTo(1);
      assertThat(first.end).isEqualTo(8);
      feed.write("2}\n".getBytes(StandardCharsets.UTF_8));
      feed.close();
      ParsedBlock second = r.next();
      assertThat(second.start).isEqualTo(8);
      assertThat(second.lineText(0)).isEqualTo("{\"a\":2}");
      assertThat(r.next()).isSameAs(BlockReader.END);
    }
  }

  @Test
  void badLines_getAReasonAndAQuote_unknownFieldsAreNamed() throws Exception {
    LineParser parser = new LineParser(List.of("a"), false, false);
    byte[] bytes = "{\"a\":1,\"A\":2}\n{\"a\":\n42\n".getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    parser.parse(b);

    assertThat(b.rows).isEqualTo(3);
    assertThat(b.unknownOf(0)).containsExactly("A");
    assertThat(b.nodes[1]).isNull();
    assertThat(b.reasonOf(1)).isEqualTo(SkipReasons.MALFORMED_JSON);
    assertThat(b.detail[1]).contains("'{\"a\":'");
    assertThat(b.reasonOf(2)).isEqualTo(SkipReasons.NOT_AN_OBJECT);
  }

  @Test
  void emptyInput_hasNoRows() throws Exception {
    assertThat(read("", 0, 16)).isEmpty();
  }
}
