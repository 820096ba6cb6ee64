package dev.handoff.core;

import dev.handoff.api.FatalError;
import java.util.List;
import java.util.Optional;

/**
 * How a {@link Chain} run ended.
 *
 * @param payloads payloads pulled from the source
 * @param fatal the error that stopped the stage, if one did
 * @param drainTimedOut whether the shutdown drain hit its deadline with chunks still parked
 * @param shards what happened to each shard's output
 */
public record ChainReport(
    long payloads, Optional<FatalError> fatal, boolean drainTimedOut, List<ShardReport> shards) {

  /** Copies the list. */
  public ChainReport {
    shards = List.copyOf(shards);
  }

  /** Returns the chunks handed to queues, over all shards. */
  public long chunksSent() {
    return shards.stream().mapToLong(ShardReport::chunksSent).sum();
  }

  /** Returns the chunks failed back to their sources, over all shards. */
  public long chunksFailedBack() {
    return shards.stream().mapToLong(ShardReport::chunksFailedBack).sum();
  }

  /** Returns the bytes abandoned at teardown, over all shards. */
  public long bytesAbandoned() {
    return shards.stream().mapToLong(ShardReport::bytesAbandoned).sum();
  }

  /** Returns whether the run ended cleanly: no fatal error and everything handed on. */
  public boolean clean() {
    return fatal.isEmpty() && !drainTimedOut && chunksFailedBack() == 0;
  }
}
