/**
 * The ClickHouse type model: {@link dev.handoff.clickhouse.type.ClickHouseType}, parsed from the
 * type strings the server prints, shared by every handoff encoder.
 */
package dev.handoff.clickhouse.type;
