package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * What {@link Main#main} does to start and end quickly: it builds only the subcommand it runs,
 * which must behave as in the full command, and ends the JDK's HTTP client threads before the
 * exit.
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

  @Test
  void stop_endsTheSelectorThreadOfEveryHttpClient() {
    Set<Thread> before = selectorThreads();
    // Each holds a JDK HTTP client, whose selector thread starts with it.
    ClickHouseHttp a = ClickHouseHttp.create(ClickHouseHttpOptions.defaults());
    ClickHouseHttp b = ClickHouseHttp.create(ClickHouseHttpOptions.defaults());
    Set<Thread> ours = selectorThreads();
    ours.removeAll(before); // other tests' clients (the test servers') keep theirs
    assertThat(ours).hasSize(2);

    assertThat(JdkHttpThreads.stop(ours)).isEqualTo(2);

    assertThat(ours).noneMatch(Thread::isAlive);
    assertThat(before).allMatch(Thread::isAlive);
    assertThat(JdkHttpThreads.stop(List.of(Thread.currentThread()))).isZero();
    assertThat(a).isNotSameAs(b); // both clients lived until here
  }

  private static Set<Thread> selectorThreads() {
    Set<Thread> out = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith("HttpClient-")
          && t.getName().endsWith("-SelectorManager")) {
        out.add(t);
      }
    }
    return out;
  }
}
