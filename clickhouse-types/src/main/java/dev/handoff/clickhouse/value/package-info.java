/**
 * Conversions from the Java values a {@link dev.handoff.api.row.RowAccessor} returns to the
 * canonical value of a ClickHouse type, shared by the RowBinary and Native encoders so both
 * accept and reject exactly the same input.
 */
package dev.handoff.clickhouse.value;
