package dev.handoff.clickhouse.http;

import dev.handoff.api.spi.InsertWriter;
import java.util.List;

/**
 * The {@link InsertWriter} of {@link ClickHouseHttp}: writes each insert to one replica of its
 * shard of a {@link ClusterTarget}, fails over between replicas, gives every insert an identity,
 * and counts the rows whose delivery is in doubt.
 *
 * <p><b>Failover.</b> An insert goes to its shard's active replica. A transient failure marks
 * that replica failed (its consecutive failures grow, and it is not tried again ahead of the
 * healthy replicas for a back-off of 1 s doubling up to 30 s) and the next replica becomes
 * active; the sink worker retries the same insert, which then goes there. A permanent failure
 * (bad data) says nothing about the replica and changes nothing. Per-shard order is kept: a
 * shard writes one insert at a time, and a retry is the same insert on another endpoint.
 *
 * <p><b>Identity.</b> Every insert has an identity made of the writer's {@link #runId()}, the
 * shard, the insert's first and last chunk sequence, its rows and a CRC32C of its body (parts of
 * one chunk, made while isolating a rejected row, share the sequences but not the body), such as
 * {@code handoff-3f9c0a1b7d2e-s0-q12-15-r4000-c9a0b1c2d}. It goes with every attempt as the
 * {@code query_id} ({@code <identity>-<attempt>}, so {@code system.processes} and the query log
 * show it) and, where the server has the setting and {@link #deduplicationTokens()} is on, as
 * {@code insert_deduplication_token}, so a retry of an insert the server already wrote is dropped
 * by the server (on tables that deduplicate inserts: {@code Replicated*MergeTree}, or a
 * {@code MergeTree} with a non-replicated deduplication window).
 *
 * <p><b>In doubt.</b> An attempt whose whole body was sent and whose answer never came (a
 * request timeout, a connection reset or closed while waiting, or the server's code 319
 * UNKNOWN_STATUS_OF_INSERT) may have been written. Without a token, the retry of such an insert
 * may write its rows twice: the writer counts those rows in {@link #rowsInDoubt()}, once per
 * insert however many attempts are in doubt.
 */
public interface ClickHouseWriter extends InsertWriter {

  /** Returns the run id in every insert's identity: random, fixed for this writer's lifetime. */
  String runId();

  /** Returns whether inserts carry {@code insert_deduplication_token}. */
  boolean deduplicationTokens();

  /**
   * Returns the rows of inserts sent without a deduplication token that had an attempt whose
   * outcome is unknown: rows that may be in the table more than once (or once, if the insert was
   * then given up and its batch replays).
   */
  long rowsInDoubt();

  /** Returns the number of inserts counted in {@link #rowsInDoubt()}. */
  long insertsInDoubt();

  /** Returns a snapshot of every replica's health and counters, by shard, then replica. */
  List<ReplicaStatus> replicas();
}
