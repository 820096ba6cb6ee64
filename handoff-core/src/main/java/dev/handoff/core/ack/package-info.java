/**
 * Acknowledgement tracking: which source batches were delivered, which failed, and how far a
 * source may commit.
 *
 * <h2>Model</h2>
 *
 * <p>A source opens one {@link dev.handoff.core.ack.SourceBatch} per batch it reads ({@link
 * dev.handoff.core.ack.SourceAcks#begin()}), gives it as the {@link dev.handoff.api.Ack} of every
 * record of the batch, and calls {@link dev.handoff.core.ack.SourceBatch#complete()} after
 * pushing the last one. Every chunk holding records of the batch retains it through its {@link
 * dev.handoff.api.AckSet}. The batch resolves when the source and every chunk have released it:
 * <em>delivered</em> if nobody failed it, else <em>failed</em>. A record skipped under the
 * {@code SKIP} policy holds nothing, so it does not keep its batch from being delivered.
 *
 * <p>The {@linkplain dev.handoff.core.ack.SourceAcks#checkpoint() checkpoint} is the highest
 * batch id such that it and every earlier batch were delivered. A failed batch stalls it: a
 * restart replays from the checkpoint, so every record of a failed batch is pushed again
 * (at-least-once).
 *
 * <h2>Threading</h2>
 *
 * <p>{@code begin} and {@code complete} are called by the source's thread; retain by the pipeline
 * thread; release and fail by sink workers and teardown. Every method is thread-safe; the
 * checkpoint advances under the {@code SourceAcks} lock, once per resolved batch (never per
 * record).
 */
package dev.handoff.core.ack;
