/**
 * The sink workers: per shard, take chunks in order, merge them into inserts, write them through
 * an {@link dev.handoff.api.spi.InsertWriter}, then release their bytes and resolve their
 * acknowledgements. (Contracts to follow.)
 */
package dev.handoff.core.sink;
