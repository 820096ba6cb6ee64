package dev.handoff.benchmarks.encode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.RowEncoderProvider;
import dev.handoff.clickhouse.row.RowAccessors;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The benchmark contenders do the same work: for 1,000 rows of each schema, our encoder, client-v2's
 * RowBinaryFormatWriter and the typed RowBinaryFormatSerializer calls write identical bytes, and
 * the Jackson JSONEachRow output reads back as the same values.
 */
class BenchmarkEquivalenceTest {
  private static final int ROWS = 1000;

  static Stream<Workload> workloads() {
    return Stream.of(
        Workload.narrow(ROWS, 7),
        Workload.narrowLowCardinality(ROWS, 7, true),
        Workload.narrowLowCardinality(ROWS, 7, false),
        Workload.wide(ROWS, 7, Workload.DecimalForm.DOUBLE),
        Workload.wide(ROWS, 7, Workload.DecimalForm.BIG_DECIMAL));
  }

  @ParameterizedTest
  @MethodSource("workloads")
  void rowBinaryContendersWriteIdenticalBytes(Workload w) {
    Contenders c = new Contenders(w);
    byte[] ours = c.handoffBytes();
    assertThat(ours).hasSize(c.outputBytes());
    assertThat(c.clientV2WriterBytes()).as("client-v2 RowBinaryFormatWriter").isEqualTo(ours);
    assertThat(c.clientV2SerializerBytes()).as("client-v2 RowBinaryFormatSerializer")
        .isEqualTo(ours);
    // A second pass over the reused sinks writes the same again.
    assertThat(c.handoffBytes()).isEqualTo(ours);
    assertThat(c.clientV2WriterBytes()).isEqualTo(ours);
  }

  @ParameterizedTest
  @MethodSource("workloads")
  void serviceLoaderFindsTheSameEncoder(Workload w) {
    RowEncoderProvider provider = ServiceLoader.load(RowEncoderProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(p -> p.name().equals("rowbinary"))
        .findFirst()
        .orElseThrow();
    RowEncoder<Object[]> encoder =
        provider.create(w.handoffSchema(), RowAccessors.objectArray(), Map.of());
    ChunkBuffer b = new ChunkBuffer(1024);
    for (Object[] row : w.rows()) {
      encoder.encode(row, b);
    }
    assertThat(b.toByteArray()).isEqualTo(new Contenders(w).handoffBytes());
  }

  @ParameterizedTest
  @MethodSource("workloads")
  void jacksonWritesTheSameValuesAsJsonEachRow(Workload w) throws Exception {
    String text = new String(new Contenders(w).jacksonBytes(), StandardCharsets.UTF_8);
    List<String> lines = Arrays.asList(text.split("\n", -1));
    assertThat(lines).hasSize(ROWS + 1);
    assertThat(lines.get(ROWS)).isEmpty(); // every row ends with a newline
    ObjectMapper mapper = new ObjectMapper();
    for (int i = 0; i < ROWS; i++) {
      JsonNode node = mapper.readTree(lines.get(i));
      Object[] row = w.rows()[i];
      assertThat(node.size()).isEqualTo(w.columns().size());
      for (int c = 0; c < row.length; c++) {
        JsonNode v = node.get(w.columns().get(c).name());
        assertThat(v).as("row %d column %s", i, w.columns().get(c).name()).isNotNull();
        assertSameValue(row[c], v);
      }
    }
  }

  private static void assertSameValue(Object expected, JsonNode v) {
    if (expected == null) {
      assertThat(v.isNull()).isTrue();
    } else if (expected instanceof Instant t) {
      assertThat(v.asLong()).isEqualTo(t.getEpochSecond());
    } else if (expected instanceof Long || expected instanceof Integer) {
      assertThat(v.asLong()).isEqualTo(((Number) expected).longValue());
    } else if (expected instanceof Double d) {
      assertThat(v.asDouble()).isEqualTo(d);
    } else if (expected instanceof BigDecimal d) {
      assertThat(v.decimalValue().compareTo(d)).isZero();
    } else if (expected instanceof int[] a) {
      assertThat(v.size()).isEqualTo(a.length);
      for (int i = 0; i < a.length; i++) {
        assertThat(v.get(i).asInt()).isEqualTo(a[i]);
      }
    } else {
      // String, UUID, LocalDate: their text.
      assertThat(v.asText()).isEqualTo(expected.toString());
    }
  }
}
