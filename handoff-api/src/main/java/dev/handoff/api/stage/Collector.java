package dev.handoff.api.stage;

import dev.handoff.api.FlowControl;
import dev.handoff.api.Envelope;

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
   * @return {@link FlowControl#CONTINUE}; a collector that forwards to an intermediate stage may return
   *     {@link FlowControl#BLOCKED} as a hint, which the driver treats like a {@code relieve()} result
   */
  FlowControl push(Envelope<T> record);
}
