/**
 * A throwaway local ClickHouse server for integration tests: start it with {@link
 * dev.handoff.clickhouse.testserver.ClickHouseServer#start()} or share one per JVM with {@link
 * dev.handoff.clickhouse.testserver.ClickHouseServer#shared()}.
 */
package dev.handoff.clickhouse.testserver;
