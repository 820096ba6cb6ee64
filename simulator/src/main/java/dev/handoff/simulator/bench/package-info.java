/**
 * A benchmark mode of the simulator ({@link dev.handoff.simulator.bench.SimulatorBenchmark}):
 * measures simulated records per second and sweep wall time. Not exported; run it with {@code
 * java -p ... -m dev.handoff.simulator/dev.handoff.simulator.bench.SimulatorBenchmark}.
 */
package dev.handoff.simulator.bench;
