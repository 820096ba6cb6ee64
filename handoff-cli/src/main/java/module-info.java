/**
 * The {@code handoff} command line: simulate, sweep and replay deterministic fault simulations
 * and write their reports; ingest JSON lines into ClickHouse. A program, not a library: it
 * exports nothing, and opens its command package only to picocli, which reads the commands'
 * annotations and sets their fields.
 */
module dev.handoff.cli {
  requires dev.handoff.simulator;
  requires dev.handoff.core;
  requires dev.handoff.clickhouse.types;
  requires dev.handoff.clickhouse.http;
  requires com.fasterxml.jackson.databind;
  requires info.picocli;

  opens dev.handoff.cli to info.picocli;
}
