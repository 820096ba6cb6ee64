package dev.handoff.clickhouse.http;

import dev.handoff.clickhouse.testserver.ClickHouseServer;

/**
 * A table that rejects chosen rows on a real ClickHouse 18.16 server, for dead-letter tests.
 *
 * <p>The table gets an extra column {@code _reject UInt8 MATERIALIZED throwIf(id = N)}. The server
 * computes materialized columns for each inserted block before it writes anything, so an insert
 * whose rows include {@code id = N} fails as a whole with code 395
 * (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO, HTTP 500) and writes nothing, while every other insert
 * succeeds. Schema discovery leaves the materialized column out, so encoders never write it.
 *
 * <p>(A {@code MATERIALIZED VIEW ... ENGINE = Null AS SELECT throwIf(id = N) FROM t} fails the
 * same inserts with the same code, but 18.16 writes the block into {@code t} before it pushes it to
 * the view, so the rows of the failed insert are in the table anyway: useless for a dead-letter
 * test.)
 */
final class Rejections {
  private Rejections() {}

  /**
   * Creates {@code db.table (columns, _reject ...) ENGINE = MergeTree ORDER BY tuple()}, where
   * {@code columns} is a DDL column list with a UInt64-compatible column {@code id}; inserts of a
   * row whose {@code id} is {@code rejectedId} fail with code 395.
   */
  static void createTable(ClickHouseServer server, String db, String table, String columns,
      long rejectedId) {
    server.execute("CREATE TABLE " + db + "." + table + " (" + columns
        + ", _reject UInt8 MATERIALIZED throwIf(id = " + rejectedId + "))"
        + " ENGINE = MergeTree ORDER BY tuple()");
  }
}
