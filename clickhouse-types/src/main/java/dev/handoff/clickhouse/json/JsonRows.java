package dev.handoff.clickhouse.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.TableSchema;

/** Row adapter for Jackson {@link JsonNode} rows (one JSON object per row, JSON lines input). */
public final class JsonRows {
  private JsonRows() {}

  /**
   * Returns an accessor for JSON object rows, columns looked up by the schema's names (a missing
   * field reads as null). Numbers come out as LONG, DOUBLE, BIG_INTEGER or BIG_DECIMAL as Jackson
   * parsed them, strings as TEXT, booleans as BOOLEAN, arrays as SEQUENCE, objects as MAP (for
   * Map columns) or by name for named tuples.
   */
  public static RowAccessor<JsonNode> accessor(TableSchema schema) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
