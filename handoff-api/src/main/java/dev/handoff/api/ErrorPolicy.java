package dev.handoff.api;

/** What the stage does with a record that an encoder rejects with a {@link ErrorClass#DATA} error. */
public enum ErrorPolicy {
  /** Count the record as skipped (and as an error), log a rate-limited warning, and go on. */
  SKIP,
  /** Stop the stage: the record's batch and every batch with unsent output fail and replay. */
  FAIL
}
