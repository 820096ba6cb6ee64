package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code handoff ingest} survives the server going away and its own death: a server stopped and
 * started again mid-ingest, and an ingester killed with SIGKILL and run again with {@code
 * --resume}. Both against a real ClickHouse 18.16 of the test's own.
 */
final class IngestRecoveryTest {

  static final long ROWS = Long.getLong("handoff.ingest.recovery.rows", 200_000L);

  /** Rows of the SIGKILL test: enough that the child is still busy when it is killed. */
  static final long KILL_ROWS = Long.getLong("handoff.ingest.kill.rows", 500_000L);

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

  static String table(String db) {
    server.execute("CREATE TABLE " + db + ".t (" + MixedRows.COLUMNS
        + ") ENGINE = MergeTree ORDER BY id");
    return db + ".t";
  }

  static long count(String table) {
    return Long.parseLong(server.query("SELECT count() FROM " + table).strip());
  }

  /** Waits (bounded) until {@code table} holds at least {@code rows} rows. */
  static void awaitRows(String table, long rows, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (count(table) < rows) {
      assertThat(System.nanoTime()).as("%s reaches %d rows in time", table, rows)
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void serverStoppedAndStartedMidIngest_everyRowArrives_duplicatesOnlyFromReplays()
      throws Exception {
    String table = table(server.uniqueDatabase("ingest_restart"));
    byte[] all = Files.readAllBytes(MixedRows.write(dir.resolve("in.jsonl"), ROWS));
    int half = all.length / 2;
    while (all[half - 1] != '\n') {
      half++;
    }
    // The input comes through stdin in two halves, so the run cannot end before the server is
    // stopped however fast it is: the second half goes in only once the server is down.
    PipedOutputStream feed = new PipedOutputStream();
    PipedInputStream stdin = new PipedInputStream(feed, 1 << 20);
    CountDownLatch serverDown = new CountDownLatch(1);
    int firstHalf = half;
    Thread feeder = new Thread(() -> {
      try (feed) {
        feed.write(all, 0, firstHalf);
        feed.flush();
        if (serverDown.await(120, TimeUnit.SECONDS)) {
          feed.write(all, firstHalf, all.length - firstHalf);
        }
      } catch (IOException | InterruptedException e) {
        throw new AssertionError(e);
      }
    }, "stdin-feeder");
    InputStream systemIn = System.in;
    CommandLineTest.Run r;
    try {
      System.setIn(stdin);
      feeder.start();
      CompletableFuture<CommandLineTest.Run> run = CompletableFuture.supplyAsync(() ->
          CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table", table, "--input",
              "-", "--batch-rows", "1000", "--chunk-bytes", "16KiB", "--insert-bytes", "32KiB",
              "--budget", "1MiB", "--request-timeout", "5s", "--retry-max-elapsed", "2m",
              "--no-progress"));

      awaitRows(table, ROWS / 4, 60_000);
      server.stop();
      serverDown.countDown();
      Thread.sleep(2_000);
      assertThat(run).as("the ingest waits for the server").isNotDone();
      server.resume();
      r = run.get(180, TimeUnit.SECONDS);
      feeder.join(10_000);
    } finally {
      System.setIn(systemIn);
    }

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    JsonNode s = MixedRows.summary(r.out());
    assertThat(s.get("status").asText()).isEqualTo("ok");
    assertThat(s.get("rowsRead").asLong()).isEqualTo(ROWS);
    assertThat(s.get("retries").asLong()).as("retried while the server was down").isPositive();
    String[] counts = server.query("SELECT count(), uniqExact(id), min(id), max(id) FROM "
        + table).strip().split("\t");
    assertThat(Long.parseLong(counts[1])).as("distinct ids").isEqualTo(ROWS);
    assertThat(counts[2]).isEqualTo("0");
    assertThat(Long.parseLong(counts[3])).isEqualTo(ROWS - 1);
    long duplicates = Long.parseLong(counts[0]) - ROWS;
    // Duplicates come from replayed batches and from retried inserts whose answer was lost.
    assertThat(duplicates).as("duplicates, all counted")
        .isLessThanOrEqualTo(s.get("rowsReplayed").asLong() + s.get("rowsInDoubt").asLong());
    assertThat(s.get("duplicates").asLong()).isLessThanOrEqualTo(duplicates);
  }

  /**
   * The server stopped for good mid-ingest: the run gives up after {@code --retry-max-elapsed}
   * with exit 1, counting as lost only rows that are not in the table; the {@code --resume} once
   * the server is back writes the rest and reports as duplicates the rows the first run had
   * written past its checkpoint: the duplicates found in the table are those reported, plus at
   * most the rows in doubt (inserts whose answer the stop cut off).
   */
  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void serverGoneThenResumed_duplicatesFoundAreTheDuplicatesReported() throws Exception {
    String table = table(server.uniqueDatabase("ingest_giveup"));
    long rows = ROWS;
    Path input = MixedRows.write(dir.resolve("in.jsonl"), rows);
    byte[] all = Files.readAllBytes(input);
    int half = all.length / 2;
    while (all[half - 1] != '\n') {
      half++;
    }
    // The first run reads a named pipe that gets the second half only once the server is down,
    // so it cannot end before that however fast it is; the resume reads the file.
    Path fifo = dir.resolve("in.fifo");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    Path cp = dir.resolve("cp.json");
    String[] options = {"--url", server.httpUrl(), "--table", table, "--checkpoint",
        cp.toString(), "--batch-rows", "2000", "--chunk-bytes", "16KiB", "--insert-bytes",
        "32KiB", "--budget", "1MiB", "--request-timeout", "5s", "--retry-max-elapsed", "3s",
        "--max-replays", "0", "--no-progress"};
    CompletableFuture<CommandLineTest.Run> run = CompletableFuture.supplyAsync(() ->
        CommandLineTest.run(concat("ingest", concat("--input", concat(fifo.toString(),
            options)))));
    CountDownLatch serverDown = new CountDownLatch(1);
    int firstHalf = half;
    Thread feeder = new Thread(() -> {
      try (var feed = Files.newOutputStream(fifo)) {
        feed.write(all, 0, firstHalf);
        feed.flush();
        if (serverDown.await(120, TimeUnit.SECONDS)) {
          feed.write(all, firstHalf, all.length - firstHalf);
        }
      } catch (IOException e) {
        // the run stopped reading: the pipe is closed
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }, "fifo-feeder");
    feeder.start();
    awaitRows(table, rows / 10, 60_000);
    server.stop();
    serverDown.countDown();
    CommandLineTest.Run first = run.get(120, TimeUnit.SECONDS);
    feeder.join(10_000);
    server.resume();

    JsonNode a = MixedRows.summary(first.out());
    assertThat(first.exit()).as(first.err() + first.out()).isEqualTo(Main.ORACLE_FAILED);
    assertThat(a.get("rowsLost").asLong()).as("%s", a).isPositive();
    String[] before = server.query("SELECT count(), uniqExact(id) FROM " + table).strip()
        .split("\t");
    long distinctBefore = Long.parseLong(before[1]);
    long inDoubtA = a.get("rowsInDoubt").asLong();
    // Rows read and not lost are in the table (the in-doubt ones perhaps too).
    long notLost = a.get("rowsRead").asLong() - a.get("rowsLost").asLong();
    assertThat(distinctBefore).as("%s", a).isBetween(notLost, notLost + inDoubtA);
    System.out.println("gave up: " + a + "\n");

    CommandLineTest.Run second = CommandLineTest.run(concat("ingest", concat("--resume",
        concat("--input", concat(input.toString(), options)))));
    JsonNode b = MixedRows.summary(second.out());
    assertThat(second.exit()).as(second.err() + second.out()).isZero();
    String[] after = server.query("SELECT count(), uniqExact(id) FROM " + table).strip()
        .split("\t");
    assertThat(Long.parseLong(after[1])).as("every row").isEqualTo(rows);
    long found = Long.parseLong(after[0]) - rows;
    long reported = a.get("duplicates").asLong() + b.get("duplicates").asLong();
    assertThat(b.get("duplicates").asLong()).as("the resume says what it wrote again: %s", b)
        .isEqualTo(a.get("rowsWrittenPastCheckpoint").asLong());
    System.out.println("resumed: " + b + "\nduplicates found " + found);
    assertThat(found).as("duplicates found vs reported %s + %s (in doubt %s + %s)", a, b,
        inDoubtA, b.get("rowsInDoubt").asLong())
        .isBetween(reported, reported + inDoubtA + b.get("rowsInDoubt").asLong());
  }

  private static String[] concat(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void serverDownAtTheStart_theRunWaitsForIt() throws Exception {
    String table = table(server.uniqueDatabase("ingest_late"));
    Path input = MixedRows.write(dir.resolve("in.jsonl"), 10_000);
    server.stop();
    CompletableFuture<CommandLineTest.Run> run;
    try {
      run = CompletableFuture.supplyAsync(() -> CommandLineTest.run("ingest", "--url",
          server.httpUrl(), "--table", table, "--input", input.toString(), "--no-progress",
          "--retry-max-elapsed", "1m"));
      Thread.sleep(1_500);
      assertThat(run).as("the run waits for the server").isNotDone();
    } finally {
      server.resume();
    }
    CommandLineTest.Run r = run.get(60, TimeUnit.SECONDS);

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    assertThat(r.err()).contains("connection refused at 127.0.0.1:" + server.httpPort()
        + ": nothing listens there; waiting up to 1m (--retry-max-elapsed)");
    assertThat(count(table)).isEqualTo(10_000);
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void killedWithSigkill_thenResumed_everyRowIsPresentAtLeastOnce() throws Exception {
    String table = table(server.uniqueDatabase("ingest_kill"));
    long rows = KILL_ROWS;
    Path input = MixedRows.write(dir.resolve("in.jsonl"), rows);
    Path checkpoint = dir.resolve("cp.json");
    List<String> args = List.of("ingest", "--url", server.httpUrl(), "--table", table,
        "--input", input.toString(), "--batch-rows", "1000", "--chunk-bytes", "64KiB",
        "--insert-bytes", "64KiB", "--shards", "1", "--linger", "0ms", "--budget", "1MiB",
        "--no-progress", "--checkpoint",
        checkpoint.toString());
    Process child = ingester(args, dir.resolve("child.log"));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (checkpointOffset(checkpoint) <= 0 || count(table) < rows / 20) {
        assertThat(child.isAlive()).as("the child still runs; its log:\n%s",
            log(dir.resolve("child.log"))).isTrue();
        assertThat(System.nanoTime()).as("the child makes progress").isLessThan(deadline);
        Thread.sleep(20);
      }
      child.toHandle().destroyForcibly(); // SIGKILL on Linux
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    long killedAt = checkpointOffset(checkpoint);
    long before = count(table);
    assertThat(before).as("the kill left rows behind").isLessThan(rows);

    // The rerun goes at full speed (the child was slowed down by tiny inserts on one shard).
    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", server.httpUrl(), "--table",
        table, "--input", input.toString(), "--no-progress", "--checkpoint",
        checkpoint.toString(), "--resume");

    assertThat(r.exit()).as(r.err() + r.out()).isZero();
    JsonNode s = MixedRows.summary(r.out());
    assertThat(s.get("resumedFrom").asLong()).isEqualTo(killedAt).isPositive();
    assertThat(s.get("checkpoint").get("offset").asLong()).isEqualTo(Files.size(input));
    String[] counts = server.query("SELECT count(), uniqExact(id) FROM " + table).strip()
        .split("\t");
    assertThat(Long.parseLong(counts[1])).as("every row at least once").isEqualTo(rows);
    assertThat(Long.parseLong(counts[0])).isGreaterThanOrEqualTo(rows);
  }

  static long checkpointOffset(Path file) throws IOException {
    try {
      return new CheckpointFile(file).read().map(CheckpointFile.Position::offset).orElse(-1L);
    } catch (IOException e) {
      throw new AssertionError("a torn checkpoint: " + e.getMessage(), e);
    }
  }

  static String log(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "(none)";
    } catch (IOException e) {
      return e.toString();
    }
  }

  /**
   * Starts {@code handoff} in a JVM of its own with this JVM's module path (Surefire runs the
   * tests on it) or class path, output and errors to {@code log}.
   */
  static Process ingester(List<String> args, Path log) throws IOException {
    return ingester(List.of(), args, log);
  }

  /** {@link #ingester(List, Path)} with {@code jvmOptions} before the JVM's own. */
  static Process ingester(List<String> jvmOptions, List<String> args, Path log)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(jvmOptions);
    cmd.add("-Xmx512m");
    String modulePath = System.getProperty("jdk.module.path");
    if (modulePath != null && !modulePath.isBlank()) {
      cmd.add("--module-path");
      cmd.add(modulePath);
      String classPath = System.getProperty("java.class.path");
      if (classPath != null && !classPath.isBlank()) {
        cmd.add("-cp");
        cmd.add(classPath);
      }
      cmd.add("-m");
      cmd.add("dev.handoff.cli/dev.handoff.cli.Main");
    } else {
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path") + File.pathSeparator);
      cmd.add("dev.handoff.cli.Main");
    }
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
  }
}
