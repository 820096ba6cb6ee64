package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of the ClickHouse 26.7 golden vectors (test resources {@code golden/clickhouse-26.7},
 * copied from {@code ../shared/golden/clickhouse-26.7}) read back by the 26.7 engine: its
 * RowBinary and Native files through {@code file()} and through {@code INSERT ... FROM INFILE}
 * into a table of the case's type, re-selected as JSON and compared with {@code expected.jsonl}
 * by content (a JSON object's keys in any order). This proves the engine, the launcher and the
 * session's settings are what the golden vectors were made with.
 */
final class ChdbGoldenTest {
  private static final String QUOTING = "output_format_json_quote_64bit_integers=1,"
      + " output_format_json_quote_decimals=1, output_format_json_quote_denormals=1,"
      + " output_format_json_named_tuples_as_objects=1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ChdbSession engine;

  @BeforeAll
  static void open() {
    engine = Chdb.builder().experimentalTypes().open();
  }

  @AfterAll
  static void close() {
    if (engine != null) {
      engine.close();
    }
  }

  /**
   * One case of cases.json. {@code type} is the type of the golden bytes: the {@code type} of its
   * expected rows ({@code toTypeName} of the case's SELECT), which is what cases.json's {@code
   * type} says too except for {@code datetime64_9}, whose SELECT made {@code DateTime64(9, 'UTC')}
   * (the same bytes as {@code DateTime64(9)}, but another {@code toTypeName}).
   */
  record Case(String name, String type, String settings, JsonNode json) {
    @Override
    public String toString() {
      return name + " " + type;
    }
  }

  static Stream<Case> cases() throws IOException {
    List<Case> cases = new ArrayList<>();
    for (JsonNode c : JSON.readTree(directory().resolve("cases.json").toFile()).get("cases")) {
      cases.add(new Case(c.get("name").asText(), c.get("rows").get(0).get("type").asText(),
          c.get("settings").asText(), c));
    }
    return cases.stream();
  }

  @Test
  void allCasesArePresent_andTheFilesAreTheOnesCasesJsonDescribes() throws Exception {
    List<Case> cases = cases().toList();
    assertThat(cases).hasSize(37);
    for (Case c : cases) {
      assertThat(c.json().get("rows")).as(c.name()).allSatisfy(
          row -> assertThat(row.get("type").asText()).isEqualTo(c.type()));
      for (String suffix : List.of("rowbinary.bin", "native.bin", "expected.jsonl")) {
        byte[] bytes = Files.readAllBytes(directory().resolve(c.name() + "." + suffix));
        JsonNode meta = c.json().get("files").get(suffix);
        assertThat(bytes).as("%s.%s", c.name(), suffix).hasSize(meta.get("bytes").asInt());
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)))
            .as("%s.%s", c.name(), suffix).isEqualTo(meta.get("sha256").asText());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void fileFunction_readsTheGoldenRowBinaryAndNative_asTheExpectedRows(Case c) throws Exception {
    List<JsonNode> expected = expected(c);
    for (String format : List.of("RowBinary", "Native")) {
      withCaseSettings(c, () -> {
        String source = "file(" + Chdb.literal(file(c, format).toString()) + ", '" + format
            + "', " + Chdb.literal("v " + c.type()) + ")";
        assertThat(select(c, source)).as("%s via file(..., %s)", c.name(), format)
            .isEqualTo(expected);
      });
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void insertFromInfile_ofTheGoldenFiles_storesTheExpectedRows(Case c) throws Exception {
    List<JsonNode> expected = expected(c);
    for (String format : List.of("Native", "RowBinary")) {
      String table = "infile_" + c.name() + "_" + format.toLowerCase();
      withCaseSettings(c, () -> {
        engine.execute("CREATE TABLE " + table + " (v " + c.type() + ") ENGINE = Memory");
        engine.execute("INSERT INTO " + table + " FROM INFILE "
            + Chdb.literal(file(c, format).toString()) + " FORMAT " + format);
        assertThat(select(c, table)).as("%s via INSERT ... FROM INFILE ... FORMAT %s",
            c.name(), format).isEqualTo(expected);
        engine.execute("DROP TABLE " + table);
      });
    }
  }

  /** The rows of {@code source} (a table or a table function) as generate.py selected them. */
  private static List<JsonNode> select(Case c, String source) {
    String columns = "v, toTypeName(v) AS type";
    if (c.type().contains("Dynamic")) {
      columns += ", dynamicType(v) AS dynamic_type";
    }
    if (c.type().startsWith("Variant")) {
      columns += ", variantType(v) AS variant_type";
    }
    String settings = c.settings().isEmpty() ? QUOTING : c.settings() + ", " + QUOTING;
    return parseLines(engine.queryText(
        "SELECT " + columns + " FROM " + source + " SETTINGS " + settings, "JSONEachRow"));
  }

  /**
   * Runs {@code body} with the case's settings {@code SET} on the session (as generate.py did,
   * since {@code flatten_nested} matters to {@code CREATE TABLE}), then restores their values.
   */
  private static void withCaseSettings(Case c, ThrowingRunnable body) throws Exception {
    Map<String, String> previous = new LinkedHashMap<>();
    for (String setting : c.settings().isEmpty() ? new String[0] : c.settings().split(",")) {
      String[] kv = setting.strip().split("=", 2);
      String name = kv[0].strip();
      previous.put(name, engine.queryText(
          "SELECT toString(getSetting(" + Chdb.literal(name) + "))", "TabSeparatedRaw").strip());
      engine.execute("SET " + name + " = " + kv[1].strip());
    }
    try {
      body.run();
    } finally {
      previous.forEach((name, value) -> engine.execute("SET " + name + " = " + value));
    }
  }

  private static List<JsonNode> expected(Case c) throws IOException {
    List<JsonNode> rows = parseLines(
        Files.readString(directory().resolve(c.name() + ".expected.jsonl"), UTF_8));
    assertThat(rows).as("%s expected rows", c.name()).isNotEmpty()
        .isEqualTo(List.of(JSON.treeToValue(c.json().get("rows"), JsonNode[].class)));
    return rows;
  }

  private static List<JsonNode> parseLines(String text) {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank()) {
        try {
          rows.add(JSON.readTree(line));
        } catch (IOException e) {
          throw new AssertionError("not JSON: " + line, e);
        }
      }
    }
    return rows;
  }

  private static Path file(Case c, String format) {
    return directory().resolve(c.name() + "." + format.toLowerCase() + ".bin");
  }

  private static Path directory() {
    try {
      return Path.of(ChdbGoldenTest.class.getResource("/golden/clickhouse-26.7/cases.json").toURI())
          .getParent().toAbsolutePath();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A block of test code that may throw. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }
}
