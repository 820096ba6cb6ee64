package dev.handoff.encoders.testsupport;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Turns the expected values of the golden files into the Java values a user would hand the
 * encoder, following the {@code conventions} of the 18.16 {@code cases.json}, and compares bytes
 * with a readable report. The files themselves stay in each encoder module's test resources,
 * under {@code golden/}, and are read through {@link GoldenFiles}.
 */
public final class Golden {
  private Golden() {}

  /** The JSON mapper of the golden files. */
  public static final ObjectMapper JSON = new ObjectMapper();

  /** Returns the cases of an 18.16 {@code cases.json} tree, in file order. */
  public static Stream<JsonNode> cases(JsonNode casesJson) {
    return StreamSupport.stream(casesJson.get("cases").spliterator(), false);
  }

  /** Returns the name of a case of {@code cases.json}. */
  public static String name(JsonNode c) {
    return c.get("name").asText();
  }

  /** Returns the columns of a case of {@code cases.json}, typed as the server's DDL spells them. */
  public static TableSchema schemaOf(JsonNode c) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (JsonNode col : c.get("columns")) {
      columns.add(new ColumnSpec(col.get("name").asText(), col.get("type").asText()));
    }
    return new TableSchema(columns);
  }

  /**
   * Returns the {@code expected_rows} of a case of {@code cases.json} as the Java values a user
   * would hand the encoder ({@link #javaValue}), for the column types of {@code schema}.
   */
  public static List<Object[]> expectedRows(JsonNode c, TableSchema schema) {
    List<ClickHouseType> types = schema.columns().stream()
        .map(col -> ClickHouseType.parse(col.type())).toList();
    List<Object[]> rows = new ArrayList<>();
    for (JsonNode row : c.get("expected_rows")) {
      Object[] values = new Object[types.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = javaValue(row.get(i), types.get(i));
      }
      rows.add(values);
    }
    return rows;
  }

  /** Returns the bytes written as hex digits in {@code hex}. */
  public static byte[] hex(String hex) {
    return HexFormat.of().parseHex(hex);
  }

  /**
   * Returns the Java value for an expected value of {@code cases.json}, typed as a user would
   * hold it: Long for the integers up to 64 bits (BigInteger above {@code Long.MAX_VALUE}),
   * Double/Float (raw bits for {@code {"bits"}}), BigDecimal, String or byte[] ({@code
   * {"hex"}}), LocalDate, Instant for DateTime (the file gives UTC text whatever the column's
   * zone) and DateTime64 (UTC text, with or without a trailing {@code UTC}), UUID, InetAddress
   * for IPs, the enum name, List for Array, Object[] for Tuple, Map for Map, and null.
   */
  public static Object javaValue(JsonNode v, ClickHouseType type) {
    if (v == null || v.isNull()) {
      return null;
    }
    switch (type.kind()) {
      case NULLABLE:
      case LOW_CARDINALITY:
        return javaValue(v, type.element());
      case INT8: case INT16: case INT32: case UINT8: case UINT16: case UINT32:
        return v.asLong();
      case INT64: case UINT64: case INT128: case UINT128: case INT256: case UINT256: {
        BigInteger b = v.isTextual() ? new BigInteger(v.textValue()) : v.bigIntegerValue();
        return b.bitLength() <= 63 ? (Object) b.longValue() : b;
      }
      case FLOAT64:
        if (v.has("bits")) {
          return Double.longBitsToDouble(Long.parseUnsignedLong(v.get("bits").textValue(), 16));
        }
        return floatingText(v);
      case FLOAT32:
        if (v.has("bits")) {
          return Float.intBitsToFloat(Integer.parseUnsignedInt(v.get("bits").textValue(), 16));
        }
        return (float) floatingText(v);
      case DECIMAL:
        return new BigDecimal(v.asText());
      case BOOL:
        return v.booleanValue();
      case STRING:
      case FIXED_STRING:
        return v.has("hex") ? hex(v.get("hex").textValue()) : v.textValue();
      case DATE:
      case DATE32:
        return LocalDate.parse(v.textValue());
      case DATETIME:
        return utcInstant(v.textValue());
      case DATETIME64:
        return utcInstant(v.textValue());
      case UUID:
        return UUID.fromString(v.textValue());
      case IPV4:
      case IPV6:
        try {
          return InetAddress.getByName(v.textValue()); // a literal: no lookup
        } catch (UnknownHostException e) {
          throw new IllegalArgumentException(v.textValue(), e);
        }
      case ENUM8:
      case ENUM16:
        return v.textValue();
      case ARRAY: {
        List<Object> list = new ArrayList<>();
        for (JsonNode e : v) {
          list.add(javaValue(e, type.element()));
        }
        return list;
      }
      case TUPLE: {
        Object[] tuple = new Object[type.elements().size()];
        for (int i = 0; i < tuple.length; i++) {
          tuple[i] = javaValue(v.get(i), type.elements().get(i));
        }
        return tuple;
      }
      case MAP: {
        Map<Object, Object> map = new LinkedHashMap<>();
        v.properties().forEach(e -> map.put(
            javaValue(JSON.getNodeFactory().textNode(e.getKey()), type.elements().get(0)),
            javaValue(e.getValue(), type.elements().get(1))));
        return map;
      }
      default:
        throw new IllegalArgumentException("no golden convention for " + type);
    }
  }

  private static double floatingText(JsonNode v) {
    if (v.isNumber()) {
      return v.doubleValue();
    }
    switch (v.textValue()) {
      case "NaN": return Double.NaN;
      case "Infinity": return Double.POSITIVE_INFINITY;
      case "-Infinity": return Double.NEGATIVE_INFINITY;
      case "-0.0": return -0.0;
      default: throw new IllegalArgumentException("not a float convention: " + v);
    }
  }

  /** Returns {@code YYYY-MM-DD hh:mm:ss[.fff]} (optionally followed by {@code UTC}) read as UTC. */
  public static Instant utcInstant(String text) {
    String s = text.endsWith(" UTC") ? text.substring(0, text.length() - 4) : text;
    return LocalDateTime.parse(s.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
  }

  /**
   * Fails unless {@code actual} equals {@code expected} byte for byte, naming the first differing
   * offset and showing both sides around it.
   */
  public static void assertSameBytes(String what, byte[] expected, byte[] actual) {
    int n = Math.min(expected.length, actual.length);
    int at = -1;
    for (int i = 0; i < n; i++) {
      if (expected[i] != actual[i]) {
        at = i;
        break;
      }
    }
    if (at < 0 && expected.length == actual.length) {
      return;
    }
    if (at < 0) {
      at = n;
    }
    int from = Math.max(0, at - 8);
    fail(what + ": first difference at offset " + at + " (expected " + expected.length
        + " bytes, got " + actual.length + ")"
        + "\n  expected [" + from + "..]: " + window(expected, from, at)
        + "\n  actual   [" + from + "..]: " + window(actual, from, at));
  }

  private static String window(byte[] b, int from, int at) {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < Math.min(b.length, at + 16); i++) {
      sb.append(i == at ? "[" : "").append(HexFormat.of().toHexDigits(b[i]))
          .append(i == at ? "]" : "").append(' ');
    }
    if (at >= b.length) {
      sb.append("[end]");
    }
    return sb.toString().strip();
  }
}
