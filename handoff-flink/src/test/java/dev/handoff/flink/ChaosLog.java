package dev.handoff.flink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each attempt of each subtask of a chaos run saw, kept in static memory (the MiniCluster
 * runs in this JVM): the ids it passed to the sink in order, the position at each checkpoint it
 * snapshotted, and the checkpoint it was restored from. The oracle of {@link FlinkFailureTest}
 * computes from it, never from the sink, which rows a replay may have written twice.
 */
final class ChaosLog {
  private static final Map<String, ChaosLog> RUNS = new ConcurrentHashMap<>();

  /** One attempt of one subtask; written by its task thread only, read after the job. */
  static final class Attempt {
    final int subtask;
    final int attempt;
    OptionalLong restoredFrom = OptionalLong.empty();
    final List<Long> ids = new ArrayList<>();
    final Map<Long, Integer> snapshots = new HashMap<>();

    Attempt(int subtask, int attempt) {
      this.subtask = subtask;
      this.attempt = attempt;
    }
  }

  final Map<String, Attempt> attempts = new ConcurrentHashMap<>();

  static ChaosLog of(String run) {
    return RUNS.computeIfAbsent(run, r -> new ChaosLog());
  }

  Attempt attempt(int subtask, int attempt) {
    return attempts.computeIfAbsent(subtask + "/" + attempt, k -> new Attempt(subtask, attempt));
  }

  /**
   * Returns, per id, how many replays may have written it again: for each attempt followed by
   * another of the same subtask, the ids it passed on after the checkpoint the next attempt was
   * restored from (all of them when that checkpoint is older than the attempt, or none exists).
   */
  Map<Long, Integer> replayable() {
    Map<Long, Integer> out = new HashMap<>();
    for (Attempt a : attempts.values()) {
      Attempt next = attempts.get(a.subtask + "/" + (a.attempt + 1));
      if (next == null) {
        continue;
      }
      int from = 0;
      if (next.restoredFrom.isPresent()) {
        from = a.snapshots.getOrDefault(next.restoredFrom.getAsLong(), 0);
      }
      for (int i = from; i < a.ids.size(); i++) {
        out.merge(a.ids.get(i), 1, Integer::sum);
      }
    }
    return out;
  }

  int failedAttempts() {
    int n = 0;
    for (Attempt a : attempts.values()) {
      if (attempts.containsKey(a.subtask + "/" + (a.attempt + 1))) {
        n++;
      }
    }
    return n;
  }
}
