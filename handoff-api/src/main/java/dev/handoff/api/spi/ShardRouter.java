package dev.handoff.api.spi;

import dev.handoff.api.RecordMeta;

/**
 * Chooses the shard of a record. Called on the pipeline thread for every record, so it must not
 * allocate or block.
 */
public interface ShardRouter {

  /**
   * Returns the shard of a record.
   *
   * @param meta the record's metadata
   * @param numShards the number of shards, {@code >= 1}
   * @return a shard index in {@code [0, numShards)}
   */
  int route(RecordMeta meta, int numShards);
}
