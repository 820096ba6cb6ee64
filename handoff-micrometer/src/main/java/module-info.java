/**
 * The Micrometer binding of handoff: {@link dev.handoff.micrometer.HandoffMetrics} registers
 * meters for a sink handoff stage, its in-flight budget and its sink workers.
 *
 * <p>Optional: nothing else in handoff requires this module or Micrometer.
 */
@SuppressWarnings("requires-transitive-automatic") // Micrometer ships no module-info
module dev.handoff.micrometer {
  requires transitive dev.handoff.core;
  requires transitive micrometer.core;

  exports dev.handoff.micrometer;
}
