package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line parser's JSON settings, which the lazy mapper must keep: Jackson's own double parser
 * on every token parser, and numbers with a fraction read as exact decimals into trees when the
 * table has a Decimal column (else as doubles), whichever parser the tree is read from. And the
 * point of it: a run whose lines are all flat never makes an {@link ObjectMapper}.
 */
final class TreeMapperTest {

  @TempDir
  Path dir;

  /**
   * In a JVM of its own, an ingest of flat lines never loads the date format that the first
   * {@link ObjectMapper} initializes (about 60 ms of CPU); one array row, which is read as a
   * tree, does: so the check can tell the two apart.
   */
  @Test
  void flatLinesMakeNoMapper_aTreeLineDoes() throws Exception {
    String flat = "{\"id\": 1, \"name\": \"a\", \"price\": 1.25}\n".repeat(50);
    assertThat(loadsMapper("flat", flat)).isFalse();
    assertThat(loadsMapper("tree", flat + "[2, \"b\", 2.5]\n")).isTrue();
  }

  private boolean loadsMapper(String name, String lines) throws Exception {
    Path input = Files.writeString(dir.resolve(name + ".jsonl"), lines);
    Path log = dir.resolve(name + ".log");
    Process p = IngestRecoveryTest.ingester(List.of("-Xlog:class+load=info"), List.of("ingest",
        "--schema", "id UInt64, name String, price Decimal(18, 4)", "--input", input.toString(),
        "--out", dir.resolve(name + "-out").toString(), "--no-progress"), log);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ingest ended").isTrue();
    String out = Files.readString(log);
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).as("the summary").contains("\"rowsWritten\" : " + lines.lines().count());
    return out.contains("com.fasterxml.jackson.databind.util.StdDateFormat ");
  }

  @Test
  void tokenParsers_useTheFastDoubleParser() throws Exception {
    try (JsonParser p = new TreeMapper(false).factory().createParser("1.5")) {
      assertThat(p.isEnabled(StreamReadFeature.USE_FAST_DOUBLE_PARSER)).isTrue();
      assertThat(p.nextToken()).isEqualTo(JsonToken.VALUE_NUMBER_FLOAT);
      assertThat(p.getDoubleValue()).isEqualTo(1.5);
    }
  }

  @Test
  void exactDecimals_readFractionsAsBigDecimals_fromBytesAndFromAParserMadeBefore()
      throws Exception {
    TreeMapper json = new TreeMapper(true);
    byte[] line = "{\"price\": 0.10000000000000000001}".getBytes(StandardCharsets.US_ASCII);
    // A parser made before the mapper exists, as the token path makes them.
    try (JsonParser p = json.factory().createParser(line, 0, line.length)) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      assertThat(p.nextToken()).isEqualTo(JsonToken.FIELD_NAME);
      assertThat(p.nextToken()).isEqualTo(JsonToken.VALUE_NUMBER_FLOAT);
      JsonNode n = json.get().readTree(p);
      assertThat(n.isBigDecimal()).isTrue();
      assertThat(n.decimalValue()).isEqualByComparingTo(new BigDecimal("0.10000000000000000001"));
    }
    JsonNode tree = json.get().readTree(line, 0, line.length);
    assertThat(tree.get("price").decimalValue())
        .isEqualByComparingTo(new BigDecimal("0.10000000000000000001"));
  }

  @Test
  void withoutExactDecimals_fractionsAreDoubles() throws Exception {
    JsonNode n = new TreeMapper(false).get().readTree("{\"x\": 0.1}");
    assertThat(n.get("x").isDouble()).isTrue();
    assertThat(n.get("x").doubleValue()).isEqualTo(0.1);
  }

  @Test
  void theMapperIsMadeOnce_overTheSameFactory() {
    TreeMapper json = new TreeMapper(true);
    ObjectMapper m = json.get();
    assertThat(json.get()).isSameAs(m);
    assertThat(m.getFactory()).isSameAs(json.factory());
  }
}
