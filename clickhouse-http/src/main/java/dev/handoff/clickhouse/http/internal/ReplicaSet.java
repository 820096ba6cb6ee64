package dev.handoff.clickhouse.http.internal;

import dev.handoff.clickhouse.http.ReplicaStatus;
import java.util.List;

/**
 * The replicas of one shard and their health: which one is active, how many times each failed in
 * a row, and until when a failed one waits behind the healthy ones. Thread-safe (the handoff
 * shards that share a one-shard target call it concurrently).
 *
 * <p>{@link #choose} returns the active replica when it may be tried, else the next one in order
 * that may; when every replica is waiting, the one whose wait ends first (the worker's own
 * back-off paces those attempts).
 */
public final class ReplicaSet {
  /** Back-off of a replica after its first failure; doubles per consecutive failure. */
  public static final long INITIAL_BACKOFF_NANOS = 1_000_000_000L;
  /** The longest back-off of a failed replica. */
  public static final long MAX_BACKOFF_NANOS = 30_000_000_000L;

  private final int shard;
  private final HttpInsertWriter[] writers;
  private final int[] consecutive;
  private final long[] retryAt;
  private final long[] inserts;
  private final long[] rows;
  private final long[] failures;
  private int active;

  /** Creates the set of {@code shard}'s replicas, each with its writer, the first active. */
  public ReplicaSet(int shard, List<HttpInsertWriter> writers) {
    this.shard = shard;
    this.writers = writers.toArray(new HttpInsertWriter[0]);
    int n = this.writers.length;
    this.consecutive = new int[n];
    this.retryAt = new long[n];
    this.inserts = new long[n];
    this.rows = new long[n];
    this.failures = new long[n];
  }

  /** Returns the index of the replica to send the next attempt to at time {@code now}. */
  public synchronized int choose(long now) {
    int n = writers.length;
    int earliest = active;
    for (int k = 0; k < n; k++) {
      int i = (active + k) % n;
      if (consecutive[i] == 0 || retryAt[i] - now <= 0) {
        return i;
      }
      if (retryAt[i] - retryAt[earliest] < 0) {
        earliest = i;
      }
    }
    return earliest;
  }

  /** Returns replica {@code i}'s writer. */
  public HttpInsertWriter writer(int i) {
    return writers[i];
  }

  /** Returns the number of replicas. */
  public int size() {
    return writers.length;
  }

  /** Records that replica {@code i} acknowledged an insert of {@code n} rows; it becomes active. */
  public synchronized void succeeded(int i, int n) {
    consecutive[i] = 0;
    retryAt[i] = 0;
    inserts[i]++;
    rows[i] += n;
    active = i;
  }

  /**
   * Records a transient failure of replica {@code i} at {@code now}: it waits behind the healthy
   * replicas for its back-off, and when it was active the next replica becomes active.
   */
  public synchronized void failed(int i, long now) {
    int c = ++consecutive[i];
    failures[i]++;
    long backoff = INITIAL_BACKOFF_NANOS << Math.min(c - 1, 5);
    retryAt[i] = now + Math.min(MAX_BACKOFF_NANOS, backoff);
    if (active == i) {
      active = (i + 1) % writers.length;
    }
  }

  /** Adds a snapshot of every replica at time {@code now} to {@code out}. */
  public synchronized void status(long now, List<ReplicaStatus> out) {
    for (int i = 0; i < writers.length; i++) {
      long wait = consecutive[i] == 0 ? 0 : Math.max(0, retryAt[i] - now);
      out.add(new ReplicaStatus(shard, i, writers[i].transport().options().url(),
          consecutive[i], wait, inserts[i], rows[i], failures[i], i == active));
    }
  }
}
