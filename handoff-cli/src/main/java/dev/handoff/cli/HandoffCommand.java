package dev.handoff.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The top command, {@code handoff}. It does nothing by itself; its subcommands do the work. A new
 * subcommand is a class annotated with {@link Command} that is added to {@link Main}'s list of
 * subcommands (picocli builds a subcommand's options only when {@link Main} adds it, so that a
 * run builds only the one it runs).
 */
@Command(
    name = "handoff",
    description = "Deterministic fault simulations of the handoff stage: one seed, a seed range,"
        + " or a replay of a printed run; and ingest, which reads JSON lines into ClickHouse.",
    synopsisSubcommandLabel = "COMMAND",
    commandListHeading = "%nCommands:%n",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:every oracle passed",
        "1:an oracle failed (the output names it and prints the replay command)",
        "2:usage error (unknown option, bad knob value, missing seed)",
        "3:the run could not be done (a report file not writable, an internal error)"})
public final class HandoffCommand implements Runnable {

  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT,
      description = "Show this help and exit.")
  boolean help;

  /** Creates the command; picocli fills its fields. */
  public HandoffCommand() {}

  /** Fails with a usage error: a subcommand is required. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "missing command (simulate, sweep, replay or ingest)");
  }
}
