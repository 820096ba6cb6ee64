package dev.handoff.core;

import dev.handoff.api.FlowControl;
import dev.handoff.api.stage.Collector;
import dev.handoff.api.stage.StageLifecycle;
import java.util.List;

/**
 * What a {@link Chain} drives: a collector with its lifecycle, which also answers for the pressure
 * of its own in-flight budget. {@link SinkHandoff} is the stage; a wrapper that serialises the
 * stage's calls with another thread (as the ClickHouse sink facade does to seal aged chunks)
 * implements this interface by delegating.
 *
 * <p><b>Threading:</b> as {@link StageLifecycle}: every method is called on the pipeline thread,
 * never concurrently with {@link Collector#push}.
 *
 * @param <T> the payload type
 */
public interface Stage<T> extends Collector<T>, StageLifecycle {

  /**
   * Seals the open chunks that reached the maximum chunk age, hands on parked chunks like {@link
   * #relieve()}, and says whether the driver may push more now.
   *
   * @return {@link dev.handoff.api.FlowControl#BLOCKED} while chunks stay parked or the stage's
   *     in-flight budget is full, else {@link dev.handoff.api.FlowControl#CONTINUE}
   */
  FlowControl pressure();

  /** Returns a report per shard; final once {@link #close()} returned. */
  List<ShardReport> shardReports();
}
