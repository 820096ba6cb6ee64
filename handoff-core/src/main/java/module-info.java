import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.api.spi.ShardRouterProvider;

/**
 * The handoff core: the sink handoff stage ({@link dev.handoff.core.SinkHandoff}), the bounded
 * per-shard queues, the in-flight byte budget, the driver ({@link dev.handoff.core.Chain}),
 * acknowledgement tracking ({@link dev.handoff.core.ack}), and the sink workers that write chunks
 * through an {@link dev.handoff.api.spi.InsertWriter} ({@link dev.handoff.core.sink}).
 *
 * <p>Encoders and routers are found with {@link java.util.ServiceLoader} through {@link
 * dev.handoff.core.Providers}; the built-in routers ({@code key-hash}, {@code round-robin},
 * {@code single-shard}) are provided by this module.
 */
module dev.handoff.core {
  requires transitive dev.handoff.api;
  requires org.slf4j;

  exports dev.handoff.core;
  exports dev.handoff.core.ack;
  exports dev.handoff.core.sink;

  uses RowEncoderProvider;
  uses ShardRouterProvider;

  provides ShardRouterProvider with
      dev.handoff.core.internal.KeyHashRouterProvider,
      dev.handoff.core.internal.RoundRobinRouterProvider,
      dev.handoff.core.internal.SingleShardRouterProvider;
}
