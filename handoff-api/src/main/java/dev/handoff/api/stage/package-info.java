/**
 * The driver's contract with a stage: a driver (the {@code Chain} of {@code handoff-core}, or a
 * pipeline's own loop) pushes records through {@link dev.handoff.api.stage.Collector} and calls
 * {@link dev.handoff.api.stage.StageLifecycle} between them. The stage implements both; vendors
 * implement neither.
 *
 * <h2>Threading</h2>
 *
 * <p>Every method of a collector and a stage lifecycle is called on the pipeline thread only, one
 * call at a time, unless its Javadoc says otherwise.
 */
package dev.handoff.api.stage;
