package dev.handoff.flink;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * An operator before the sink that throws at seeded random points, a fixed number of times per
 * run, and logs what it passes on into a {@link ChaosLog}.
 */
final class ChaosMap extends RichMapFunction<Event, Event> implements CheckpointedFunction {
  private static final ConcurrentHashMap<String, AtomicInteger> FAILURES_LEFT =
      new ConcurrentHashMap<>();

  private final String run;
  private final long seed;
  private final int maxGap;
  private transient ChaosLog.Attempt attempt;
  private transient long failAt;
  private transient AtomicInteger failuresLeft;

  ChaosMap(String run, long seed, int failures, int maxGap) {
    this.run = run;
    this.seed = seed;
    this.maxGap = maxGap;
    FAILURES_LEFT.put(run, new AtomicInteger(failures));
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    int n = getRuntimeContext().getTaskInfo().getAttemptNumber();
    attempt = ChaosLog.of(run).attempt(subtask, n);
    attempt.restoredFrom = context.getRestoredCheckpointId();
    failAt = 1 + new SplittableRandom(seed * 1_000_003L + subtask * 7919L + n).nextInt(maxGap);
    failuresLeft = FAILURES_LEFT.get(run);
  }

  @Override
  public Event map(Event e) {
    if (attempt.ids.size() == failAt && failuresLeft.getAndDecrement() > 0) {
      throw new IllegalStateException("chaos: planned failure in subtask " + attempt.subtask
          + " attempt " + attempt.attempt + " after " + failAt + " rows");
    }
    attempt.ids.add(e.id());
    return e;
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    attempt.snapshots.put(context.getCheckpointId(), attempt.ids.size());
  }
}
