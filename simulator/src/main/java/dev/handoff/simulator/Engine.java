package dev.handoff.simulator;

import dev.handoff.simulator.report.OracleResult;
import dev.handoff.simulator.report.SimulationReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One run (placeholder until the engine lands). */
final class Engine {
  private final SimulationOptions options;

  Engine(SimulationOptions options, boolean series) {
    this.options = options;
  }

  SimulationReport run() {
    Map<String, Long> faults = new LinkedHashMap<>();
    Faults.NAMES.forEach(f -> faults.put(f, 0L));
    List<OracleResult> oracles = new ArrayList<>();
    Oracles.NAMES.forEach(o -> oracles.add(new OracleResult(o, true, 0, null, -1)));
    return new SimulationReport(options.seed(), options.describe(), options.replayCommand(), 0,
        0, 0, 0, 0, 0, faults, oracles, new LinkedHashMap<>(), List.of(), List.of(), List.of());
  }
}
