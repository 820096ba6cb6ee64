package dev.handoff.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class JsonReportTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void report_hasEveryFieldInDocumentOrder() throws Exception {
    JsonNode root = MAPPER.readTree(JsonReport.toJson(ReportFixtures.passing()));

    assertThat(names(root)).containsExactly("format", "seed", "verdict", "replayCommand",
        "eventLogHash", "configuration", "run", "faultsInjected", "oracles", "records",
        "lastEvents", "faultMarkers", "lifetimes", "series");
    assertThat(names(root.get("run"))).containsExactly("events", "simulatedTicks", "wallNanos",
        "eventsPerSecond", "recordsPerSecond");
    assertThat(names(root.get("oracles").get(0)))
        .containsExactly("name", "passed", "checks", "failure", "atEvent");
    assertThat(names(root.get("faultMarkers").get(0))).containsExactly("tick", "fault", "detail");
    assertThat(names(root.get("series").get(0)))
        .containsExactly("name", "group", "ticks", "values");
    assertThat(root.get("format").asText()).isEqualTo(JsonReport.REPORT_FORMAT);
    assertThat(root.get("verdict").asText()).isEqualTo("passed");
    assertThat(root.get("eventLogHash").asText()).isEqualTo("9e3779b97f4a7c15");
  }

  @Test
  void report_keepsTheEnginesMapOrderAndZeroCounts() throws Exception {
    JsonNode root = MAPPER.readTree(JsonReport.toJson(ReportFixtures.failing()));

    assertThat(names(root.get("configuration")))
        .containsExactly("shards", "queue-capacity", "target-bytes", "encoder", "mutation");
    assertThat(names(root.get("faultsInjected")))
        .containsExactly("queue-stall", "encode-error", "sink-transient", "teardown");
    assertThat(root.get("faultsInjected").get("encode-error").asLong()).isZero();
    assertThat(names(root.get("records"))).containsExactly("generated", "delivered", "skipped",
        "replayed", "duplicated", "lost", "unexpected", "insert-attempts", "worker-inserts",
        "worker-retries", "worker-dead-lettered-rows", "worker-abandoned-chunks",
        "worker-failed-at-shutdown", "worker-writers-stuck");
    assertThat(names(root.get("lifetimes").get(1))).containsExactly("epoch", "faulty",
        "startTick", "endTick", "ending", "teardownTick", "shutdownTick", "shutdownDeadline",
        "drained", "workers");
    assertThat(names(root.get("lifetimes").get(0).get("workers")))
        .containsExactly("insert-attempts");
    assertThat(root.get("verdict").asText()).isEqualTo("failed");
    JsonNode noLoss = root.get("oracles").get(1);
    assertThat(noLoss.get("passed").asBoolean()).isFalse();
    assertThat(noLoss.get("failure").asText()).contains("lost = 3");
    assertThat(noLoss.get("atEvent").asLong()).isEqualTo(511);
    assertThat(root.get("oracles").get(0).get("failure").isNull()).isTrue();
    assertThat(root.get("lastEvents")).hasSize(3);
  }

  @Test
  void report_roundTripsThroughTheReader() {
    SimulationReport original = ReportFixtures.failing();

    SimulationReport read = JsonReport.readReport(JsonReport.toJson(original));

    assertThat(read.seed()).isEqualTo(original.seed());
    assertThat(read.configuration()).containsExactlyEntriesOf(original.configuration());
    assertThat(read.replayCommand()).isEqualTo(original.replayCommand());
    assertThat(read.eventLogHash()).isEqualTo(original.eventLogHash());
    assertThat(read.events()).isEqualTo(original.events());
    assertThat(read.simulatedTicks()).isEqualTo(original.simulatedTicks());
    assertThat(read.wallNanos()).isEqualTo(original.wallNanos());
    assertThat(read.eventsPerSecond()).isEqualTo(original.eventsPerSecond());
    assertThat(read.recordsPerSecond()).isEqualTo(original.recordsPerSecond());
    assertThat(read.faultsInjected()).containsExactlyEntriesOf(original.faultsInjected());
    assertThat(read.oracles()).containsExactlyElementsOf(original.oracles());
    assertThat(read.records()).containsExactlyEntriesOf(original.records());
    assertThat(read.faultMarkers()).containsExactlyElementsOf(original.faultMarkers());
    assertThat(read.lastEvents()).containsExactlyElementsOf(original.lastEvents());
    assertThat(read.series()).hasSameSizeAs(original.series());
    for (int i = 0; i < read.series().size(); i++) {
      Series a = read.series().get(i);
      Series b = original.series().get(i);
      assertThat(a.name()).isEqualTo(b.name());
      assertThat(a.group()).isEqualTo(b.group());
      assertThat(a.ticks()).containsExactly(b.ticks());
      assertThat(a.values()).containsExactly(b.values());
    }
    assertThat(read.passed()).isFalse();
    assertThat(JsonReport.toJson(read)).isEqualTo(JsonReport.toJson(original));
  }

  @Test
  void report_isDeterministicWithUnixLineEnds() {
    String a = JsonReport.toJson(ReportFixtures.failing());
    String b = JsonReport.toJson(ReportFixtures.failing());

    assertThat(a).isEqualTo(b).doesNotContain("\r").endsWith("}\n");
  }

  @Test
  void report_writesNonFiniteRatesAsNullAndHashesAsSixteenHexDigits() throws Exception {
    SimulationReport r = ReportFixtures.passing();
    SimulationReport odd = new SimulationReport(r.seed(), r.configuration(), r.replayCommand(),
        -1L, 0, 0, 0, Double.NaN, Double.POSITIVE_INFINITY, r.faultsInjected(), r.oracles(),
        r.records(), List.of(), List.of(), List.of());

    String json = JsonReport.toJson(odd);
    JsonNode run = MAPPER.readTree(json).get("run");

    assertThat(run.get("eventsPerSecond").isNull()).isTrue();
    assertThat(run.get("recordsPerSecond").isNull()).isTrue();
    assertThat(MAPPER.readTree(json).get("eventLogHash").asText()).isEqualTo("ffffffffffffffff");
    assertThat(JsonReport.hash(255)).isEqualTo("00000000000000ff");
    assertThat(JsonReport.readReport(json).eventLogHash()).isEqualTo(-1L);
    assertThat(JsonReport.readReport(json).eventsPerSecond()).isNaN();
  }

  @Test
  void report_escapesHostileStrings() throws Exception {
    SimulationReport r = ReportFixtures.passing();
    Map<String, String> configuration = new LinkedHashMap<>(r.configuration());
    String hostile = "\"quoted\" \\ back\nslash \u0000 </script> \ud83d\ude00";
    configuration.put("encoder", hostile);
    SimulationReport odd = new SimulationReport(r.seed(), configuration, r.replayCommand(),
        r.eventLogHash(), r.events(), r.simulatedTicks(), r.wallNanos(), r.eventsPerSecond(),
        r.recordsPerSecond(), r.faultsInjected(), r.oracles(), r.records(), r.series(),
        r.faultMarkers(), r.lastEvents());

    JsonNode root = MAPPER.readTree(JsonReport.toJson(odd));

    assertThat(root.get("configuration").get("encoder").asText()).isEqualTo(hostile);
  }

  @Test
  void readReport_rejectsOtherDocuments() {
    assertThatThrownBy(() -> JsonReport.readReport("{\"format\":\"other\"}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a");
    assertThatThrownBy(() -> JsonReport.readReport("{"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not JSON");
  }

  @Test
  void sweep_hasEveryFieldInOrderAndTheFailures() throws Exception {
    Map<String, Long> faults = new LinkedHashMap<>();
    faults.put("queue-stall", 120L);
    faults.put("teardown", 0L);
    Map<String, Long> oracleFailures = new LinkedHashMap<>();
    oracleFailures.put("per-shard-order", 0L);
    oracleFailures.put("no-loss", 2L);
    List<SweepSummary.Failure> failures = List.of(
        new SweepSummary.Failure(13, "no-loss", "lost = 1",
            "./handoff replay --seed 13 --shards=2"),
        new SweepSummary.Failure(77, "no-loss", "lost = 4",
            "./handoff replay --seed 77 --shards=1"));
    SweepSummary summary = new SweepSummary(1, 100, 100, 2, 100_000, 1_500_000, 2_000_000_000L,
        faults, oracleFailures, failures);

    JsonNode root = MAPPER.readTree(JsonReport.toJson(summary));

    assertThat(names(root)).containsExactly("format", "fromSeed", "toSeed", "verdict", "seedsRun",
        "seedsFailed", "records", "events", "wallNanos", "recordsPerSecond", "faultsInjected",
        "oracleFailures", "failures");
    assertThat(root.get("format").asText()).isEqualTo(JsonReport.SWEEP_FORMAT);
    assertThat(root.get("verdict").asText()).isEqualTo("failed");
    assertThat(root.get("recordsPerSecond").asDouble()).isEqualTo(50_000.0);
    assertThat(names(root.get("oracleFailures"))).containsExactly("per-shard-order", "no-loss");
    assertThat(root.get("failures")).hasSize(2);
    assertThat(names(root.get("failures").get(0)))
        .containsExactly("seed", "oracle", "failure", "replayCommand");
    assertThat(root.get("failures").get(1).get("replayCommand").asText())
        .isEqualTo("./handoff replay --seed 77 --shards=1");
  }

  @Test
  void write_putsTheSameTextInAFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("report.json");

    JsonReport.write(ReportFixtures.passing(), file);

    assertThat(Files.readString(file)).isEqualTo(JsonReport.toJson(ReportFixtures.passing()));
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
