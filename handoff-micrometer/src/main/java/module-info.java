/**
 * The Micrometer binding of handoff: {@link dev.handoff.micrometer.HandoffMetrics} registers
 * meters for a sink handoff stage, its in-flight budget and its sink workers; {@link
 * dev.handoff.micrometer.ClickHouseSinkMetrics} does the same for a ClickHouse sink, with a set of
 * meters per replica of its target.
 *
 * <p>Optional: nothing else in handoff requires this module or Micrometer.
 */
@SuppressWarnings("requires-transitive-automatic") // Micrometer ships no module-info
module dev.handoff.micrometer {
  requires transitive dev.handoff.core;
  requires transitive micrometer.core;
  // Only ClickHouseSinkMetrics needs the sink; an application using it has the sink anyway.
  requires static dev.handoff.clickhouse.sink;

  exports dev.handoff.micrometer;
}
