package dev.handoff.clickhouse.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * {@link JsonRows#accessor}: column {@code i} of an object row is its field {@code name_i} (the
 * names taken from the schema once), of an array row its element {@code i}. A missing field or
 * element reads as null.
 */
final class JsonRowAccessor implements RowAccessor<JsonNode> {
  private final String[] names;

  JsonRowAccessor(TableSchema schema) {
    names = new String[schema.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = schema.column(i).name();
    }
  }

  /** Returns the node of column {@code field}, {@code null} when the row has none. */
  private JsonNode node(JsonNode row, int field) {
    if (row instanceof ObjectNode) {
      return row.get(names[field]);
    }
    if (row instanceof ArrayNode) {
      return row.get(Objects.checkIndex(field, names.length));
    }
    throw new IllegalArgumentException(
        "a JSON row must be an object or an array, not " + row.getNodeType());
  }

  @Override
  public ValueKind kind(JsonNode row, int field) {
    return JsonValues.kind(node(row, field));
  }

  @Override
  public boolean isNull(JsonNode row, int field) {
    return JsonValues.isNull(node(row, field));
  }

  @Override
  public Object getObject(JsonNode row, int field) {
    return JsonValues.object(node(row, field));
  }

  @Override
  public boolean getBoolean(JsonNode row, int field) {
    return JsonValues.booleanValue(node(row, field));
  }

  @Override
  public long getLong(JsonNode row, int field) {
    return JsonValues.longValue(node(row, field));
  }

  @Override
  public double getDouble(JsonNode row, int field) {
    return JsonValues.doubleValue(node(row, field));
  }

  @Override
  public BigInteger getBigInteger(JsonNode row, int field) {
    return JsonValues.bigInteger(node(row, field));
  }

  @Override
  public BigDecimal getBigDecimal(JsonNode row, int field) {
    return JsonValues.bigDecimal(node(row, field));
  }

  @Override
  public CharSequence getText(JsonNode row, int field) {
    return JsonValues.text(node(row, field));
  }

  @Override
  public byte[] getBytes(JsonNode row, int field) {
    return JsonValues.bytes(node(row, field));
  }

  @Override
  public RowAccessor<Object> nested(JsonNode row, int field) {
    return JsonValues.INSTANCE;
  }

  /** Returns the number of columns. */
  @Override
  public int size(JsonNode row) {
    return names.length;
  }
}
