package dev.handoff.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;

/**
 * The top command, {@code handoff}. It does nothing by itself; its subcommands do the work. A new
 * subcommand is added to {@link Main}'s list of subcommands (picocli builds a subcommand's options
 * only when {@link Main} adds it, so that a run builds only the one it runs). This command's model
 * is built by {@link #spec}, not from annotations, as {@code ingest}'s is ({@link IngestOptions}
 * says why).
 */
public final class HandoffCommand implements Runnable {

  private CommandSpec spec;

  /** Creates the command. */
  public HandoffCommand() {}

  /**
   * Returns this command's model: its name, help and {@code -h}, which every subcommand inherits.
   *
   * @return the model, made at the first call
   */
  public CommandSpec spec() {
    if (spec == null) {
      spec = CommandSpec.wrapWithoutInspection(this).name("handoff");
      Map<String, String> exits = new LinkedHashMap<>();
      exits.put("0", "every oracle passed");
      exits.put("1", "an oracle failed (the output names it and prints the replay command)");
      exits.put("2", "usage error (unknown option, bad knob value, missing seed)");
      exits.put("3", "the run could not be done (a report file not writable, an internal error)");
      spec.usageMessage()
          .description("Deterministic fault simulations of the handoff stage: one seed, a seed"
              + " range, or a replay of a printed run; and ingest, which reads JSON lines into"
              + " ClickHouse.")
          .synopsisSubcommandLabel("COMMAND")
          .commandListHeading("%nCommands:%n")
          .exitCodeListHeading("%nExit status:%n")
          .exitCodeList(exits);
      spec.addOption(OptionSpec.builder("-h", "--help")
          .usageHelp(true)
          .scopeType(ScopeType.INHERIT)
          .description("Show this help and exit.")
          .build());
    }
    return spec;
  }

  /** Fails with a usage error: a subcommand is required. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "missing command (simulate, sweep, replay or ingest)");
  }
}
