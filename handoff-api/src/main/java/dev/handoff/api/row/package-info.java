/**
 * How encoders read payloads of any type: {@link dev.handoff.api.row.RowAccessor}.
 *
 * <p>An accessor is a stateless strategy object: the payload is passed in on every call, so one
 * accessor serves every row and nothing is allocated per row. Nested values (arrays, maps,
 * tuples) are read with the same interface: a nested container is itself read as a "row" whose
 * fields are its elements, through the accessor returned by {@link
 * dev.handoff.api.row.RowAccessor#nested}.
 */
package dev.handoff.api.row;
