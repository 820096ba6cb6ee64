package dev.handoff.api;

/**
 * What the pipeline knows about a record besides its payload.
 *
 * @param eventTimeMs the record's event time, in milliseconds since the epoch
 * @param routingKey a 64-bit routing key; records with equal keys go to the same shard under the
 *     key-hash router. {@link RoutingKeys} turns text and bytes into a key that is stable across
 *     runs and JVMs.
 */
public record RecordMeta(long eventTimeMs, long routingKey) {

  /** Returns metadata with the given event time and routing key {@code 0}. */
  public static RecordMeta ofEventTime(long eventTimeMs) {
    return new RecordMeta(eventTimeMs, 0L);
  }
}
