/**
 * The {@code handoff} command line: simulate, sweep and replay deterministic fault simulations
 * and write their reports. A program, not a library: it exports nothing, and opens its command
 * package only to picocli, which reads the commands' annotations and sets their fields.
 */
module dev.handoff.cli {
  requires dev.handoff.simulator;
  requires info.picocli;

  opens dev.handoff.cli to info.picocli;
}
