/**
 * The Native encoder's implementation: a tree of {@link
 * dev.handoff.encoders.clickhouse.internal.Column}s compiled once per encoder instance from the
 * table's types, each holding its part of the current block in reusable buffers. Not exported.
 */
package dev.handoff.encoders.clickhouse.internal;
