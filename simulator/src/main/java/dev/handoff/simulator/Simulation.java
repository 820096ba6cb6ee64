package dev.handoff.simulator;

import java.util.Objects;

/**
 * Runs one deterministic simulation: the real core stage, queues, budget, acknowledgements and
 * driver, fed by simulated sources and drained by simulated sink workers under one seeded event
 * scheduler and a virtual clock, with the faults the options switch on and every oracle checked
 * after every event.
 */
public final class Simulation {

  private Simulation() {}

  /**
   * Runs {@code options} to the end and returns the report (with time series). Equal options give
   * equal reports apart from the wall-clock fields.
   */
  public static SimulationResult run(SimulationOptions options) {
    return run(options, true);
  }

  /** Runs {@code options}; {@code series} says whether to sample time series (sweeps skip it). */
  static SimulationResult run(SimulationOptions options, boolean series) {
    Objects.requireNonNull(options, "options");
    return new SimulationResult(options, new Engine(options, series).run());
  }
}
