package dev.handoff.clickhouse.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Reads Jackson nodes, and is the accessor for nested JSON values (a singleton).
 *
 * <p>The static methods classify and read one node ({@code null} is a missing field); the one
 * place that decides a node's {@link ValueKind}. The instance reads a container as fields: an
 * {@link ArrayNode} by index, and the flattened object that {@code getObject} returns for an
 * {@link ObjectNode}, an {@code Object[]} {@code {name0, value0, name1, value1, ...}} whose names
 * are {@code String}s (TEXT) and whose values are nodes. An {@code ObjectNode} handed in directly
 * is read too, by walking its fields, O(n) per field.
 */
final class JsonValues implements RowAccessor<Object> {
  static final JsonValues INSTANCE = new JsonValues();

  private JsonValues() {}

  /** Returns the kind of {@code n}; a missing field ({@code null}) is NULL. */
  static ValueKind kind(JsonNode n) {
    if (n == null) {
      return ValueKind.NULL;
    }
    switch (n.getNodeType()) {
      case NUMBER:
        if (n.isIntegralNumber()) {
          return n.isBigInteger() ? ValueKind.BIG_INTEGER : ValueKind.LONG;
        }
        return n.isBigDecimal() ? ValueKind.BIG_DECIMAL : ValueKind.DOUBLE;
      case STRING:
        return ValueKind.TEXT;
      case BOOLEAN:
        return ValueKind.BOOLEAN;
      case ARRAY:
        return ValueKind.SEQUENCE;
      case OBJECT:
        return ValueKind.MAP;
      case BINARY:
        return ValueKind.BYTES;
      case NULL:
      case MISSING:
        return ValueKind.NULL;
      default:
        return ValueKind.OTHER;
    }
  }

  /**
   * Returns {@code n} as {@code getObject} gives it: {@code null} for NULL, the number ({@code
   * numberValue()}), the text, the {@code Boolean}, the bytes, the {@link ArrayNode} itself for
   * SEQUENCE, the flattened fields for MAP (see {@link #flatten}), a {@link POJONode}'s object,
   * else the node.
   */
  static Object object(JsonNode n) {
    if (n == null) {
      return null;
    }
    switch (n.getNodeType()) {
      case NUMBER:
        return n.numberValue();
      case STRING:
        return n.textValue();
      case BOOLEAN:
        return n.booleanValue();
      case OBJECT:
        return flatten(n);
      case BINARY:
        return ((BinaryNode) n).binaryValue();
      case NULL:
      case MISSING:
        return null;
      case POJO:
        return ((POJONode) n).getPojo();
      default:
        return n;
    }
  }

  /**
   * Returns the fields of object node {@code object} as {@code {name0, value0, name1, value1,
   * ...}} in document order: one array per call, the only allocation an object value costs.
   */
  static Object[] flatten(JsonNode object) {
    Object[] out = new Object[2 * object.size()];
    int k = 0;
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      out[k++] = e.getKey();
      out[k++] = e.getValue();
    }
    return out;
  }

  static long longValue(JsonNode n) {
    if (n != null && n.isNumber()) {
      return n.longValue();
    }
    throw mismatch(n, "a number");
  }

  static double doubleValue(JsonNode n) {
    if (n != null && n.isNumber()) {
      return n.doubleValue();
    }
    throw mismatch(n, "a number");
  }

  static boolean booleanValue(JsonNode n) {
    if (n != null && n.isBoolean()) {
      return n.booleanValue();
    }
    throw mismatch(n, "a boolean");
  }

  static BigInteger bigInteger(JsonNode n) {
    if (n != null && n.isNumber()) {
      return n.bigIntegerValue();
    }
    throw mismatch(n, "a number");
  }

  static BigDecimal bigDecimal(JsonNode n) {
    if (n != null && n.isNumber()) {
      return n.decimalValue();
    }
    throw mismatch(n, "a number");
  }

  static CharSequence text(JsonNode n) {
    if (n != null && n.isTextual()) {
      return n.textValue();
    }
    throw mismatch(n, "a string");
  }

  static byte[] bytes(JsonNode n) {
    if (n instanceof BinaryNode b) {
      return b.binaryValue();
    }
    throw mismatch(n, "binary");
  }

  static boolean isNull(JsonNode n) {
    return n == null || n.isNull() || n.isMissingNode();
  }

  private static ClassCastException mismatch(Object value, String expected) {
    String actual = value == null ? "a missing value"
        : value instanceof JsonNode n ? "JSON " + n.getNodeType() : value.getClass().getName();
    return new ClassCastException(actual + " is not " + expected);
  }

  // The nested accessor: containers are ArrayNode or a flattened object (Object[]).

  @Override
  public ValueKind kind(Object c, int i) {
    Object e = element(c, i);
    if (e instanceof JsonNode n) {
      return kind(n);
    }
    return e == null ? ValueKind.NULL : ValueKind.TEXT;
  }

  @Override
  public boolean isNull(Object c, int i) {
    Object e = element(c, i);
    return e == null || e instanceof JsonNode n && isNull(n);
  }

  @Override
  public Object getObject(Object c, int i) {
    Object e = element(c, i);
    return e instanceof JsonNode n ? object(n) : e;
  }

  @Override
  public boolean getBoolean(Object c, int i) {
    return booleanValue(node(c, i));
  }

  @Override
  public long getLong(Object c, int i) {
    return longValue(node(c, i));
  }

  @Override
  public double getDouble(Object c, int i) {
    return doubleValue(node(c, i));
  }

  @Override
  public BigInteger getBigInteger(Object c, int i) {
    return bigInteger(node(c, i));
  }

  @Override
  public BigDecimal getBigDecimal(Object c, int i) {
    return bigDecimal(node(c, i));
  }

  @Override
  public CharSequence getText(Object c, int i) {
    Object e = element(c, i);
    return e instanceof String s ? s : text(asNode(e));
  }

  @Override
  public byte[] getBytes(Object c, int i) {
    return bytes(node(c, i));
  }

  @Override
  public RowAccessor<Object> nested(Object c, int i) {
    return this;
  }

  /** Returns the elements of an array, twice the fields of an object. */
  @Override
  public int size(Object c) {
    if (c instanceof Object[] a) {
      return a.length;
    }
    if (c instanceof ArrayNode a) {
      return a.size();
    }
    if (c instanceof ObjectNode o) {
      return 2 * o.size();
    }
    throw notContainer(c);
  }

  private static JsonNode node(Object c, int i) {
    return asNode(element(c, i));
  }

  private static JsonNode asNode(Object e) {
    if (e == null || e instanceof JsonNode) {
      return (JsonNode) e;
    }
    throw mismatch(e, "a JSON value (it is an object's field name)");
  }

  /** Returns element {@code i}: a node, a field name ({@code String}) or {@code null}. */
  private static Object element(Object c, int i) {
    if (c instanceof ArrayNode a) {
      Objects.checkIndex(i, a.size());
      return a.get(i);
    }
    if (c instanceof Object[] a) {
      return a[i];
    }
    if (c instanceof ObjectNode o) {
      Objects.checkIndex(i, 2 * o.size());
      Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator();
      for (int k = 0; k < i / 2; k++) {
        it.next();
      }
      Map.Entry<String, JsonNode> e = it.next();
      return (i & 1) == 0 ? e.getKey() : e.getValue();
    }
    throw notContainer(c);
  }

  private static IllegalArgumentException notContainer(Object c) {
    return new IllegalArgumentException("not a JSON container (ArrayNode, ObjectNode or the"
        + " flattened fields of one): " + (c == null ? "null" : c.getClass().getName()));
  }
}
