package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class JsonLinesTest {

  /** A line as read: its text and the offset after it. */
  record Line(String text, long end, boolean blank) {}

  static List<Line> read(String text, long start, int bufferSize) throws IOException {
    return read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), start,
        bufferSize);
  }

  static List<Line> read(InputStream in, long start, int bufferSize) throws IOException {
    List<Line> lines = new ArrayList<>();
    try (JsonLines r = new JsonLines(in, start, bufferSize)) {
      while (r.next()) {
        lines.add(new Line(new String(r.buffer(), r.lineStart(), r.lineLength(),
            StandardCharsets.UTF_8), r.endOffset(), r.isBlank()));
      }
    }
    return lines;
  }

  @Test
  void endOffset_isTheByteAfterEachNewline() throws IOException {
    List<Line> lines = read("{\"a\":1}\n{\"b\":\"é\"}\n", 0, 64);

    assertThat(lines).containsExactly(new Line("{\"a\":1}", 8, false),
        new Line("{\"b\":\"é\"}", 19, false));
  }

  @Test
  void crlf_isDropped_andTheLastLineNeedsNoNewline() throws IOException {
    List<Line> lines = read("{}\r\n\n  \n{\"x\":2}", 0, 64);

    assertThat(lines).containsExactly(new Line("{}", 4, false), new Line("", 5, true),
        new Line("  ", 8, true), new Line("{\"x\":2}", 15, false));
  }

  @Test
  void offsets_countFromTheStartOffset() throws IOException {
    List<Line> lines = read("{}\n{}\n", 1000, 64);

    assertThat(lines).extracting(Line::end).containsExactly(1003L, 1006L);
  }

  @Test
  void tinyBuffer_growsForLongLines_andOffsetsStayExact() throws IOException {
    StringBuilder sb = new StringBuilder();
    List<Long> ends = new ArrayList<>();
    long offset = 0;
    for (int i = 0; i < 200; i++) {
      String line = "{\"k\":\"" + "v".repeat(i * 7 % 300) + "\"}";
      sb.append(line).append('\n');
      offset += line.length() + 1;
      ends.add(offset);
    }

    List<Line> lines = read(sb.toString(), 0, 16);

    assertThat(lines).extracting(Line::end).containsExactlyElementsOf(ends);
    assertThat(lines.get(199).text()).hasSize(199 * 7 % 300 + 8);
  }

  @Test
  void trickleStream_returningOneByteAtATime_givesTheSameLines() throws IOException {
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

    assertThat(read(trickle, 0, 16)).extracting(Line::text)
        .containsExactly("{\"a\":1}", "{\"b\":2}", "{\"c\":3}");
  }

  @Test
  void ready_saysWhetherTheNextLineNeedsTheStream() throws IOException {
    java.io.PipedOutputStream feed = new java.io.PipedOutputStream();
    java.io.PipedInputStream pipe = new java.io.PipedInputStream(feed, 1024);
    try (JsonLines r = new JsonLines(pipe, 0, 64)) {
      assertThat(r.ready()).isFalse();
      feed.write("{}\n{\"a\"".getBytes(StandardCharsets.UTF_8));
      assertThat(r.ready()).isTrue();
      assertThat(r.next()).isTrue();
      assertThat(r.ready()).as("half a line buffered, nothing more in the pipe").isFalse();
      feed.write(":1}\n".getBytes(StandardCharsets.UTF_8));
      feed.close();
      assertThat(r.ready()).isTrue();
      assertThat(r.next()).isTrue();
      assertThat(r.lineLength()).isEqualTo(7);
      assertThat(r.next()).isFalse();
      assertThat(r.ready()).isTrue();
    }
  }

  @Test
  void emptyInput_hasNoLines() throws IOException {
    assertThat(read("", 0, 16)).isEmpty();
  }
}
