package dev.handoff.api.spi;

import dev.handoff.api.Flow;
import dev.handoff.api.Record;

/**
 * Where a pipeline pushes records.
 *
 * @param <T> the payload type
 */
public interface Collector<T> {

  /**
   * Accepts one record.
   *
   * <p>Called on the pipeline thread. A collector never rejects a record and never blocks: a
   * terminal stage that cannot hand its output on keeps it and reports the pressure through
   * {@link StageLifecycle#relieve()}, which the driver checks between payloads.
   *
   * @return {@link Flow#CONTINUE}; a collector that forwards to an intermediate stage may return
   *     {@link Flow#BLOCKED} as a hint, which the driver treats like a {@code relieve()} result
   */
  Flow push(Record<T> record);
}
