package dev.handoff.simulator.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link SimulationReport} or a {@link SweepSummary} as JSON, and reads a simulation
 * report back.
 *
 * <p>The document is built as a Jackson tree in a fixed field order (the order documented in
 * {@code docs/simulator.md}), maps keep the order the engine gave them, lines end with {@code \n}
 * on every platform, and non-finite rates are written as {@code null}. Two runs of the same seed
 * and configuration therefore give byte-identical documents apart from the wall-clock fields
 * ({@code run.wallNanos}, {@code run.eventsPerSecond}, {@code run.recordsPerSecond}).
 *
 * <p>The event-log hash is written as 16 lowercase hex digits (a string), so that JavaScript
 * readers, whose numbers hold 53 bits, see it exactly; it is the same text the command line prints.
 */
public final class JsonReport {

  /** The value of the {@code format} field of a simulation report. */
  public static final String REPORT_FORMAT = "handoff-simulation-report/1";

  /** The value of the {@code format} field of a sweep summary. */
  public static final String SWEEP_FORMAT = "handoff-sweep-summary/1";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
      .withObjectIndenter(new DefaultIndenter("  ", "\n")));

  private JsonReport() {}

  /**
   * Returns the JSON text of a simulation report, ending with a line break.
   *
   * @param report the report to render
   * @return the document
   */
  public static String toJson(SimulationReport report) {
    return text(tree(report));
  }

  /**
   * Returns the JSON text of a sweep summary, ending with a line break.
   *
   * @param summary the summary to render
   * @return the document
   */
  public static String toJson(SweepSummary summary) {
    return text(tree(summary));
  }

  /**
   * Writes the JSON text of a simulation report to a file in UTF-8, replacing it.
   *
   * @param report the report to render
   * @param file where to write it
   * @throws IOException when the file cannot be written
   */
  public static void write(SimulationReport report, Path file) throws IOException {
    Files.writeString(file, toJson(report), StandardCharsets.UTF_8);
  }

  /**
   * Writes the JSON text of a sweep summary to a file in UTF-8, replacing it.
   *
   * @param summary the summary to render
   * @param file where to write it
   * @throws IOException when the file cannot be written
   */
  public static void write(SweepSummary summary, Path file) throws IOException {
    Files.writeString(file, toJson(summary), StandardCharsets.UTF_8);
  }

  /**
   * Returns the JSON tree of a simulation report, fields in document order.
   *
   * @param report the report to render
   * @return a fresh tree the caller may change
   */
  public static ObjectNode tree(SimulationReport report) {
    ObjectNode root = NODES.objectNode();
    root.put("format", REPORT_FORMAT);
    root.put("seed", report.seed());
    root.put("verdict", report.passed() ? "passed" : "failed");
    root.put("replayCommand", report.replayCommand());
    root.put("eventLogHash", hash(report.eventLogHash()));
    root.set("configuration", strings(report.configuration()));

    ObjectNode run = root.putObject("run");
    run.put("events", report.events());
    run.put("simulatedTicks", report.simulatedTicks());
    run.put("wallNanos", report.wallNanos());
    putRate(run, "eventsPerSecond", report.eventsPerSecond());
    putRate(run, "recordsPerSecond", report.recordsPerSecond());

    root.set("faultsInjected", counts(report.faultsInjected()));

    ArrayNode oracles = root.putArray("oracles");
    for (OracleResult o : report.oracles()) {
      ObjectNode node = oracles.addObject();
      node.put("name", o.name());
      node.put("passed", o.passed());
      node.put("checks", o.checks());
      node.put("failure", o.failure());
      node.put("atEvent", o.atEvent());
    }

    root.set("records", counts(report.records()));

    ArrayNode events = root.putArray("lastEvents");
    report.lastEvents().forEach(events::add);

    ArrayNode markers = root.putArray("faultMarkers");
    for (FaultMarker m : report.faultMarkers()) {
      ObjectNode node = markers.addObject();
      node.put("tick", m.tick());
      node.put("fault", m.fault());
      node.put("detail", m.detail());
    }

    ArrayNode lifetimes = root.putArray("lifetimes");
    for (Lifetime l : report.lifetimes()) {
      ObjectNode node = lifetimes.addObject();
      node.put("epoch", l.epoch());
      node.put("faulty", l.faulty());
      node.put("startTick", l.startTick());
      node.put("endTick", l.endTick());
      node.put("ending", l.ending());
      node.put("teardownTick", l.teardownTick());
      node.put("shutdownTick", l.shutdownTick());
      node.put("shutdownDeadline", l.shutdownDeadline());
      node.put("drained", l.drained());
      node.set("workers", counts(l.workers()));
    }

    ArrayNode series = root.putArray("series");
    for (Series s : report.series()) {
      ObjectNode node = series.addObject();
      node.put("name", s.name());
      node.put("group", s.group());
      ArrayNode ticks = node.putArray("ticks");
      for (long t : s.ticks()) {
        ticks.add(t);
      }
      ArrayNode values = node.putArray("values");
      for (long v : s.values()) {
        values.add(v);
      }
    }
    return root;
  }

  /**
   * Returns the JSON tree of a sweep summary, fields in document order.
   *
   * @param summary the summary to render
   * @return a fresh tree the caller may change
   */
  public static ObjectNode tree(SweepSummary summary) {
    ObjectNode root = NODES.objectNode();
    root.put("format", SWEEP_FORMAT);
    root.put("fromSeed", summary.fromSeed());
    root.put("toSeed", summary.toSeed());
    root.put("verdict", summary.seedsFailed() == 0 ? "passed" : "failed");
    root.put("seedsRun", summary.seedsRun());
    root.put("seedsFailed", summary.seedsFailed());
    root.put("records", summary.records());
    root.put("events", summary.events());
    root.put("wallNanos", summary.wallNanos());
    putRate(root, "recordsPerSecond", summary.recordsPerSecond());
    root.set("faultsInjected", counts(summary.faultsInjected()));
    root.set("oracleFailures", counts(summary.oracleFailures()));
    ArrayNode failures = root.putArray("failures");
    for (SweepSummary.Failure f : summary.failures()) {
      ObjectNode node = failures.addObject();
      node.put("seed", f.seed());
      node.put("oracle", f.oracle());
      node.put("failure", f.failure());
      node.put("replayCommand", f.replayCommand());
    }
    return root;
  }

  /**
   * Reads a simulation report from the JSON this class writes. Rates written as {@code null} read
   * back as NaN.
   *
   * @param json a document written by {@link #toJson(SimulationReport)}
   * @return the report it describes
   * @throws IllegalArgumentException when the text is not such a document
   */
  public static SimulationReport readReport(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !REPORT_FORMAT.equals(root.path("format").asText())) {
      throw new IllegalArgumentException("not a " + REPORT_FORMAT + " document");
    }
    JsonNode run = root.path("run");
    List<OracleResult> oracles = new ArrayList<>();
    for (JsonNode o : root.path("oracles")) {
      oracles.add(new OracleResult(o.path("name").asText(), o.path("passed").asBoolean(),
          o.path("checks").asLong(), textOrNull(o.path("failure")), o.path("atEvent").asLong()));
    }
    List<String> lastEvents = new ArrayList<>();
    root.path("lastEvents").forEach(e -> lastEvents.add(e.asText()));
    List<FaultMarker> markers = new ArrayList<>();
    for (JsonNode m : root.path("faultMarkers")) {
      markers.add(new FaultMarker(m.path("tick").asLong(), m.path("fault").asText(),
          m.path("detail").asText()));
    }
    List<Lifetime> lifetimes = new ArrayList<>();
    for (JsonNode l : root.path("lifetimes")) {
      lifetimes.add(new Lifetime(l.path("epoch").asInt(), l.path("faulty").asBoolean(),
          l.path("startTick").asLong(), l.path("endTick").asLong(), l.path("ending").asText(),
          l.path("teardownTick").asLong(), l.path("shutdownTick").asLong(),
          l.path("shutdownDeadline").asLong(), l.path("drained").asBoolean(),
          readCounts(l.path("workers"))));
    }
    List<Series> series = new ArrayList<>();
    for (JsonNode s : root.path("series")) {
      series.add(new Series(s.path("name").asText(), s.path("group").asText(),
          longs(s.path("ticks")), longs(s.path("values"))));
    }
    return new SimulationReport(
        root.path("seed").asLong(),
        readStrings(root.path("configuration")),
        root.path("replayCommand").asText(),
        Long.parseUnsignedLong(root.path("eventLogHash").asText(), 16),
        run.path("events").asLong(),
        run.path("simulatedTicks").asLong(),
        run.path("wallNanos").asLong(),
        rate(run.path("eventsPerSecond")),
        rate(run.path("recordsPerSecond")),
        readCounts(root.path("faultsInjected")),
        oracles,
        readCounts(root.path("records")),
        series,
        markers,
        lastEvents,
        lifetimes);
  }

  /**
   * Returns an event-log hash as the reports and the command line print it: 16 lowercase hex
   * digits.
   *
   * @param eventLogHash the hash
   * @return its text
   */
  public static String hash(long eventLogHash) {
    String hex = Long.toHexString(eventLogHash);
    return "0".repeat(16 - hex.length()) + hex;
  }

  private static String text(JsonNode tree) {
    try {
      return WRITER.writeValueAsString(tree) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void putRate(ObjectNode node, String field, double rate) {
    if (Double.isFinite(rate)) {
      node.put(field, rate);
    } else {
      node.putNull(field);
    }
  }

  private static double rate(JsonNode node) {
    return node.isNumber() ? node.asDouble() : Double.NaN;
  }

  private static ObjectNode strings(Map<String, String> map) {
    ObjectNode node = NODES.objectNode();
    map.forEach(node::put);
    return node;
  }

  private static ObjectNode counts(Map<String, Long> map) {
    ObjectNode node = NODES.objectNode();
    map.forEach(node::put);
    return node;
  }

  private static Map<String, String> readStrings(JsonNode node) {
    Map<String, String> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      map.put(e.getKey(), e.getValue().asText());
    }
    return map;
  }

  private static Map<String, Long> readCounts(JsonNode node) {
    Map<String, Long> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      map.put(e.getKey(), e.getValue().asLong());
    }
    return map;
  }

  private static long[] longs(JsonNode array) {
    long[] out = new long[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asLong();
    }
    return out;
  }

  private static String textOrNull(JsonNode node) {
    return node.isNull() || node.isMissingNode() ? null : node.asText();
  }
}
