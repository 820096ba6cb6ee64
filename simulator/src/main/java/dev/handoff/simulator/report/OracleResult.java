package dev.handoff.simulator.report;

import java.util.Objects;

/**
 * The verdict of one named oracle over a run.
 *
 * @param name the oracle's name, as documented in {@code docs/simulator.md} (for example {@code
 *     per-shard-order}, {@code no-loss}, {@code budget-exact})
 * @param passed whether it held after every event and at the end
 * @param checks how many times it was checked
 * @param failure what was wrong, with the numbers involved; null when it passed
 * @param atEvent the index of the event after which it first failed; -1 when it passed
 */
public record OracleResult(String name, boolean passed, long checks, String failure, long atEvent) {

  /** Checks the name and that a failed oracle says why. */
  public OracleResult {
    Objects.requireNonNull(name, "name");
    if (!passed && failure == null) {
      throw new IllegalArgumentException("oracle " + name + " failed without a reason");
    }
  }
}
