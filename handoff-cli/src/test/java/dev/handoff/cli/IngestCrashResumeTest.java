package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parallel checkpoint after a crash: in each of 20 seeded runs, {@code handoff ingest} runs
 * in a JVM of its own with several parser threads and two shards, is killed with SIGKILL at a
 * seeded point (once the table holds a seeded share of the rows, plus a seeded delay), and is run
 * again with {@code --resume} on the same checkpoint. Afterwards every input row is in the table
 * (a real ClickHouse 18.16), and the duplicates the resume reports are exactly those found in the
 * table (the rows per id beyond the first). A failure names the seed.
 */
final class IngestCrashResumeTest {

  static final int SEEDS = Integer.getInteger("handoff.ingest.crash.seeds", 20);
  static final long FIRST_SEED = Long.getLong("handoff.ingest.crash.seed", 1L);

  static ClickHouseServer server;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    server = ClickHouseServer.start();
  }

  @AfterAll
  static void close() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  @Timeout(value = 900, unit = TimeUnit.SECONDS)
  void killedAtASeededPoint_resumeReportsTheDuplicatesFoundInTheTable() throws Exception {
    StringBuilder seen = new StringBuilder();
    for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
      seen.append(crashAndResume(seed)).append('\n');
    }
    System.out.println(seen);
  }

  /** One seeded run; returns a line saying what happened. */
  private String crashAndResume(long seed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(seed);
    long rows = 20_000 + rnd.nextInt(30_001);
    int batchRows = 200 + rnd.nextInt(1_800);
    double share = 0.05 + rnd.nextDouble() * 0.75;
    int extraMillis = rnd.nextInt(40);
    String db = server.uniqueDatabase("ingest_crash" + seed);
    server.execute("CREATE TABLE " + db + ".t (" + MixedRows.COLUMNS
        + ") ENGINE = MergeTree ORDER BY id");
    String table = db + ".t";
    Path input = MixedRows.write(dir.resolve("in" + seed + ".jsonl"), rows);
    Path checkpoint = dir.resolve("cp" + seed + ".json");
    String what = "seed " + seed + " (-Dhandoff.ingest.crash.seed=" + seed
        + " -Dhandoff.ingest.crash.seeds=1): " + rows + " rows, --batch-rows " + batchRows
        + ", killed at " + Math.round(share * 100) + "% + " + extraMillis + " ms";
    List<String> args = List.of("ingest", "--url", server.httpUrl(), "--table", table,
        "--input", input.toString(), "--parse-threads", "2", "--shards", "2",
        "--batch-rows", Integer.toString(batchRows), "--chunk-bytes", "16KiB",
        "--insert-bytes", "32KiB", "--linger", "0ms", "--budget", "1MiB", "--no-progress",
        "--checkpoint", checkpoint.toString());
    Path log = dir.resolve("child" + seed + ".log");
    Process child = IngestRecoveryTest.ingester(args, log);
    boolean finished = false;
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (child.isAlive() && count(table) < share * rows) {
        assertThat(System.nanoTime()).as("%s: the child makes progress; its log:\n%s", what,
            IngestRecoveryTest.log(log)).isLessThan(deadline);
        Thread.sleep(2);
      }
      Thread.sleep(extraMillis);
      finished = !child.isAlive();
      child.toHandle().destroyForcibly(); // SIGKILL on Linux
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    long before = count(table);

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        table, "--input", input.toString(), "--parse-threads", "2", "--no-progress",
        "--checkpoint", checkpoint.toString(), "--resume");

    assertThat(r.exit()).as("%s: %s%s", what, r.err(), r.out()).isZero();
    JsonNode s = MixedRows.summary(r.out());
    String[] counts = server.query("SELECT count(), uniqExact(id), min(id), max(id),"
        + " (SELECT sum(c - 1) FROM (SELECT id, count() AS c FROM " + table
        + " GROUP BY id)) FROM " + table).strip().split("\t");
    assertThat(Long.parseLong(counts[1])).as("%s: every row, %s", what, s).isEqualTo(rows);
    assertThat(counts[2]).isEqualTo("0");
    assertThat(Long.parseLong(counts[3])).isEqualTo(rows - 1);
    long found = Long.parseLong(counts[4]);
    assertThat(found).isEqualTo(Long.parseLong(counts[0]) - rows);
    assertThat(s.get("duplicates").asLong())
        .as("%s: duplicates reported vs found in the table (%d rows before the resume; the"
            + " child's log:\n%s\nthe resume's summary: %s", what, before,
            IngestRecoveryTest.log(log), s)
        .isEqualTo(found);
    assertThat(s.get("rowsInDoubt").asLong()).as("%s: %s", what, s).isZero();
    return what + (finished ? " (had finished)" : "") + ": " + before
        + " rows before the resume, duplicates " + found + " found = reported, resumed from "
        + s.get("resumedFrom").asLong();
  }

  private static long count(String table) {
    return Long.parseLong(server.query("SELECT count() FROM " + table).strip());
  }
}
