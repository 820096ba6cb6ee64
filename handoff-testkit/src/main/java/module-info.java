/**
 * Test doubles and seeded generators shared by handoff's tests and simulator: {@link
 * dev.handoff.testkit.ManualClock}, {@link dev.handoff.testkit.RecordingAck}, and the seeded
 * sweep helpers. Depends on the API only and on no test framework.
 */
module dev.handoff.testkit {
  requires transitive dev.handoff.api;

  exports dev.handoff.testkit;
}
