/**
 * The simulator's seam into the stage: builds a {@link dev.handoff.core.SinkHandoff} with a
 * deliberately broken behaviour ({@link dev.handoff.core.seam.StageMutation}) for negative
 * controls. Exported only to {@code dev.handoff.simulator}; not part of the public API.
 */
package dev.handoff.core.seam;
