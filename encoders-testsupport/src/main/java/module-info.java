/**
 * Test code shared by the encoder modules' tests (used at test scope only, never published):
 * the differential properties' case model, seeded generators, JSON-lines form, shrinking and
 * format-independent checking ({@code Diff*}); the real-server round trips' value generator,
 * canonical values and schema reader ({@code Server*}); and the golden-file conventions ({@code
 * Golden}, {@code GoldenFiles}, {@code ChGoSnapshots}). What differs between the formats (the
 * encoding call, the independent reader) stays in each encoder module.
 */
module dev.handoff.encoders.testsupport {
  requires transitive dev.handoff.api;
  requires transitive dev.handoff.clickhouse.types;
  requires transitive dev.handoff.testkit;
  requires transitive dev.handoff.clickhouse.testserver;
  requires transitive com.fasterxml.jackson.databind;
  requires org.assertj.core;

  exports dev.handoff.encoders.testsupport;
}
