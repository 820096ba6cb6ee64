/**
 * The handoff API: the values a pipeline hands to the sink stage and the SPIs that vendors
 * implement.
 *
 * <ul>
 *   <li>{@code dev.handoff.api}: records, acknowledgements, flow signals, chunk buffers and
 *       frames, errors, the injected {@link dev.handoff.api.Clock}.
 *   <li>{@code dev.handoff.api.spi}: {@link dev.handoff.api.spi.RowEncoder}, {@link
 *       dev.handoff.api.spi.ShardRouter} and their {@code ServiceLoader} providers.
 *   <li>{@code dev.handoff.api.row}: {@link dev.handoff.api.row.RowAccessor}, the way an encoder
 *       reads any payload type.
 * </ul>
 *
 * <p>This module requires nothing but {@code java.base}, so a vendor inherits no dependency from it.
 */
module dev.handoff.api {
  exports dev.handoff.api;
  exports dev.handoff.api.row;
  exports dev.handoff.api.spi;
}
