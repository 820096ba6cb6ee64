package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.simulator.Knob;
import dev.handoff.simulator.SimulationOptions;
import dev.handoff.simulator.report.JsonReport;
import dev.handoff.simulator.report.SimulationReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs the {@code handoff} command in-process, as a user would, with captured output. */
final class CommandLineTest {

  /** The outcome of one command: exit status, standard output and standard error. */
  record Run(int exit, String out, String err) {
    String line(String label) {
      return out.lines().map(String::strip).filter(l -> l.startsWith(label + " "))
          .map(l -> l.substring(label.length()).strip()).findFirst()
          .orElseThrow(() -> new AssertionError("no '" + label + "' line in:\n" + out));
    }
  }

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void help_listsTheCommands() {
    Run r = run("--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("simulate", "sweep", "replay", "Exit status:");
  }

  @Test
  void help_listsEveryKnobWithItsDefault() {
    Run simulate = run("simulate", "--help");
    Run replay = run("replay", "--help");
    // Help wraps long descriptions; compare with single spaces.
    String simulateHelp = simulate.out().replaceAll("\\s+", " ");
    String replayHelp = replay.out().replaceAll("\\s+", " ");

    assertThat(simulate.exit()).isZero();
    assertThat(replay.exit()).isZero();
    for (Knob k : SimulationOptions.knobs()) {
      assertThat(simulateHelp).contains("--" + k.name() + "=")
          .contains("default " + k.defaultValue() + "; the swarm draws it from the seed unless"
              + " given");
      assertThat(replayHelp).contains("--" + k.name() + "=")
          .contains("(default " + k.defaultValue() + ")");
    }
    Knob first = SimulationOptions.knobs().get(0);
    assertThat(simulateHelp).contains(first.description()).contains("--seed", "--json", "--html");
  }

  @Test
  void everyKnob_isAnOptionOfSimulateAndReplay() {
    CommandLine cl = Main.commandLine();
    for (String command : new String[] {"simulate", "sweep", "replay"}) {
      var options = cl.getSubcommands().get(command).getCommandSpec().optionsMap();
      for (Knob k : SimulationOptions.knobs()) {
        assertThat(options).as(command).containsKey("--" + k.name());
      }
    }
  }

  @Test
  void badKnobValue_isAUsageErrorNamingTheKnobAndTheValue() {
    Knob knob = SimulationOptions.knobs().get(0);

    Run r = run("simulate", "--seed", "1", "--" + knob.name() + "=banana");

    assertThat(r.exit()).isEqualTo(Main.USAGE);
    assertThat(r.err()).contains(knob.name()).contains("banana").contains("--help");
    assertThat(r.out()).isEmpty();
    assertThat(run("replay", "--seed", "1", "--" + knob.name(), "banana").exit())
        .isEqualTo(Main.USAGE);
  }

  @Test
  void usageErrors_exitWithTwoAndAClearMessage() {
    Run unknown = run("simulate", "--seed", "1", "--no-such-knob=3");
    assertThat(unknown.exit()).isEqualTo(Main.USAGE);
    assertThat(unknown.err()).contains("--no-such-knob");

    Run noSeed = run("simulate");
    assertThat(noSeed.exit()).isEqualTo(Main.USAGE);
    assertThat(noSeed.err()).contains("--seed");

    Run badSeed = run("replay", "--seed", "forty-two");
    assertThat(badSeed.exit()).isEqualTo(Main.USAGE);
    assertThat(badSeed.err()).contains("forty-two");

    Run backwards = run("sweep", "--seeds", "9..3");
    assertThat(backwards.exit()).isEqualTo(Main.USAGE);
    assertThat(backwards.err()).contains("9..3");

    Run noThreads = run("sweep", "--seeds", "1..2", "--threads", "0");
    assertThat(noThreads.exit()).isEqualTo(Main.USAGE);
    assertThat(noThreads.err()).contains("--threads=0");

    Run noEncoder = run("simulate", "--seed", "1", "--encoder=no-such-encoder");
    assertThat(noEncoder.exit()).isEqualTo(Main.USAGE);
    assertThat(noEncoder.err()).contains("no-such-encoder").doesNotContain("\tat ");

    Run nothing = run();
    assertThat(nothing.exit()).isEqualTo(Main.USAGE);
    assertThat(nothing.err()).contains("missing command");
  }

  @Test
  void simulate_writesTheJsonAndHtmlReports(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("out/report.json");
    Path html = dir.resolve("out/report.html");

    Run r = run("simulate", "--seed", "42", "--json", json.toString(), "--html", html.toString());

    assertThat(r.exit()).as(r.out() + r.err()).isIn(Main.OK, Main.ORACLE_FAILED);
    assertThat(r.out()).startsWith("handoff simulate: seed 42 ").contains(json.toString());
    SimulationReport report = JsonReport.readReport(Files.readString(json));
    assertThat(report.seed()).isEqualTo(42);
    assertThat(report.configuration()).containsOnlyKeys(SimulationOptions.swarm(42).describe()
        .keySet());
    assertThat(r.line(RunOutput.HASH_LABEL)).isEqualTo(JsonReport.hash(report.eventLogHash()));
    String page = Files.readString(html);
    assertThat(page).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
        .contains(JsonReport.hash(report.eventLogHash()));
    assertThat(count(page, "<svg ")).isEqualTo(count(page, "</svg>"));
    assertThat(count(page, "<section")).isEqualTo(count(page, "</section>"));
    if (!report.series().isEmpty()) {
      assertThat(page).contains("data-group=\"" + report.series().get(0).group() + "\"");
    }
  }

  @Test
  void simulate_twiceWritesTheSameReportApartFromWallClockFigures(@TempDir Path dir)
      throws Exception {
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");

    run("simulate", "--seed", "1234", "--json", a.toString());
    run("simulate", "--seed", "1234", "--json", b.toString());

    assertThat(withoutWallClock(JsonReport.readReport(Files.readString(a))))
        .isEqualTo(withoutWallClock(JsonReport.readReport(Files.readString(b))));
  }

  @Test
  void simulate_knobsGivenOverrideTheSwarm() {
    Knob knob = SimulationOptions.knobs().get(0);
    String value = knob.defaultValue();

    Run r = run("simulate", "--seed", "5", "--" + knob.name() + "=" + value);

    assertThat(r.line("replay")).contains(" --" + knob.name() + "=" + value + " ")
        .startsWith("./handoff replay --seed 5 ");
  }

  @Test
  void replay_ofThePrintedCommandGivesTheSameEventLogHash() {
    Run first = run("simulate", "--seed", "42");

    Run again = replay(first);

    assertThat(again.exit()).isEqualTo(first.exit());
    assertThat(again.line(RunOutput.HASH_LABEL)).isEqualTo(first.line(RunOutput.HASH_LABEL));
    assertThat(again.line("replay")).isEqualTo(first.line("replay"));
  }

  @Test
  void mutation_failsAnOracleWithExitOneAndReplaysToTheSameHash() {
    assumeTrue(SimulationOptions.knobs().stream().anyMatch(k -> k.name().equals("mutation")),
        "the simulator has no mutation knob");
    Run failed = null;
    for (int seed = 1; seed <= 30 && failed == null; seed++) {
      Run r = run("simulate", "--seed", Integer.toString(seed), "--mutation=drop-record");
      assertThat(r.exit()).as(r.err()).isIn(Main.OK, Main.ORACLE_FAILED);
      if (r.exit() == Main.ORACLE_FAILED) {
        failed = r;
      }
    }

    assertThat(failed).as("drop-record caught within 30 seeds").isNotNull();
    assertThat(failed.out()).contains("FAILED").contains("replay");
    Run again = replay(failed);
    assertThat(again.exit()).isEqualTo(Main.ORACLE_FAILED);
    assertThat(again.line(RunOutput.HASH_LABEL)).isEqualTo(failed.line(RunOutput.HASH_LABEL));
  }

  @Test
  void shrink_printsASmallerRunThatStillFails() {
    assumeTrue(SimulationOptions.knobs().stream().anyMatch(k -> k.name().equals("mutation")),
        "the simulator has no mutation knob");
    Run shrunk = null;
    for (int seed = 1; seed <= 30 && shrunk == null; seed++) {
      Run r = run("simulate", "--seed", Integer.toString(seed), "--mutation=drop-record",
          "--shrink");
      if (r.exit() == Main.ORACLE_FAILED) {
        shrunk = r;
      }
    }

    assertThat(shrunk).as("drop-record caught within 30 seeds").isNotNull();
    String[] lines = shrunk.out().split("\n");
    int at = Arrays.asList(lines).indexOf(Arrays.stream(lines)
        .filter(l -> l.startsWith("shrunk to the smallest run")).findFirst().orElseThrow());
    String command = lines[at + 2].strip();
    assertThat(command).startsWith("./handoff replay --seed ").contains("--mutation=drop-record");
    Run replayed = run(command.substring("./handoff ".length()).split(" "));
    assertThat(replayed.exit()).as(replayed.out()).isEqualTo(Main.ORACLE_FAILED);
  }

  @Test
  void sweep_printsProgressAndASummaryAndWritesJson(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("sweep.json");

    Run r = run("sweep", "--seeds", "1..12", "--threads", "2", "--json", json.toString());

    assertThat(r.exit()).as(r.out() + r.err()).isIn(Main.OK, Main.ORACLE_FAILED);
    assertThat(r.out()).startsWith("handoff sweep: seeds 1..12 ").contains("12 run")
        .contains("records/s");
    assertThat(r.err()).contains("sweep: 12 of 12 seeds (100%)");
    assertThat(Files.readString(json)).startsWith("{")
        .contains("\"format\" : \"" + JsonReport.SWEEP_FORMAT + "\"")
        .contains("\"seedsRun\" : 12");
    if (r.exit() == Main.ORACLE_FAILED) {
      assertThat(r.out()).contains("./handoff replay --seed ");
    }
  }

  @Test
  void sweep_pinsTheKnobsGivenOverEverySeed() {
    assumeTrue(SimulationOptions.knobs().stream().anyMatch(k -> k.name().equals("mutation")),
        "the simulator has no mutation knob");

    Run r = run("sweep", "--seeds", "1..20", "--threads", "2", "--mutation=drop-record");

    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(Main.ORACLE_FAILED);
    assertThat(r.out()).contains("no-loss").contains("--mutation=drop-record");
    assertThat(r.err()).contains("FAILED");
    Run bad = run("sweep", "--seeds", "1..2", "--mutation=no-such-mutation");
    assertThat(bad.exit()).isEqualTo(Main.USAGE);
    assertThat(bad.err()).contains("mutation").contains("no-such-mutation");
  }

  @Test
  void seedRange_parsesRangesAndSingleSeeds() {
    assertThat(SeedRange.parse("1..1000")).isEqualTo(new SeedRange(1, 1000));
    assertThat(SeedRange.parse("7")).isEqualTo(new SeedRange(7, 7));
    assertThat(SeedRange.parse("-3..-1")).isEqualTo(new SeedRange(-3, -1));
    assertThatThrownBy(() -> SeedRange.parse("1-5")).hasMessageContaining("A..B");
    assertThatThrownBy(() -> SeedRange.parse("5..1")).hasMessageContaining("ends before");
    assertThatThrownBy(() -> SeedRange.parse("1..99999999999999999999"))
        .hasMessageContaining("out of range");
  }

  /** Returns the report's JSON with the wall-clock figures zeroed. */
  private static String withoutWallClock(SimulationReport r) {
    return JsonReport.toJson(new SimulationReport(r.seed(), r.configuration(), r.replayCommand(),
        r.eventLogHash(), r.events(), r.simulatedTicks(), 0, 0, 0, r.faultsInjected(),
        r.oracles(), r.records(), r.series(), r.faultMarkers(), r.lastEvents()));
  }

  /** Runs the command printed on the run's replay line. */
  private static Run replay(Run printed) {
    String command = printed.line("replay");
    assertThat(command).startsWith("./handoff replay ");
    String[] args = command.substring("./handoff ".length()).split(" ");
    return run(Arrays.copyOf(args, args.length));
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
