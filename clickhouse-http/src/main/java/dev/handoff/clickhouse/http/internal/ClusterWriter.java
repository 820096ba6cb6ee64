package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import dev.handoff.api.HandoffClock;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClickHouseWriter;
import dev.handoff.clickhouse.http.ClusterTarget;
import dev.handoff.clickhouse.http.ReplicaStatus;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.net.URI;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link ClickHouseWriter} over a {@link ClusterTarget}: one {@link HttpInsertWriter} per
 * replica (all on one shared {@link Http1Client}), a {@link ReplicaSet} per shard, the identity of
 * every insert in its {@code query_id} (and token), and the count of rows in doubt.
 *
 * <p>Threading: one worker thread per handoff shard calls {@link #write}; calls of one shard never
 * overlap. The replica sets are thread-safe; the doubt bookkeeping is per handoff shard.
 */
public final class ClusterWriter implements ClickHouseWriter {
  /** ClickHouse's UNKNOWN_STATUS_OF_INSERT: the server itself does not know the outcome. */
  static final int UNKNOWN_STATUS_OF_INSERT = 319;

  private final ReplicaSet[] shards;
  private final boolean tokens;
  private final HandoffClock clock;
  private final String runId;
  private final String target;
  private final AtomicLong rowsInDoubt = new AtomicLong();
  private final AtomicLong insertsInDoubt = new AtomicLong();
  /** The identity last counted in doubt, per handoff shard. */
  private final Map<Integer, String> lastDoubt = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * Creates a writer into {@code database.table} on every shard of {@code target}.
   *
   * @param target the shards and their replicas
   * @param options the connection options (their URL is replaced by each replica's)
   * @param client the client every replica's transport shares
   * @param database the local database on every shard
   * @param table the local table on every shard
   * @param columns the columns the frames hold, in order
   * @param types the columns' types
   * @param format {@code Native} or {@code RowBinary}
   * @param tokens whether to send {@code insert_deduplication_token}
   * @param clock the clock of the replicas' back-off
   */
  public ClusterWriter(ClusterTarget target, ClickHouseHttpOptions options, Http1Client client,
      String database, String table, List<String> columns, List<ClickHouseType> types,
      String format, boolean tokens, HandoffClock clock) {
    this.shards = new ReplicaSet[target.shardCount()];
    for (int s = 0; s < shards.length; s++) {
      List<HttpInsertWriter> writers = new ArrayList<>();
      for (URI url : target.shards().get(s).replicas()) {
        ClickHouseHttpOptions o = options.toBuilder().url(url.toString()).build();
        writers.add(new HttpInsertWriter(new HttpTransport(o, client), database, table, columns,
            types, format));
      }
      shards[s] = new ReplicaSet(s, writers);
    }
    this.tokens = tokens;
    this.clock = clock;
    this.runId = HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
    this.target = database + "." + table;
  }

  @Override
  public void write(Insert insert) throws WriteException {
    if (closed) {
      throw new IllegalStateException("the writer into " + target + " is closed; " + insert
          + " was not sent");
    }
    ReplicaSet set = shardOf(insert.shard());
    int replica = set.choose(clock.nanoTime());
    String identity = InsertIdentity.of(runId, insert);
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("query_id", identity + "-" + insert.attempt());
    if (tokens) {
      parameters.put("insert_deduplication_token", identity);
    }
    HttpTransport.BodyProgress progress = new HttpTransport.BodyProgress();
    try {
      set.writer(replica).send(insert, parameters, progress);
    } catch (WriteException e) {
      if (e.isTransient()) {
        set.failed(replica, clock.nanoTime());
      }
      if (!tokens && (progress.outcomeUnknown() || e.serverCode() == UNKNOWN_STATUS_OF_INSERT)
          && !identity.equals(lastDoubt.put(insert.shard(), identity))) {
        rowsInDoubt.addAndGet(insert.rows());
        insertsInDoubt.incrementAndGet();
      }
      throw e;
    }
    set.succeeded(replica, insert.rows());
  }

  private ReplicaSet shardOf(int shard) {
    if (shards.length == 1) {
      return shards[0];
    }
    if (shard >= shards.length) {
      throw new IllegalArgumentException("handoff shard " + shard + " has no shard in a target"
          + " of " + shards.length + " shards; give the sink as many shards as the target has");
    }
    return shards[shard];
  }

  @Override
  public Optional<List<Frame>> split(Frame frame) {
    return shards[0].writer(0).split(frame);
  }

  @Override
  public String runId() {
    return runId;
  }

  @Override
  public boolean deduplicationTokens() {
    return tokens;
  }

  @Override
  public long rowsInDoubt() {
    return rowsInDoubt.get();
  }

  @Override
  public long insertsInDoubt() {
    return insertsInDoubt.get();
  }

  @Override
  public List<ReplicaStatus> replicas() {
    long now = clock.nanoTime();
    List<ReplicaStatus> out = new ArrayList<>();
    for (ReplicaSet s : shards) {
      s.status(now, out);
    }
    return out;
  }

  /** Marks the writer closed: later writes throw. Idempotent. */
  @Override
  public void close() {
    closed = true;
    for (ReplicaSet s : shards) {
      for (int i = 0; i < s.size(); i++) {
        s.writer(i).close();
      }
    }
  }

  @Override
  public String toString() {
    return "ClusterWriter{" + target + ", " + shards.length + " shards, run " + runId
        + (tokens ? ", tokens" : "") + '}';
  }
}
