package dev.handoff.cli;

import dev.handoff.simulator.SimulationOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code handoff simulate --seed N [--<knob>=value ...]}: runs one seed whose configuration the
 * swarm draws from the seed, with the knobs given overriding it, and prints a one-screen summary
 * (and the failure, when an oracle failed).
 */
@Command(
    name = "simulate",
    sortOptions = false,
    customSynopsis = "handoff simulate --seed <seed> [--<knob>=<value>...] [OPTIONS]",
    modelTransformer = KnobOptions.Swarm.class,
    description = {
        "Runs one seed. The whole configuration is drawn from the seed (swarm), then every"
            + " --<knob> given overrides it. Prints a summary and, when an oracle failed, the"
            + " failure with the command that replays it."})
final class SimulateCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--seed", required = true, paramLabel = "<seed>",
      description = "The seed: it draws the configuration and drives every choice of the run.")
  long seed;

  @Mixin
  RunReportOptions report;

  SimulateCommand() {}

  @Override
  public Integer call() {
    SimulationOptions options =
        KnobOptions.apply(spec, SimulationOptions.swarm(seed), KnobOptions.given(spec));
    return RunOutput.runAndPrint(spec, "simulate", options, report.json, report.html,
        report.shrink);
  }
}
