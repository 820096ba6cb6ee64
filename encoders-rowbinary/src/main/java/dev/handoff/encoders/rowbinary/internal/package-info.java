/**
 * The RowBinary encoder's implementation: a tree of {@link
 * dev.handoff.encoders.rowbinary.internal.ValueWriter}s compiled once per encoder from the
 * table's types, then walked for every row. Not exported.
 */
package dev.handoff.encoders.rowbinary.internal;
