package dev.handoff.simulator.report;

import java.util.Objects;

/**
 * When a fault was injected, for the charts' fault markers.
 *
 * @param tick the simulated time of the injection
 * @param fault the fault kind, as in {@link SimulationReport#faultsInjected()}
 * @param detail where it hit (for example {@code "shard 1, 40 ticks"})
 */
public record FaultMarker(long tick, String fault, String detail) {

  /** Checks that no component is null. */
  public FaultMarker {
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(detail, "detail");
  }
}
