/** Options of the {@code native} encoder; the implementation is not exported. */
package dev.handoff.encoders.clickhouse;
