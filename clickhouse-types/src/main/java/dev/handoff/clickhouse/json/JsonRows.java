package dev.handoff.clickhouse.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.TableSchema;
import java.util.Objects;

/**
 * Row adapter for Jackson {@link JsonNode} rows (one JSON object per row, JSON lines input).
 *
 * <h2>Kinds</h2>
 *
 * <table>
 *   <caption>Kinds of JSON nodes</caption>
 *   <tr><th>node</th><th>kind</th><th>read with</th></tr>
 *   <tr><td>missing field, {@code NullNode}, {@code MissingNode}</td><td>NULL</td><td>-</td></tr>
 *   <tr><td>{@code BooleanNode}</td><td>BOOLEAN</td><td>getBoolean</td></tr>
 *   <tr><td>{@code IntNode}, {@code LongNode}, {@code ShortNode}</td><td>LONG</td>
 *       <td>getLong, without boxing</td></tr>
 *   <tr><td>{@code BigIntegerNode}</td><td>BIG_INTEGER</td><td>getBigInteger</td></tr>
 *   <tr><td>{@code DoubleNode}, {@code FloatNode}</td><td>DOUBLE</td>
 *       <td>getDouble, without boxing</td></tr>
 *   <tr><td>{@code DecimalNode}</td><td>BIG_DECIMAL</td><td>getBigDecimal</td></tr>
 *   <tr><td>{@code TextNode}</td><td>TEXT</td><td>getText: the node's own string, no
 *       copy</td></tr>
 *   <tr><td>{@code BinaryNode}</td><td>BYTES</td><td>getBytes: the node's own array</td></tr>
 *   <tr><td>{@code ArrayNode}</td><td>SEQUENCE</td><td>getObject (the node) and nested</td></tr>
 *   <tr><td>{@code ObjectNode}</td><td>MAP</td><td>getObject and nested</td></tr>
 *   <tr><td>{@code POJONode} and anything else</td><td>OTHER</td><td>getObject (a POJO node's
 *       object)</td></tr>
 * </table>
 *
 * <p>Numbers keep the node type Jackson's parser chose: integers become {@code IntNode}, {@code
 * LongNode} or, beyond {@code long}, {@code BigIntegerNode}; numbers with a fraction or an
 * exponent become {@code DoubleNode}, so a decimal such as {@code 0.1} arrives as the nearest
 * double. Users who need exact decimals (for Decimal columns) enable {@code
 * DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS} on their {@code ObjectMapper}; such numbers
 * then arrive as {@code DecimalNode} (BIG_DECIMAL), exact (Jackson's node factory may strip
 * trailing zeros, which keeps the value).
 *
 * <h2>Nested values</h2>
 *
 * <p>{@code nested} returns one shared accessor for JSON containers. For a SEQUENCE field,
 * {@code getObject} returns the {@code ArrayNode}, read by index. For a MAP field it returns the
 * object's fields flattened into a new {@code Object[]} {@code {name0, value0, name1, value1,
 * ...}} in document order (one allocation per object value), so the nested accessor reads field
 * {@code 2i} (a name, TEXT) and {@code 2i+1} (its value) in O(1); {@code size} is twice the
 * number of fields. An encoder writing a named tuple from an object matches those names to the
 * tuple's element names. JSON has no binary: BYTES only comes from trees built in code or read
 * from binary formats.
 */
public final class JsonRows {
  private JsonRows() {}

  /**
   * Returns an accessor for JSON object rows, columns looked up by the schema's names (a missing
   * field reads as null). Numbers come out as LONG, DOUBLE, BIG_INTEGER or BIG_DECIMAL as Jackson
   * parsed them, strings as TEXT, booleans as BOOLEAN, arrays as SEQUENCE, objects as MAP (for
   * Map columns) or by name for named tuples.
   *
   * <p>A JSON array row is read by position instead (column {@code i} is element {@code i}, a
   * missing element reads as null), for compact JSON lines; any other row node is an {@code
   * IllegalArgumentException}. The accessor is immutable and may be shared.
   */
  // Jackson is optional (requires static): callers of this method bring it themselves.
  @SuppressWarnings("exports")
  public static RowAccessor<JsonNode> accessor(TableSchema schema) {
    return new JsonRowAccessor(Objects.requireNonNull(schema, "schema"));
  }
}
