/**
 * Values exchanged between a pipeline and the sink stage.
 *
 * <h2>Threading</h2>
 *
 * <p>A {@link dev.handoff.api.Envelope} and a {@link dev.handoff.api.ChunkBuffer} belong to the
 * pipeline thread. An {@link dev.handoff.api.EncodedChunk} is immutable once sealed and is handed
 * from the pipeline thread to a sink worker through a queue, which publishes it safely. An {@link
 * dev.handoff.api.Ack} and an {@link dev.handoff.api.AckSet} are used from both sides: the
 * pipeline thread retains, a worker resolves; their implementations are thread-safe.
 */
package dev.handoff.api;
