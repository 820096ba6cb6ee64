package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.WriteException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays: batches whose acknowledgements fail are read again from the input (a file, or the
 * bytes kept for stdin) a bounded number of times, counted in the summary. The writer here
 * refuses inserts on purpose; it stands for no server.
 */
final class IngestReplayTest {

  @TempDir
  Path dir;

  /** Rejects its first {@code failures} inserts permanently, then counts what it writes. */
  static final class FlakyWriter implements InsertWriter {
    final AtomicInteger failuresLeft;
    final AtomicLong rows = new AtomicLong();

    FlakyWriter(int failures) {
      failuresLeft = new AtomicInteger(failures);
    }

    @Override
    public void write(Insert insert) throws WriteException {
      if (failuresLeft.getAndDecrement() > 0) {
        throw new WriteException(WriteException.Kind.PERMANENT, 27, "refused on purpose", null);
      }
      rows.addAndGet(insert.rows());
    }
  }

  static Ingest.Target target(TableSchema schema, InsertWriter writer) {
    return new Ingest.Target() {
      @Override
      public TableSchema schema() {
        return schema;
      }

      @Override
      public InsertWriter writer(TableSchema s) {
        return writer;
      }

      @Override
      public void close() {}
    };
  }

  static JsonNode run(FlakyWriter writer, String input, String... more) throws Exception {
    String[] base = {"ingest", "--table", "db.t", "--schema", MixedRows.COLUMNS, "--input",
        input, "--batch-rows", "100", "--chunk-bytes", "4KiB", "--insert-bytes", "8KiB",
        "--linger", "0ms", "--no-progress"};
    String[] args = new String[base.length + more.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    Ingest.Settings settings = IngestOptionsTest.settings(args);
    StringWriter out = new StringWriter();
    int exit = new Ingest(settings, new PrintWriter(new StringWriter()), s -> {},
        target(settings.schema(), writer)).run(new PrintWriter(out, true));
    JsonNode summary = MixedRows.summary(out.toString());
    assertThat(exit).as(out.toString()).isEqualTo(summary.get("status").asText().equals("ok")
        ? Main.OK : Main.ORACLE_FAILED);
    return summary;
  }

  @Test
  void failedBatches_areReadAgainFromTheFile_andEveryRowArrives() throws Exception {
    Path input = MixedRows.write(dir.resolve("in.jsonl"), 3_000);
    FlakyWriter writer = new FlakyWriter(3);

    JsonNode s = run(writer, input.toString(), "--checkpoint",
        dir.resolve("cp.json").toString());

    assertThat(s.get("status").asText()).isEqualTo("ok");
    assertThat(s.get("batchesReplayed").asLong()).isPositive();
    assertThat(s.get("rowsReplayed").asLong()).isPositive();
    assertThat(writer.rows.get()).isGreaterThanOrEqualTo(3_000)
        .isEqualTo(3_000 + s.get("duplicates").asLong());
    assertThat(s.get("duplicates").asLong()).isLessThanOrEqualTo(s.get("rowsReplayed").asLong());
    assertThat(s.get("checkpoint").get("offset").asLong()).isEqualTo(Files.size(input));
  }

  @Test
  void failedBatches_fromStdin_replayFromTheKeptBytes() throws Exception {
    Path input = MixedRows.write(dir.resolve("in.jsonl"), 2_000);
    FlakyWriter writer = new FlakyWriter(2);
    InputStream stdin = System.in;
    JsonNode s;
    try (InputStream in = Files.newInputStream(input)) {
      System.setIn(in);
      s = run(writer, "-");
    } finally {
      System.setIn(stdin);
    }

    assertThat(s.get("status").asText()).isEqualTo("ok");
    assertThat(s.get("input").asText()).isEqualTo("-");
    assertThat(s.get("batchesReplayed").asLong()).isPositive();
    assertThat(writer.rows.get()).isEqualTo(2_000 + s.get("duplicates").asLong());
  }

  @Test
  void pausingStdin_doesNotHoldRowsAlreadyRead() throws Exception {
    FlakyWriter writer = new FlakyWriter(0);
    PipedOutputStream feed = new PipedOutputStream();
    PipedInputStream pipe = new PipedInputStream(feed, 1 << 16);
    InputStream stdin = System.in;
    CompletableFuture<JsonNode> run;
    try {
      System.setIn(pipe);
      run = CompletableFuture.supplyAsync(() -> {
        try {
          return run(writer, "-");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      for (int i = 0; i < 50; i++) {
        feed.write((MixedRows.line(i) + "\n").getBytes(StandardCharsets.UTF_8));
      }
      feed.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (writer.rows.get() < 50) {
        assertThat(run).as("the run still reads stdin").isNotDone();
        assertThat(System.nanoTime()).as("50 rows written while stdin stays open")
            .isLessThan(deadline);
        Thread.sleep(10);
      }
      feed.close();
      JsonNode s = run.get(20, TimeUnit.SECONDS);
      assertThat(s.get("status").asText()).isEqualTo("ok");
      assertThat(s.get("rowsWritten").asLong()).isEqualTo(50);
    } finally {
      System.setIn(stdin);
    }
  }

  @Test
  void batchFailingMoreThanMaxReplays_isLost_theExitIsOne_andTheCheckpointStaysBeforeIt()
      throws Exception {
    Path input = MixedRows.write(dir.resolve("in.jsonl"), 1_000);
    FlakyWriter writer = new FlakyWriter(Integer.MAX_VALUE);

    JsonNode s = run(writer, input.toString(), "--max-replays", "2", "--checkpoint",
        dir.resolve("cp.json").toString());

    assertThat(s.get("status").asText()).isEqualTo("incomplete");
    assertThat(s.get("rowsLost").asLong()).isEqualTo(1_000);
    assertThat(s.get("rowsWritten").asLong()).isZero();
    assertThat(s.get("checkpoint").get("offset").asLong()).isZero();
    assertThat(s.get("error").asText()).contains("--max-replays");
    assertThat(s.get("batchesReplayed").asLong()).isEqualTo(2 * 10);
  }

  @Test
  void badLines_areSkippedAndCountedPerReason_orStopTheRunWithOnErrorFail() throws Exception {
    Path input = dir.resolve("bad.jsonl");
    Files.writeString(input, MixedRows.line(0) + "\nnot json\n[1,2]\n42\n"
        + MixedRows.line(1).replace("\"i32\":", "\"i32\":\"x\",\"_\":") + "\n"
        + MixedRows.line(2) + "\n");

    JsonNode skip = run(new FlakyWriter(0), input.toString());

    assertThat(skip.get("status").asText()).isEqualTo("ok");
    assertThat(skip.get("rowsRead").asLong()).isEqualTo(6);
    assertThat(skip.get("rowsWritten").asLong()).isEqualTo(2);
    assertThat(skip.get("rowsSkipped").asLong()).isEqualTo(4);
    assertThat(skip.get("skipped").get(SkipReasons.MALFORMED_JSON).asLong()).isEqualTo(1);
    assertThat(skip.get("skipped").get(SkipReasons.NOT_AN_OBJECT).asLong()).isEqualTo(1);
    assertThat(skip.get("skipped").get("column \"i32\" (Int32)").asLong()).isEqualTo(1);
    // [1,2] is read by position (id 1, i32 2) and fails on the first missing non-null column.
    assertThat(skip.get("skipped").get("column \"f64\" (Float64)").asLong()).isEqualTo(1);

    JsonNode fail = run(new FlakyWriter(0), input.toString(), "--on-error", "fail");
    assertThat(fail.get("status").asText()).isEqualTo("incomplete");
    assertThat(fail.get("error").asText()).isNotEmpty();
  }
}
