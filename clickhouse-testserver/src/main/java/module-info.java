/**
 * Real ClickHouse engines for integration tests: {@link
 * dev.handoff.clickhouse.testserver.ClickHouseServer} starts {@code clickhouse-server} in a temp
 * directory on free loopback ports, sends it SQL and INSERT bodies over HTTP, and stops it; {@link
 * dev.handoff.clickhouse.testserver.Chdb} runs a ClickHouse 26.7 engine in process (libchdb)
 * through a launcher it builds with gcc. JDK only; no test framework.
 */
module dev.handoff.clickhouse.testserver {
  requires java.net.http;

  exports dev.handoff.clickhouse.testserver;
}
