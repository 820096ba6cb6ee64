package dev.handoff.core;

import dev.handoff.api.stage.Collector;

/**
 * Where the driver pulls payloads from. One call pushes the records of one payload (typically
 * one source batch) into the collector.
 *
 * @param <T> the payload type of the records
 */
@FunctionalInterface
public interface Source<T> {

  /**
   * Pushes the records of the next payload into {@code out}, on the pipeline thread.
   *
   * @return {@code true} if a payload was pushed; {@code false} when the source is exhausted
   *     (nothing was pushed)
   */
  boolean pushNext(Collector<T> out);
}
