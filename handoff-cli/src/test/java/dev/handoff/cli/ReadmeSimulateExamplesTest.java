package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code simulate}, {@code sweep} and {@code replay} examples run as written (the
 * report file goes to a temporary directory) and do what the README says: the showcase seed
 * passes with faults of several kinds and writes its report, the sweep passes, and the
 * {@code --mutation} replay fails on purpose, naming the oracle that caught it.
 */
final class ReadmeSimulateExamplesTest {

  @TempDir
  Path dir;

  /** The lines of the README's bash block that holds the simulator examples, comments cut. */
  static List<String> commands() throws Exception {
    String readme = Files.readString(ReadmeIngestExamplesTest.ROOT.resolve("README.md"));
    int at = readme.indexOf("./handoff simulate --seed");
    int start = readme.lastIndexOf("```bash\n", at) + "```bash\n".length();
    int end = readme.indexOf("```", at);
    List<String> lines = new ArrayList<>();
    for (String l : readme.substring(start, end).split("\n")) {
      int comment = l.indexOf("  #");
      lines.add((comment >= 0 ? l.substring(0, comment) : l).strip());
    }
    return lines;
  }

  @Test
  void theSimulatorExamplesRunAsWrittenAndDoWhatTheReadmeSays() throws Exception {
    List<String> commands = commands();
    assertThat(commands).hasSize(3);
    for (String command : commands) {
      assertThat(command).startsWith("./handoff ");
      List<String> words = ReadmeIngestExamplesTest.words(command.substring(10));
      for (int i = 0; i < words.size() - 1; i++) {
        if (words.get(i).equals("--html") || words.get(i).equals("--json")) {
          words.set(i + 1, dir.resolve(words.get(i + 1)).toString());
        }
      }
      CommandLineTest.Run r = CommandLineTest.run(words.toArray(String[]::new));
      switch (words.get(0)) {
        case "simulate" -> {
          assertThat(r.exit()).as(command + "\n" + r.out() + r.err()).isEqualTo(Main.OK);
          // Faults of several kinds, as the README's text says (not counting the conditions
          // the engine only observes).
          // The faults line wraps: take it up to the oracles line.
          String out = r.out();
          int from = out.indexOf("  faults ");
          String faults = out.substring(from + 9, out.indexOf("  oracles ", from))
              .replaceAll("\\s+", " ").strip();
          long kinds = faults.chars().filter(c -> c == ',').count() + 1
              - (faults.contains("budget-limit") ? 1 : 0)
              - (faults.contains("queue-pressure") ? 1 : 0);
          assertThat(kinds).as(faults).isGreaterThanOrEqualTo(5);
          assertThat(faults).contains("restart", "teardown", "sink-timeout", "sink-permanent",
              "dead-letter-error");
          Path html = dir.resolve("report.html");
          assertThat(Files.readString(html)).contains("<section id=\"workers\">",
              "<rect class=\"shutdown\"", "<g class=\"fault-marker\"");
        }
        case "sweep" -> assertThat(r.exit()).as(command + "\n" + r.out() + r.err())
            .isEqualTo(Main.OK);
        default -> {
          assertThat(words.get(0)).isEqualTo("replay");
          // The negative control: it fails on purpose and names the oracle that caught it.
          assertThat(r.exit()).as(command + "\n" + r.out() + r.err())
              .isEqualTo(Main.ORACLE_FAILED);
          assertThat(r.out() + r.err()).contains("no-loss");
        }
      }
    }
  }
}
