/**
 * Row adapters: {@link dev.handoff.api.row.RowAccessor}s for {@code Object[]}, {@code List},
 * {@code Map}, Java records and beans, and the accessor for nested Java values.
 */
package dev.handoff.clickhouse.row;
