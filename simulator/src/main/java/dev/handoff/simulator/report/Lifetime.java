package dev.handoff.simulator.report;

import java.util.Map;
import java.util.Objects;

/**
 * One process lifetime of a run and how it ended: when it started and ended, whether faults were
 * on, the teardown and the workers' shutdown (when it began, its deadline, whether the drain
 * finished) and what the sink workers did in it.
 *
 * @param epoch the lifetime's number, from 0
 * @param faulty whether faults were injected in it
 * @param startTick when it started
 * @param endTick when it ended (the run's end for a lifetime an oracle failure stopped)
 * @param ending {@code "shut down"} (the workers' shutdown returned), {@code "crashed"} (a
 *     restart fault), or {@code "stopped"} (an oracle failed and the run stopped in it)
 * @param teardownTick when a teardown was requested in it, or -1
 * @param shutdownTick when the workers' shutdown began, or -1 when it never did
 * @param shutdownDeadline the deadline shutdown was given, in ticks, or -1
 * @param drained whether the workers' report says the drain finished ({@code false} when there was
 *     no shutdown)
 * @param workers what the sink did in the lifetime, by name, in a fixed order: {@code
 *     insert-attempts} (write attempts the sink saw, retries included), then from the workers'
 *     shutdown report (absent after a crash) {@code inserts}, {@code retries}, {@code
 *     dead-lettered-rows}, {@code abandoned-chunks}, {@code failed-at-shutdown}, {@code
 *     writers-stuck}
 */
public record Lifetime(int epoch, boolean faulty, long startTick, long endTick, String ending,
    long teardownTick, long shutdownTick, long shutdownDeadline, boolean drained,
    Map<String, Long> workers) {

  /** Checks that no component is null. */
  public Lifetime {
    Objects.requireNonNull(ending, "ending");
    Objects.requireNonNull(workers, "workers");
  }
}
