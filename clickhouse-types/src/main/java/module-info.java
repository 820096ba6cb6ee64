/**
 * ClickHouse's type system for handoff encoders: the type model and parser ({@link
 * dev.handoff.clickhouse.type.ClickHouseType}), value conversions shared by every encoder ({@link
 * dev.handoff.clickhouse.value.Conversions}), and row adapters that read common payload types
 * ({@link dev.handoff.clickhouse.row.RowAccessors}, {@link dev.handoff.clickhouse.json.JsonRows}),
 * and ClickHouse's hash functions ({@link dev.handoff.clickhouse.hash.CityHash}).
 *
 * <p>Jackson is optional: only {@code dev.handoff.clickhouse.json} needs it at run time.
 */
module dev.handoff.clickhouse.types {
  requires transitive dev.handoff.api;
  requires static com.fasterxml.jackson.databind;

  exports dev.handoff.clickhouse.type;
  exports dev.handoff.clickhouse.value;
  exports dev.handoff.clickhouse.row;
  exports dev.handoff.clickhouse.json;
  exports dev.handoff.clickhouse.hash;
}
