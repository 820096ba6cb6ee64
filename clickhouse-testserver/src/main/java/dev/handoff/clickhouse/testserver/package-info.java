/**
 * Real ClickHouse engines for integration tests: a throwaway local ClickHouse 18.16 server (start
 * it with {@link dev.handoff.clickhouse.testserver.ClickHouseServer#start()} or share one per JVM
 * with {@link dev.handoff.clickhouse.testserver.ClickHouseServer#shared()}), and a ClickHouse 26.7
 * engine in process (open a session with {@link dev.handoff.clickhouse.testserver.Chdb#open()}).
 */
package dev.handoff.clickhouse.testserver;
