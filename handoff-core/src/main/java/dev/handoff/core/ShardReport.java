package dev.handoff.core;

/**
 * What happened to one shard's output over a stage's life, as reported at teardown.
 *
 * @param shard the shard index
 * @param chunksSealed chunks sealed
 * @param chunksSent chunks handed to the shard's queue
 * @param chunksFailedBack parked chunks abandoned at teardown; their batches failed and replay
 * @param bytesAbandoned the bytes of those chunks, returned to the in-flight budget
 * @param rowsFailedBack rows in abandoned chunks and in the open buffer at teardown
 */
public record ShardReport(
    int shard,
    long chunksSealed,
    long chunksSent,
    long chunksFailedBack,
    long bytesAbandoned,
    long rowsFailedBack) {}
