package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/*
 * The launcher's compile commands name methods by their text: a renamed or moved method would
 * silently drop out of C1's inlining (the JVM matches patterns and reports no missing method), so
 * the file is checked against the classes here.
 */
final class CompileCommandsTest {
  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final Path FILE = MODULE.resolve("jvm/compile-commands.txt");

  @Test
  void everyInlinedMethod_existsInTheJar() throws IOException {
    List<String> missing = new ArrayList<>();
    List<String> inlined = new ArrayList<>();
    for (String line : Files.readAllLines(FILE)) {
      String command = line.strip();
      if (command.isEmpty() || command.startsWith("#") || command.equals("quiet")) {
        continue;
      }
      assertThat(command).as("a command of %s", FILE).startsWith("inline ");
      String pattern = command.substring("inline ".length());
      int sep = pattern.indexOf("::");
      assertThat(sep).as("class::method in '%s'", command).isPositive();
      String className = pattern.substring(0, sep);
      String methodName = pattern.substring(sep + 2);
      inlined.add(pattern);
      if (!declares(className, methodName)) {
        missing.add(pattern);
      }
    }
    assertThat(inlined).as("inlined methods").hasSizeGreaterThan(10);
    assertThat(missing).as("methods of %s that no class declares", FILE).isEmpty();
  }

  @Test
  void theJvm_readsTheFile_andPrintsNothingOnStdout() throws Exception {
    // A malformed line is reported on stdout (and the rest of its line ignored), and without
    // "quiet" each command is echoed there: either would land in the summary's JSON.
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-XX:CompileCommandFile=" + FILE, "-version")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(stdout).as("what the JVM printed on stdout for %s", FILE).isEmpty();
  }

  @Test
  void theLauncher_passesTheFileToAnIngest() throws IOException {
    String launcher = Files.readString(MODULE.getParent().resolve("handoff"));
    assertThat(launcher)
        .contains("-XX:CompileCommandFile=$root/handoff-cli/jvm/compile-commands.txt");
  }

  private static boolean declares(String className, String methodName) {
    Class<?> type;
    try {
      type = Class.forName(className, false, CompileCommandsTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return false;
    }
    return Arrays.stream(type.getDeclaredMethods()).map(Method::getName)
        .anyMatch(methodName::equals);
  }
}
