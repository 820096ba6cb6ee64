package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code ingest} examples run as written: read from README.md, with the server's
 * URL and the output paths put into a temporary directory, against the shared 18.16 server.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class ReadmeIngestExamplesTest {

  @TempDir
  Path dir;

  static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  /** The lines of the README's bash block that holds the ingest examples. */
  static List<String> commands() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    int at = readme.indexOf("./handoff ingest --url");
    int start = readme.lastIndexOf("```bash\n", at) + "```bash\n".length();
    int end = readme.indexOf("```", at);
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String l : readme.substring(start, end).split("\n")) {
      if (l.endsWith("\\")) {
        line.append(l, 0, l.length() - 1);
      } else {
        lines.add(line.append(l).toString().strip());
        line.setLength(0);
      }
    }
    return lines;
  }

  /** Splits a command line like a shell: blanks separate, single quotes group. */
  static List<String> words(String command) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (char c : command.toCharArray()) {
      if (c == '\'') {
        quoted = !quoted;
        any = true;
      } else if (c == ' ' && !quoted) {
        if (any) {
          words.add(w.toString());
          w.setLength(0);
          any = false;
        }
      } else {
        w.append(c);
        any = true;
      }
    }
    if (any) {
      words.add(w.toString());
    }
    return words;
  }

  /** The arguments after {@code ./handoff}, with the URL and output paths made the test's. */
  private String[] args(String command, ClickHouseServer server) {
    List<String> w = words(command.substring(command.indexOf("./handoff ingest") + 10));
    for (int i = 0; i < w.size() - 1; i++) {
      switch (w.get(i)) {
        case "--url" -> w.set(i + 1, server.httpUrl());
        case "--out", "--checkpoint" -> w.set(i + 1, dir.resolve(w.get(i + 1)).toString());
        case "--input" -> {
          if (!w.get(i + 1).equals("-")) {
            w.set(i + 1, ROOT.resolve(w.get(i + 1)).toString());
          }
        }
        default -> { }
      }
    }
    return w.toArray(new String[0]);
  }

  @Test
  void theReadmesIngestExamples_runAsWritten() throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    List<String> commands = commands();
    assertThat(commands).hasSize(4);

    assertThat(commands.get(0)).isEqualTo("clickhouse-client --multiquery < examples/orders.sql");
    server.execute("DROP TABLE IF EXISTS shop.orders");
    for (String sql : Files.readString(ROOT.resolve("examples/orders.sql")).split(";")) {
      if (!sql.isBlank()) {
        server.execute(sql.strip());
      }
    }

    CommandLineTest.Run load = CommandLineTest.run(args(commands.get(1), server));
    assertThat(load.exit()).as(load.err() + load.out()).isZero();
    assertThat(MixedRows.summary(load.out()).get("rowsWritten").asLong()).isEqualTo(5);
    assertThat(server.query("SELECT count(), sum(amount) FROM shop.orders").strip())
        .isEqualTo("5\t162.74");

    String piped = commands.get(2);
    assertThat(piped).startsWith("printf '");
    String text = piped.substring(8, piped.lastIndexOf('\'', piped.indexOf("| ./handoff")))
        .replace("\\n", "\n");
    InputStream stdin = System.in;
    CommandLineTest.Run out;
    try {
      System.setIn(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
      out = CommandLineTest.run(args(piped, server));
    } finally {
      System.setIn(stdin);
    }
    assertThat(out.exit()).as(out.err() + out.out()).isZero();
    assertThat(MixedRows.summary(out.out()).get("rowsWritten").asLong()).isEqualTo(2);
    assertThat(dir.resolve("inserts/structure.txt")).exists();

    CommandLineTest.Run bad = CommandLineTest.run(args(commands.get(3), server));
    assertThat(bad.exit()).as(bad.err() + bad.out()).isZero();
    JsonNode s = MixedRows.summary(bad.out());
    assertThat(s.get("rowsWritten").asLong()).isEqualTo(2);
    assertThat(s.get("rowsSkipped").asLong()).isEqualTo(6);
    assertThat(bad.err()).contains("ingest: skipped line 6 (byte offset 131): column \"small\""
        + " (UInt8): value 256 (LONG) is out of range 0..255");
  }
}
