/**
 * The simulation engine: options, one run, sweeps, shrinking and replay.
 *
 * <p><b>Determinism contract.</b> Everything that affects a run is derived from its seed and its
 * options ({@link dev.handoff.simulator.SimulationOptions}): one event scheduler ordered by
 * virtual time with ties broken by scheduling order, one virtual clock (ticks of one millisecond)
 * handed to the core classes as their {@link dev.handoff.api.HandoffClock}, and seeded generators
 * (SplitMix64) for every random decision. A run uses no threads, reads no wall clock (the one
 * class that does, {@code WallClock}, only measures how long a run took) and iterates no
 * unordered hash structure. Equal options therefore give equal event logs (see {@link
 * dev.handoff.simulator.report.SimulationReport#eventLogHash()}) and equal reports apart from the
 * wall-clock fields.
 *
 * <p><b>Concurrency contract.</b> {@link dev.handoff.simulator.Simulation#run} runs one
 * simulation on the calling thread and shares no mutable state with other runs, so independent
 * runs may execute on different threads at once; {@link dev.handoff.simulator.Sweep} does that
 * on a small pool and still reports in seed order. The core's acknowledgement leak detector runs
 * on its own thread; the engine resolves every acknowledgement explicitly, and treats a
 * resolution from any other thread as an {@code acks-resolved} failure.
 *
 * <p>What the engine models, every fault and every oracle: {@code docs/simulator.md}.
 */
package dev.handoff.simulator;
