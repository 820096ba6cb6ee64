package dev.handoff.api.spi;


/**
 * Chooses the shard of a record. Called on the pipeline thread for every record, so it must not
 * allocate or block.
 */
public interface ShardRouter {

  /**
   * Returns the shard of a record. Takes the record's metadata as primitives, so that routing a
   * record allocates nothing.
   *
   * @param routingKey the record's routing key ({@link dev.handoff.api.RecordMeta#routingKey()})
   * @param eventTimeMs the record's event time ({@link dev.handoff.api.RecordMeta#eventTimeMs()})
   * @param numShards the number of shards, {@code >= 1}
   * @return a shard index in {@code [0, numShards)}
   */
  int route(long routingKey, long eventTimeMs, int numShards);
}
