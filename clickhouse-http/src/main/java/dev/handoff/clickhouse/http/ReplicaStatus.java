package dev.handoff.clickhouse.http;

import java.net.URI;

/**
 * A snapshot of one replica's health and counters as a {@link ClickHouseWriter} sees it: the
 * per-replica metric.
 *
 * @param shard the shard's index in the target, from 0 (the handoff shard that writes to it)
 * @param replica the replica's index in its shard, from 0
 * @param url the replica's HTTP URL
 * @param consecutiveFailures transient failures since the replica's last acknowledged insert;
 *     0 means healthy
 * @param retryInNanos how long until the replica is tried again ahead of the healthy ones; 0
 *     when it may be tried now
 * @param inserts inserts the replica acknowledged
 * @param rows rows in those inserts
 * @param failures transient failures of the replica in all
 * @param active whether this is the replica its shard sends to next
 */
public record ReplicaStatus(int shard, int replica, URI url, int consecutiveFailures,
    long retryInNanos, long inserts, long rows, long failures, boolean active) {

  /** Returns whether the replica's last attempt succeeded (or it has not failed yet). */
  public boolean healthy() {
    return consecutiveFailures == 0;
  }
}
