/**
 * Writes encoded chunks into ClickHouse over HTTP: {@link
 * dev.handoff.clickhouse.http.ClickHouseHttp} (schema discovery and writers), {@link
 * dev.handoff.clickhouse.http.ClickHouseHttpOptions}, {@link
 * dev.handoff.clickhouse.http.ServerError} (a server's error code and message) and {@link
 * dev.handoff.clickhouse.http.ClickHouseHttpException}.
 */
package dev.handoff.clickhouse.http;
