/**
 * The service provider interfaces: what vendors implement ({@link
 * dev.handoff.api.spi.RowEncoder}, {@link dev.handoff.api.spi.ShardRouter} and their providers,
 * found with {@link java.util.ServiceLoader}), and the sink side's {@link
 * dev.handoff.api.spi.InsertWriter}, which writes {@link dev.handoff.api.spi.Insert}s and
 * reports failures as {@link dev.handoff.api.spi.WriteException}s.
 *
 * <h2>Threading</h2>
 *
 * <p>Every method of an encoder and a router is called on the
 * pipeline thread only, one call at a time, unless its Javadoc says otherwise. Providers are
 * thread-safe factories. An {@code InsertWriter} is the exception: sink workers call it, one
 * thread per shard, so it is thread-safe across shards.
 *
 * <h2>Errors</h2>
 *
 * <p>An encoder reports a bad record with a {@link dev.handoff.api.ErrorClass#DATA} {@link
 * dev.handoff.api.HandoffException} and a broken encoder with {@link
 * dev.handoff.api.ErrorClass#FATAL}. Any other exception escaping an encoder is a bug in the
 * encoder; the stage treats it as {@code FATAL}.
 */
package dev.handoff.api.spi;
