package dev.handoff.flink;

/**
 * The row of the DataStream tests: every field derives from {@code id}, so the server can check
 * each stored row against its id alone.
 */
public record Event(long id, String name, double value, long ts) {

  /** Returns the event of {@code id}. */
  public static Event of(long id) {
    return new Event(id, "n" + id, id * 0.5, 1_700_000_000L + id % 100_000);
  }

  /** The table's columns, in the order of the record's components. */
  public static final String COLUMNS =
      "(id UInt64, name String, value Float64, ts DateTime('UTC')) ENGINE = MergeTree ORDER BY id";

  /** A query that counts stored rows whose fields differ from those {@code id} gives. */
  public static String wrongRows(String table) {
    return "SELECT count() FROM " + table + " WHERE name != concat('n', toString(id))"
        + " OR value != id * 0.5 OR toUInt32(ts) != 1700000000 + id % 100000";
  }
}
