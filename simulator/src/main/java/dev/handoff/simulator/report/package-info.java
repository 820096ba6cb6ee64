/**
 * What a simulation reports: {@link dev.handoff.simulator.report.SimulationReport} for one run,
 * {@link dev.handoff.simulator.report.SweepSummary} for a seed range, and their JSON and HTML
 * renderings. Plain values: the engine fills them, the writers read them.
 */
package dev.handoff.simulator.report;
