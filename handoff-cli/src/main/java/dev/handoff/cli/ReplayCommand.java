package dev.handoff.cli;

import dev.handoff.simulator.SimulationOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code handoff replay --seed N --<knob>=value ...}: runs exactly the configuration given (every
 * knob not given takes its default, nothing is drawn from the seed), as printed by {@code
 * simulate} and {@code sweep}, and prints the event-log hash to compare with the original run.
 */
@Command(
    name = "replay",
    sortOptions = false,
    customSynopsis = "handoff replay --seed <seed> [--<knob>=<value>...] [OPTIONS]",
    modelTransformer = KnobOptions.Defaults.class,
    description = {
        "Replays a run from its printed replay command: the seed and the knobs given, every other"
            + " knob at its default (nothing is drawn from the seed). The event-log hash it prints"
            + " equals the original run's."})
final class ReplayCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--seed", required = true, paramLabel = "<seed>", description = "The seed.")
  long seed;

  @Mixin
  RunReportOptions report;

  ReplayCommand() {}

  @Override
  public Integer call() {
    SimulationOptions options =
        KnobOptions.apply(spec, SimulationOptions.defaults(seed), KnobOptions.given(spec));
    return RunOutput.runAndPrint(spec, "replay", options, report.json, report.html,
        report.shrink);
  }
}
