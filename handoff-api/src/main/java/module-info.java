/**
 * The handoff API: the values a pipeline hands to the sink stage and the SPIs that vendors
 * implement.
 *
 * <ul>
 *   <li>{@code dev.handoff.api}: envelopes, acknowledgements, flow control, table schemas, chunk
 *       buffers and frames, errors, the injected {@link dev.handoff.api.HandoffClock}.
 *   <li>{@code dev.handoff.api.spi}: {@link dev.handoff.api.spi.RowEncoder}, {@link
 *       dev.handoff.api.spi.ShardRouter} and their {@code ServiceLoader} providers.
 *   <li>{@code dev.handoff.api.stage}: the driver's contract with a stage ({@link
 *       dev.handoff.api.stage.Collector}, {@link dev.handoff.api.stage.StageLifecycle}); a
 *       pipeline's driver calls it, vendors do not implement it.
 *   <li>{@code dev.handoff.api.row}: {@link dev.handoff.api.row.RowAccessor}, the way an encoder
 *       reads any payload type.
 * </ul>
 *
 * <p>This module requires nothing but {@code java.base} at run time, so a vendor inherits no
 * dependency from it. It reads {@code jdk.unsupported} where that is present ({@code requires
 * static}): a chunk buffer asks {@code sun.misc.Unsafe} how a String stores its chars, to copy
 * ASCII text in bulk (Java 17 to 23; see {@code ChunkBuffer}'s String writes).
 */
module dev.handoff.api {
  requires static jdk.unsupported;

  exports dev.handoff.api;
  exports dev.handoff.api.row;
  exports dev.handoff.api.spi;
  exports dev.handoff.api.stage;
}
