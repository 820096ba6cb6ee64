package dev.handoff.simulator.report;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one simulation run did and found: the configuration it ran, the faults it injected, every
 * oracle it checked, what happened to the records, and time series over simulated time. The JSON
 * and HTML reports are renderings of this value and nothing else.
 *
 * <p>Maps keep their insertion order (the engine fills them with {@link java.util.LinkedHashMap}),
 * so two runs of the same seed render byte-identical reports apart from the wall-clock fields
 * ({@code wallNanos}, {@code eventsPerSecond}, {@code recordsPerSecond}).
 *
 * @param seed the seed of the run
 * @param configuration every knob of the run and its value, in knob order
 * @param replayCommand the one command that replays this run exactly
 * @param eventLogHash a hash of the full event log: equal for equal seeds and configurations
 * @param events how many events the scheduler ran
 * @param simulatedTicks the virtual time at the end of the run, in ticks
 * @param wallNanos the wall-clock time the run took
 * @param eventsPerSecond events per wall-clock second
 * @param recordsPerSecond source records per wall-clock second
 * @param faultsInjected every fault kind and how often it was injected, zeros included
 * @param oracles every oracle checked, in check order
 * @param records record outcomes by name ({@code generated}, {@code delivered}, {@code skipped},
 *     {@code replayed}, {@code duplicated}, {@code lost}, {@code unexpected}, ...)
 * @param series time series over simulated time (empty when the run did not record them)
 * @param faultMarkers when each fault happened, for the charts
 * @param lastEvents the events leading to the first oracle failure, oldest first (empty when every
 *     oracle passed)
 * @param lifetimes the process lifetimes, oldest first: how each ended, its teardown and the
 *     workers' shutdown, and what the sink workers did in it (empty when not recorded)
 */
public record SimulationReport(
    long seed,
    Map<String, String> configuration,
    String replayCommand,
    long eventLogHash,
    long events,
    long simulatedTicks,
    long wallNanos,
    double eventsPerSecond,
    double recordsPerSecond,
    Map<String, Long> faultsInjected,
    List<OracleResult> oracles,
    Map<String, Long> records,
    List<Series> series,
    List<FaultMarker> faultMarkers,
    List<String> lastEvents,
    List<Lifetime> lifetimes) {

  /** Checks that no component is null; copies nothing (the engine hands over fresh values). */
  public SimulationReport {
    Objects.requireNonNull(configuration, "configuration");
    Objects.requireNonNull(replayCommand, "replayCommand");
    Objects.requireNonNull(faultsInjected, "faultsInjected");
    Objects.requireNonNull(oracles, "oracles");
    Objects.requireNonNull(records, "records");
    Objects.requireNonNull(series, "series");
    Objects.requireNonNull(faultMarkers, "faultMarkers");
    Objects.requireNonNull(lastEvents, "lastEvents");
    Objects.requireNonNull(lifetimes, "lifetimes");
  }

  /** A report without lifetimes (a report written before they were recorded, or a test's). */
  public SimulationReport(long seed, Map<String, String> configuration, String replayCommand,
      long eventLogHash, long events, long simulatedTicks, long wallNanos, double eventsPerSecond,
      double recordsPerSecond, Map<String, Long> faultsInjected, List<OracleResult> oracles,
      Map<String, Long> records, List<Series> series, List<FaultMarker> faultMarkers,
      List<String> lastEvents) {
    this(seed, configuration, replayCommand, eventLogHash, events, simulatedTicks, wallNanos,
        eventsPerSecond, recordsPerSecond, faultsInjected, oracles, records, series, faultMarkers,
        lastEvents, List.of());
  }

  /** Returns whether every oracle passed. */
  public boolean passed() {
    for (OracleResult o : oracles) {
      if (!o.passed()) {
        return false;
      }
    }
    return true;
  }
}
