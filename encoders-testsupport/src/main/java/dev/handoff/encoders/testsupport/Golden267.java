package dev.handoff.encoders.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The golden cases of a ClickHouse 26.7 engine (copied from {@code
 * shared/golden/clickhouse-26.7} into each encoder module's test resources under {@code
 * golden/clickhouse-26.7/}) that do not involve JSON, Variant or Dynamic: one column {@code v} per
 * case, its rows as Java values a user would hand an encoder.
 */
public final class Golden267 {
  private Golden267() {}

  /** The directory under {@code golden/}. */
  public static final String DIR = "clickhouse-26.7/";

  /**
   * The cases covered: every one without JSON, Variant or Dynamic ({@code datetime64_3_tz}'s
   * first row, 1900-01-01 00:00 in Asia/Kolkata, is before 1900-01-01 UTC: the DateTime64 range
   * is in the column's zone, as the server's).
   */
  public static final List<String> CASES = List.of("time", "time64_3", "time64_9", "bfloat16",
      "point", "ring", "linestring", "multilinestring", "polygon", "multipolygon",
      "simple_agg_sum", "simple_agg_anylast_str", "nullable_tuple", "qbit", "nested_unflattened",
      "int128_256", "int256_edges", "decimal256", "date32", "datetime64_9", "datetime64_3_tz",
      "ipv4_ipv6", "bool", "map_lc_nested", "lc_nullable_string", "enum_implicit",
      "tuple_named_nullable", "uuid");

  /**
   * Spellings that differ from the server's, so that the golden headers also prove the
   * canonical names: the encoder is given these, the server wrote its own.
   */
  private static final Map<String, String> SPELLINGS = Map.of(
      "enum_implicit", "Enum('a' = 1, 'b' = 2)",
      "decimal256", "Decimal256(10)",
      "map_lc_nested", "Map(LowCardinality(String),Array(Nullable(Int32)))",
      "datetime64_9", "DateTime64(9,'UTC')");

  /** One case: the type as the schema spells it, the canonical type, and the rows' values. */
  public record Case(String name, String spelling, ClickHouseType type, List<Object> values) {}

  /** Reads case {@code name} from {@code files}. */
  public static Case read(GoldenFiles files, String name) {
    String text = new String(files.bytes(DIR + name + ".expected.jsonl"), StandardCharsets.UTF_8);
    List<Object> values = new ArrayList<>();
    String type = null;
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode row;
      try {
        row = Golden.JSON.readTree(line);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      type = row.get("type").asText();
      values.add(value(row.get("v")));
    }
    if (name.equals("bfloat16")) {
      values.set(1, -0.0d); // JSON's -0 reads as the integer 0
    }
    ClickHouseType parsed = ClickHouseType.parse(type);
    return new Case(name, SPELLINGS.getOrDefault(name, type), parsed, values);
  }

  /** A JSON value as plain Java: Long/BigInteger, Double, String, Boolean, List, Map or null. */
  public static Object value(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isIntegralNumber()) {
      return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
    }
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if (n.isTextual()) {
      return n.textValue();
    }
    if (n.isArray()) {
      List<Object> out = new ArrayList<>();
      n.forEach(e -> out.add(value(e)));
      return out;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    n.fields().forEachRemaining(e -> out.put(e.getKey(), value(e.getValue())));
    return out;
  }
}
