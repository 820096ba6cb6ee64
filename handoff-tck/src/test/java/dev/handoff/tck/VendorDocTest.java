package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/vendors.md true: every code block marked {@code <!-- snippet: PATH -->} is exactly
 * the file at PATH (from the repository's root), so the example a vendor copies is the example
 * that compiles and passes the TCK here.
 */
final class VendorDocTest {
  private static final Path ROOT = Path.of("..");
  private static final String MARK = "<!-- snippet: ";

  @Test
  void everySnippetIsItsFileExactly() throws IOException {
    Map<String, String> snippets = snippets(Files.readAllLines(
        ROOT.resolve("docs/vendors.md"), StandardCharsets.UTF_8));

    assertThat(snippets.keySet()).as("the snippets of docs/vendors.md").containsExactly(
        "handoff-tck/src/test/java/dev/handoff/tck/example/TextLineEncoder.java",
        "handoff-tck/src/test/java/dev/handoff/tck/example/TextLineEncoderContractTest.java");
    for (Map.Entry<String, String> s : snippets.entrySet()) {
      String file = Files.readString(ROOT.resolve(s.getKey()), StandardCharsets.UTF_8);
      assertThat(s.getValue()).as("the block of docs/vendors.md marked %s must be that file,"
          + " copied exactly", s.getKey()).isEqualTo(file);
    }
  }

  /** The marked blocks: path to the block's text, each line ended by a line break. */
  private static Map<String, String> snippets(List<String> lines) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (!line.startsWith(MARK)) {
        continue;
      }
      String path = line.substring(MARK.length(), line.length() - "-->".length()).strip();
      assertThat(lines.get(i + 1)).as("the line after the mark of %s", path).isEqualTo("```java");
      StringBuilder block = new StringBuilder();
      int j = i + 2;
      for (; j < lines.size() && !lines.get(j).equals("```"); j++) {
        block.append(lines.get(j)).append('\n');
      }
      assertThat(j).as("the block of %s is closed", path).isLessThan(lines.size());
      out.put(path, block.toString());
      i = j;
    }
    return out;
  }
}
