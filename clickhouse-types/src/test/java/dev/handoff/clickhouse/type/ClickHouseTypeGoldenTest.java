package dev.handoff.clickhouse.type;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every type string a server printed in the golden data parses and prints back exactly: the
 * ClickHouse 18.16 cases ({@code golden/clickhouse-18.16/cases.spec.json}, copied from {@code
 * shared/golden}), the derived modern types ({@code golden/derived/modern-types.json}) and the type
 * names of the ch-go files ({@code shared/golden/ch-go/README.md}).
 */
class ClickHouseTypeGoldenTest {

  /** A JSON string value: quotes around anything but a quote or a backslash, or an escape. */
  private static final String JSON_STRING = "\"((?:[^\"\\\\]|\\\\.)*)\"";

  /** {@code "type": "..."} and {@code "native_header_type": "..."}. */
  private static final Pattern TYPE_FIELD =
      Pattern.compile("\"(?:type|native_header_type)\"\\s*:\\s*" + JSON_STRING);

  /** A two-string array, as in {@code ["id", "UInt32"]}; the type is the second. */
  private static final Pattern NAME_TYPE_PAIR =
      Pattern.compile("\\[\\s*" + JSON_STRING + "\\s*,\\s*" + JSON_STRING + "\\s*\\]");

  /** The column types of the ch-go files, from the table in {@code ch-go/README.md}. */
  private static final List<String> CH_GO_TYPES = List.of(
      "Int128", "UInt128", "Int256", "UInt256", "Date32", "Bool", "IPv4", "IPv6", "UUID",
      "Map(String, String)", "Map(LowCardinality(String), LowCardinality(String))",
      "LowCardinality(String)", "Array(LowCardinality(String))", "Nullable(Nothing)", "Int8",
      "String");

  @Test
  void roundTripsEveryClickHouse1816ColumnType() throws IOException {
    String json = resource("golden/clickhouse-18.16/cases.spec.json");
    List<String> types = extract(json, TYPE_FIELD, 1);
    // 72 column types and one native_header_type in the file.
    assertThat(types).hasSize(73).contains("DateTime('Asia/Tokyo')",
        "Enum16('lo' = -32768, 'zero' = 0, 'ü' = 1000, 'hi' = 32767)", "Nullable(Nothing)",
        "Array(Tuple(String, UInt64))", "LowCardinality(Nullable(String))");
    assertRoundTrips(types);
  }

  @Test
  void roundTripsEveryDerivedModernType() throws IOException {
    String json = resource("golden/derived/modern-types.json");
    List<String> types = extract(json, TYPE_FIELD, 1);
    types.addAll(extract(json, NAME_TYPE_PAIR, 2));
    assertThat(types).contains("Int128", "UInt256", "Decimal(76, 10)", "Bool", "Date32",
        "DateTime64(9)", "IPv4", "IPv6", "Map(String, UInt64)", "UInt32");
    assertRoundTrips(types);
  }

  @Test
  void roundTripsTheChGoTypes() {
    assertRoundTrips(CH_GO_TYPES);
  }

  @Test
  void printsTheSpellingsOfFormatsSection24() {
    assertThat(ClickHouseType.parse("Decimal32(2)")).hasToString("Decimal(9, 2)");
    assertThat(ClickHouseType.parse("Decimal64(4)")).hasToString("Decimal(18, 4)");
    assertThat(ClickHouseType.parse("Decimal128(10)")).hasToString("Decimal(38, 10)");
    assertThat(ClickHouseType.parse("Decimal256(3)")).hasToString("Decimal(76, 3)");
    assertThat(ClickHouseType.parse("Enum8('a' = 1, 'b' = 2, 'neg' = -128, 'max' = 127)"))
        .hasToString("Enum8('neg' = -128, 'a' = 1, 'b' = 2, 'max' = 127)");
    assertThat(ClickHouseType.parse("Tuple(Int8,String)")).hasToString("Tuple(Int8, String)");
  }

  private static void assertRoundTrips(List<String> types) {
    for (String s : types) {
      ClickHouseType t = ClickHouseType.parse(s);
      assertThat(t.toString()).as("parse(%s).toString()", s).isEqualTo(s);
      assertThat(ClickHouseType.parse(t.toString())).isEqualTo(t);
    }
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = ClickHouseTypeGoldenTest.class.getResourceAsStream("/" + path)) {
      assertThat(in).as("test resource %s", path).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> extract(String json, Pattern pattern, int group) {
    List<String> out = new ArrayList<>();
    Matcher m = pattern.matcher(json);
    while (m.find()) {
      out.add(unescapeJson(m.group(group)));
    }
    return out;
  }

  /** Decodes the escapes of a JSON string body. */
  private static String unescapeJson(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = s.charAt(++i);
      switch (e) {
        case 'n': sb.append('\n'); break;
        case 't': sb.append('\t'); break;
        case 'r': sb.append('\r'); break;
        case 'b': sb.append('\b'); break;
        case 'f': sb.append('\f'); break;
        case 'u':
          sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
          break;
        default: sb.append(e); // \" \\ \/
      }
    }
    return sb.toString();
  }
}
