package dev.handoff.cli;

import dev.handoff.api.spi.ShardRouter;

/**
 * Routes every row of a source batch to one shard: the routing key is the batch's number, and
 * batches go to the shards in turn. A batch in one shard is what lets {@link BatchAck} tell which
 * of its rows were written when part of it failed.
 */
final class BatchRouter implements ShardRouter {

  @Override
  public int route(long routingKey, long eventTimeMs, int numShards) {
    return (int) Long.remainderUnsigned(routingKey, numShards);
  }
}
