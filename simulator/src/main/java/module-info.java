import dev.handoff.api.spi.RowEncoderProvider;

/**
 * The deterministic fault simulator: drives the real core stage ({@code dev.handoff.core}) under
 * one seeded event scheduler and a virtual clock, injects faults, checks named oracles after
 * every event, and reports (JSON and HTML) what it found.
 */
module dev.handoff.simulator {
  requires transitive dev.handoff.core;
  requires com.fasterxml.jackson.databind;

  exports dev.handoff.simulator;
  exports dev.handoff.simulator.report;

  uses RowEncoderProvider;
  uses dev.handoff.api.spi.ShardRouterProvider;
}
