package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code handoff ingest} into a real ClickHouse 18.16 (started by the tests on a loopback port):
 * a million rows of a mixed schema in both formats, a row the server rejects, and the files of
 * {@code --out} mode loaded into the server.
 */
final class IngestServerTest {

  /** Rows of the big run; {@code -Dhandoff.ingest.rows=N} changes it. */
  static final long ROWS = Long.getLong("handoff.ingest.rows", 1_000_000L);

  @TempDir
  static Path shared;

  static ClickHouseServer server;
  static Path input;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() throws IOException {
    server = ClickHouseServer.shared();
    long t0 = System.nanoTime();
    input = MixedRows.write(shared.resolve("mixed.jsonl"), ROWS);
    System.out.printf(Locale.ROOT, "generated %,d rows (%,d bytes) in %.1f s%n", ROWS,
        Files.size(input), (System.nanoTime() - t0) / 1e9);
  }

  @AfterAll
  static void stop() {
    server = null;
  }

  static String table(String db) {
    server.execute("CREATE TABLE " + db + ".t (" + MixedRows.COLUMNS
        + ") ENGINE = MergeTree ORDER BY id");
    return db + ".t";
  }

  @ParameterizedTest
  @ValueSource(strings = {"native", "rowbinary"})
  void millionMixedRows_arriveWithEqualChecksums(String format) throws IOException {
    String table = table(server.uniqueDatabase("ingest_" + format));
    long t0 = System.nanoTime();

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        table, "--input", input.toString(), "--format", format, "--no-progress",
        "--checkpoint", dir.resolve("cp.json").toString());

    double secs = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "%s: %,d rows in %.1f s (%,.0f rows/s)%n", format, ROWS, secs,
        ROWS / secs);
    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    JsonNode s = MixedRows.summary(r.out());
    assertThat(s.get("status").asText()).isEqualTo("ok");
    assertThat(s.get("rowsRead").asLong()).isEqualTo(ROWS);
    assertThat(s.get("rowsWritten").asLong()).isEqualTo(ROWS);
    assertThat(s.get("rowsSkipped").asLong()).isZero();
    assertThat(s.get("checkpoint").get("offset").asLong()).isEqualTo(Files.size(input));
    assertThat(new CheckpointFile(dir.resolve("cp.json")).read().orElseThrow().offset())
        .isEqualTo(Files.size(input));
    MixedRows.assertChecksums(server.query(String.format(MixedRows.CHECKSUM_SQL, table)), ROWS);
  }

  /**
   * The end of the input ends the workers' linger: with a linger of an hour and inserts large
   * enough for every row, the run still ends as soon as its one insert is written (before, the
   * last insert waited out the linger; the time-out below fails that, with room for any load).
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void endOfInput_sendsTheLastInsertWithoutWaitingOutTheLinger() throws IOException {
    String table = table(server.uniqueDatabase("ingest_linger"));
    Path small = MixedRows.write(dir.resolve("small.jsonl"), 5_000);

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        table, "--input", small.toString(), "--linger", "1h", "--insert-bytes", "1GiB",
        "--shards", "1", "--no-progress");

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    assertThat(MixedRows.summary(r.out()).get("rowsWritten").asLong()).isEqualTo(5_000);
    assertThat(server.query("SELECT count() FROM " + table).strip()).isEqualTo("5000");
  }

  @Test
  void rejectedRow_goesToTheDeadLetters_withTheServersMessage_andTheRestArrives()
      throws IOException {
    String db = server.uniqueDatabase("ingest_reject");
    server.execute("CREATE TABLE " + db + ".t (" + MixedRows.COLUMNS
        + ", _reject UInt8 MATERIALIZED throwIf(id = 777)) ENGINE = MergeTree ORDER BY id");
    Path small = MixedRows.write(dir.resolve("small.jsonl"), 5_000);
    Path dead = dir.resolve("dead");

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        db + ".t", "--input", small.toString(), "--on-reject", "dead-letter", "--dead-letter",
        dead.toString(), "--batch-rows", "500", "--chunk-bytes", "16KiB", "--no-progress");

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    JsonNode s = MixedRows.summary(r.out());
    assertThat(s.get("rowsDeadLettered").asLong()).isEqualTo(1);
    assertThat(s.get("rowsWritten").asLong()).isEqualTo(4_999);
    assertThat(server.query("SELECT count(), countIf(id = 777), uniqExact(id) FROM " + db + ".t")
        .strip()).isEqualTo("4999\t0\t4999");
    String letters;
    try (Stream<Path> files = Files.list(dead)) {
      List<Path> all = files.collect(Collectors.toList());
      assertThat(all).isNotEmpty();
      StringBuilder sb = new StringBuilder();
      for (Path p : all) {
        if (p.toString().endsWith(".json")) {
          sb.append(Files.readString(p));
        }
      }
      letters = sb.toString();
    }
    assertThat(letters).contains("395").contains("throwIf");
  }

  @ParameterizedTest
  @ValueSource(strings = {"native", "rowbinary"})
  void outDirFiles_loadIntoTheServer_withEqualChecksums(String format) throws IOException {
    long rows = 20_000;
    Path small = MixedRows.write(dir.resolve("small.jsonl"), rows);
    Path out = dir.resolve("out");

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--input", small.toString(), "--out",
        out.toString(), "--schema", MixedRows.COLUMNS, "--format", format, "--batch-rows",
        "1000", "--chunk-bytes", "64KiB", "--insert-bytes", "256KiB", "--no-progress");

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    assertThat(MixedRows.summary(r.out()).get("rowsWritten").asLong()).isEqualTo(rows);
    assertThat(Files.readString(out.resolve("structure.txt")).strip())
        .isEqualTo(MixedRows.COLUMNS);
    String table = table(server.uniqueDatabase("ingest_out_" + format));
    String clickhouseFormat = Files.readString(out.resolve("format.txt")).strip();
    List<Path> inserts;
    try (Stream<Path> files = Files.list(out)) {
      inserts = files.filter(p -> p.getFileName().toString().endsWith("." + format)).sorted()
          .collect(Collectors.toList());
    }
    assertThat(inserts).hasSizeGreaterThan(1);
    for (Path p : inserts) {
      server.query("INSERT INTO " + table + " FORMAT " + clickhouseFormat, Files.readAllBytes(p));
    }
    MixedRows.assertChecksums(server.query(String.format(MixedRows.CHECKSUM_SQL, table)), rows);
  }
}
