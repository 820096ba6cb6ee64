/**
 * The sink handoff stage and what surrounds it.
 *
 * <h2>Data flow</h2>
 *
 * <p>A {@link dev.handoff.core.Chain} pulls payloads from a {@link dev.handoff.core.Source} and
 * pushes their records into a {@link dev.handoff.core.SinkHandoff}, which routes each record to
 * a shard, encodes it into the shard's chunk, seals the chunk at the target size, grows the
 * {@link dev.handoff.core.InflightBudget} by its size and offers it to the shard's queue in
 * {@link dev.handoff.core.ShardQueues}. A chunk the queue refuses is parked and offered again by
 * {@code relieve()}. Sink workers take chunks from the queues, write them, release their bytes
 * and resolve their acknowledgements.
 *
 * <h2>Threading</h2>
 *
 * <table>
 *   <caption>Who calls what</caption>
 *   <tr><th>type</th><th>pipeline thread</th><th>worker threads</th></tr>
 *   <tr><td>{@code SinkHandoff}, {@code Chain}</td><td>every method</td><td>none</td></tr>
 *   <tr><td>{@code ShardQueues}</td><td>{@code trySend}</td><td>{@code poll}, {@code drain}</td></tr>
 *   <tr><td>{@code InflightBudget}</td><td>{@code add}, {@code hasRoom}</td><td>{@code release}</td></tr>
 *   <tr><td>{@code AckSet}, {@code SourceBatch}</td><td>{@code add}, {@code retain}</td>
 *       <td>{@code succeed}, {@code fail}, {@code release}</td></tr>
 * </table>
 *
 * <p>The stage and the driver are single-threaded by design: they never lock and never block.
 * The three shared types are thread-safe and say so in their own documentation. Nothing in this
 * package reads the system clock: time comes from the injected {@link dev.handoff.api.HandoffClock}.
 */
package dev.handoff.core;
