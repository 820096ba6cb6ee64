package dev.handoff.core;

import java.time.Duration;

/**
 * What a stage counted since its previous flush, handed to a {@link Listener} at every {@code
 * onBatchEnd}.
 *
 * @param stage the stage name
 * @param seen records pushed (including those pushed after the stage stopped)
 * @param out records encoded into a chunk
 * @param skipped records dropped under the {@code SKIP} policy
 * @param errors records an encoder rejected (skipped, or the one that stopped the stage)
 * @param elapsed the time the driver measured for the payload
 * @param parkedChunks chunks parked now (a gauge)
 * @param parkedBytes bytes of the parked chunks now (a gauge)
 */
public record StageMetrics(
    String stage,
    long seen,
    long out,
    long skipped,
    long errors,
    Duration elapsed,
    int parkedChunks,
    long parkedBytes) {

  /**
   * Receives a stage's metrics. Called on the pipeline thread; must be quick and must not throw.
   * A Micrometer or JMX binding implements it.
   */
  @FunctionalInterface
  public interface Listener {
    /** A listener that drops everything. */
    Listener NONE = metrics -> {};

    /** Receives one flush. */
    void onFlush(StageMetrics metrics);
  }
}
