/**
 * The simulation engine: options, one run, sweeps, shrinking and replay. Everything that affects a
 * run is derived from its seed and options: one event scheduler, a virtual clock, no threads, no
 * wall clock, no unordered hash iteration.
 */
package dev.handoff.simulator;
