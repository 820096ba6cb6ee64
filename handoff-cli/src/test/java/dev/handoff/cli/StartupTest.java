package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * What {@link Main#main} does to start quickly: it builds only the subcommand it runs, which must
 * behave as in the full command.
 */
final class StartupTest {

  private static String run(CommandLine cl, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return exit + "\n" + out + "\n" + err;
  }

  @Test
  void aSubcommandNamedFirst_isTheOnlyOneBuilt() {
    for (String name : new String[] {"simulate", "sweep", "replay", "ingest"}) {
      assertThat(Main.commandLine(name).getSubcommands().keySet()).containsExactly(name);
    }
  }

  @Test
  void anythingElseFirst_buildsEverySubcommand() {
    for (String first : new String[] {null, "--help", "-h", "ingset", "Ingest", ""}) {
      assertThat(Main.commandLine(first).getSubcommands().keySet())
          .containsExactly("simulate", "sweep", "replay", "ingest");
    }
  }

  @Test
  void theOneSubcommand_answersAsInTheFullCommand() {
    String[][] cases = {
        {"ingest", "--help"},
        {"ingest", "--input", "/no/such/file", "--table", "db.t"},
        {"ingest", "--input", "-", "--table", "t"},
        {"ingest", "--nope"},
        {"ingest", "--input", "-", "--table", "db.t", "--linger", "soon"},
        {"simulate", "--help"},
        {"simulate", "--seed", "1", "--nope=1"},
        {"sweep", "--help"},
        {"replay", "--help"},
        {"replay", "--seed", "x"},
    };
    for (String[] args : cases) {
      assertThat(run(Main.commandLine(args[0]), args)).as(String.join(" ", args))
          .isEqualTo(run(Main.commandLine(), args));
    }
  }

  @Test
  void theSubcommandsOptions_areThoseOfTheFullCommand() {
    Map<String, CommandLine> full = Main.commandLine().getSubcommands();
    for (String name : full.keySet()) {
      CommandLine one = Main.commandLine(name).getSubcommands().get(name);
      assertThat(one.getCommandSpec().optionsMap().keySet()).as(name)
          .containsExactlyInAnyOrderElementsOf(
              full.get(name).getCommandSpec().optionsMap().keySet());
      assertThat(one.getUsageMessage()).as(name).isEqualTo(full.get(name).getUsageMessage());
    }
  }
}
