/** Options of the {@code clickhouse-native} encoder; the implementation is not exported. */
package dev.handoff.encoders.clickhouse;
