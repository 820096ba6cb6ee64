package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every row accounted, visibly: skipped rows on stderr with line, offset and reason; {@code
 * --on-error fail} stopping at the row with the rows before it written and the checkpoint at its
 * line; unknown fields counted; partly written batches counted exactly, and a resume's
 * duplicates equal to the rows found twice. The writers here stand for the server; they decode
 * the ids of RowBinary inserts of one UInt64 column.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
final class IngestAccountingTest {

  @TempDir
  Path dir;

  /** The result of one run: exit status, summary, stderr. */
  record Run(int exit, JsonNode summary, String err) {}

  static Run run(InsertWriter writer, String schema, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("ingest", "--table", "db.t", "--schema", schema,
        "--format", "rowbinary", "--linger", "0ms"));
    all.addAll(List.of(args));
    Ingest.Settings settings = IngestOptionsTest.settings(all.toArray(new String[0]));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = new Ingest(settings, new PrintWriter(err, true), s -> {},
        IngestReplayTest.target(settings.schema(), writer)).run(new PrintWriter(out, true));
    return new Run(exit, MixedRows.summary(out.toString()), err.toString());
  }

  /**
   * Records the ids of every insert of {@code id UInt64} rows (or only counts the rows of other
   * schemas); fails inserts at random.
   */
  static final class IdWriter implements InsertWriter {
    final List<Long> ids = new ArrayList<>();
    final SplittableRandom random;
    final double failRate;
    final AtomicInteger inserts = new AtomicInteger();
    final boolean decode;
    long rows;

    /** A writer of {@code id UInt64} rows that fails inserts at the given rate. */
    IdWriter(long seed, double failRate) {
      this(seed, failRate, true);
    }

    IdWriter(long seed, double failRate, boolean decode) {
      this.random = new SplittableRandom(seed);
      this.failRate = failRate;
      this.decode = decode;
    }

    @Override
    public synchronized void write(Insert insert) throws WriteException {
      inserts.incrementAndGet();
      if (random.nextDouble() < failRate) {
        throw new WriteException(WriteException.Kind.PERMANENT, 27, "refused on purpose", null);
      }
      if (!decode) {
        rows += insert.rows();
        return;
      }
      ByteBuffer b = ByteBuffer.wrap(insert.body()).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        ids.add(b.getLong());
      }
    }

    synchronized Map<Long, Integer> counts() {
      Map<Long, Integer> m = new HashMap<>();
      for (long id : ids) {
        m.merge(id, 1, Integer::sum);
      }
      return m;
    }
  }

  private Path ids(int rows) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      sb.append("{\"id\":").append(i).append("}\n");
    }
    return Files.writeString(dir.resolve("ids.jsonl"), sb);
  }

  private static final String SCHEMA = "id UInt64, small UInt8, price Decimal(18, 2),"
      + " note Nullable(String)";

  private Path badRows() throws Exception {
    return Files.writeString(dir.resolve("bad.jsonl"), String.join("\n",
        "{\"id\":1,\"small\":1,\"price\":1.5}",
        "{\"id\":2,\"small\":1,\"price\":1.5",
        "{\"id\":\"abc\",\"small\":1,\"price\":1.5}",
        "",
        "{\"id\":null,\"small\":1,\"price\":1.5}",
        "{\"id\":5,\"small\":256,\"price\":1.5}",
        "{\"id\":6,\"small\":1,\"price\":1.005}",
        "{\"id\":7,\"price\":1.5}",
        "{\"id\":8,\"small\":2,\"price\":2.5,\"note\":\"x\"}") + "\n");
  }

  @Test
  void skippedRows_areEachOneLineOnStderr_withLineOffsetColumnValueAndReason() throws Exception {
    Path in = badRows();
    IdWriter writer = new IdWriter(0, 0, false);

    Run r = run(writer, SCHEMA, "--input", in.toString(), "--no-progress");

    assertThat(r.exit()).isZero();
    JsonNode s = r.summary();
    assertThat(s.get("rowsRead").asLong()).isEqualTo(8);
    assertThat(s.get("rowsWritten").asLong()).isEqualTo(2);
    assertThat(s.get("rowsSkipped").asLong()).isEqualTo(6);
    List<String> lines = r.err().lines().filter(l -> l.contains("skipped line")).toList();
    assertThat(lines).hasSize(6);
    String text = Files.readString(in);
    int line3 = text.indexOf("{\"id\":\"abc\"");
    assertThat(lines.get(0)).startsWith("ingest: skipped line 2 (byte offset "
        + text.indexOf("{\"id\":2") + "): malformed JSON");
    assertThat(lines.get(1)).startsWith("ingest: skipped line 3 (byte offset " + line3 + "):")
        .contains("column \"id\" (UInt64)").contains("\"abc\"");
    assertThat(lines.get(2)).startsWith("ingest: skipped line 5 ").contains("column \"id\"")
        .contains("null");
    assertThat(lines.get(3)).startsWith("ingest: skipped line 6 ")
        .contains("column \"small\" (UInt8)").contains("256");
    assertThat(lines.get(4)).startsWith("ingest: skipped line 7 ")
        .contains("column \"price\" (Decimal(18, 2))").contains("1.005");
    assertThat(lines.get(5)).startsWith("ingest: skipped line 8 ")
        .contains("column \"small\" (UInt8)");
  }

  @Test
  void rejectFile_holdsTheSkippedLinesAsRead_andFixedTheyLoad() throws Exception {
    Path in = badRows();
    Path rejects = dir.resolve("rejects/bad.jsonl");

    Run r = run(new IdWriter(0, 0, false), SCHEMA, "--input", in.toString(), "--rejects",
        rejects.toString());

    assertThat(r.exit()).isZero();
    List<String> original = Files.readAllLines(in);
    assertThat(Files.readAllLines(rejects)).containsExactly(original.get(1), original.get(2),
        original.get(4), original.get(5), original.get(6), original.get(7));
    List<String> why = Files.readAllLines(RowReport.reasonsFile(rejects));
    assertThat(why).hasSize(6);
    assertThat(why.get(3)).startsWith("line 6 (byte offset ").contains("column \"small\"");
    assertThat(r.err()).contains("6 skipped rows are in " + rejects);

    // Fixed by hand, the reject file loads: every row written, nothing rejected again.
    String fixed = String.join("\n", "{\"id\":2,\"small\":1,\"price\":1.5}",
        "{\"id\":3,\"small\":1,\"price\":1.5}", "{\"id\":4,\"small\":1,\"price\":1.5}",
        "{\"id\":5,\"small\":255,\"price\":1.5}", "{\"id\":6,\"small\":1,\"price\":1.01}",
        "{\"id\":7,\"small\":0,\"price\":1.5}") + "\n";
    assertThat(fixed.lines().count()).isEqualTo(Files.readAllLines(rejects).size());
    Files.writeString(rejects, fixed);
    Path again = dir.resolve("rejects/again.jsonl");
    IdWriter writer = new IdWriter(0, 0, false);
    Run reload = run(writer, SCHEMA, "--input", rejects.toString(), "--rejects",
        again.toString());
    assertThat(reload.summary().get("rowsWritten").asLong()).isEqualTo(6);
    assertThat(reload.summary().get("rowsSkipped").asLong()).isZero();
    assertThat(Files.readAllLines(again)).isEmpty();
  }

  @Test
  void onErrorFail_stopsAtTheRow_writesTheRowsBefore_andTheCheckpointIsAtItsLine()
      throws Exception {
    Path in = badRows();
    Path cp = dir.resolve("cp.json");
    IdWriter writer = new IdWriter(0, 0, false);

    Run r = run(writer, SCHEMA, "--input", in.toString(), "--on-error", "fail",
        "--checkpoint", cp.toString());

    assertThat(r.exit()).isEqualTo(Main.ORACLE_FAILED);
    String text = Files.readString(in);
    long line2 = text.indexOf("{\"id\":2");
    String message = "line 2 (byte offset " + line2 + "): malformed JSON";
    assertThat(r.err()).contains("ingest: " + message);
    JsonNode s = r.summary();
    assertThat(s.get("error").asText()).startsWith(message);
    assertThat(s.get("rowsRead").asLong()).isEqualTo(2);
    assertThat(s.get("rowsWritten").asLong()).isEqualTo(1);
    assertThat(s.get("rowsLost").asLong()).isEqualTo(1);
    assertThat(s.get("checkpoint").get("offset").asLong()).isEqualTo(line2);
    assertThat(writer.rows).isEqualTo(1);

    // Fixed, the resumed run starts at the line and stops at the next bad value, named exactly.
    Files.writeString(in, text.replace("\"price\":1.5\n", "\"price\":1.5}\n"));
    Run again = run(writer, SCHEMA, "--input", in.toString(), "--on-error", "fail",
        "--checkpoint", cp.toString(), "--resume");
    String fixed = Files.readString(in);
    long line3 = fixed.indexOf("{\"id\":\"abc\"");
    assertThat(again.err()).contains("ingest: line 3 (byte offset " + line3
        + "): column \"id\" (UInt64): value \"abc\"");
    assertThat(again.summary().get("rowsWritten").asLong()).isEqualTo(1);
    assertThat(again.summary().get("duplicates").asLong()).isZero();
    assertThat(writer.rows).isEqualTo(2);
  }

  @Test
  void unknownFields_areCountedAndNamedOnce_andStrictRejectsTheirRows() throws Exception {
    Path in = Files.writeString(dir.resolve("typo.jsonl"),
        "{\"id\":1,\"small\":1,\"price\":1,\"Note\":\"a\"}\n"
            + "{\"id\":2,\"small\":1,\"price\":1,\"Note\":\"b\"}\n"
            + "{\"id\":3,\"small\":1,\"price\":1,\"note\":\"c\"}\n");

    Run lax = run(new IdWriter(0, 0, false), SCHEMA, "--input", in.toString());
    assertThat(lax.exit()).isZero();
    assertThat(lax.summary().get("rowsWritten").asLong()).isEqualTo(3);
    assertThat(lax.summary().get("rowsWithUnknownFields").asLong()).isEqualTo(2);
    assertThat(lax.summary().get("unknownFields").get("Note").asLong()).isEqualTo(2);
    assertThat(lax.err().lines().filter(l -> l.contains("\"Note\"")).toList()).hasSize(1)
        .first().asString().startsWith("ingest: line 1 (byte offset 0): unknown field");

    Run strict = run(new IdWriter(0, 0, false), SCHEMA, "--input", in.toString(), "--strict");
    assertThat(strict.summary().get("rowsWritten").asLong()).isEqualTo(1);
    assertThat(strict.summary().get("skipped").get(SkipReasons.UNKNOWN_FIELD).asLong())
        .isEqualTo(2);
    assertThat(strict.err()).contains("skipped line 2 (byte offset ");
  }

  @Test
  void manyBadRows_areRateLimited_andTheRestIsCounted() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 500; i++) {
      sb.append("{\"id\":-").append(i + 1).append("}\n");
    }
    Path in = Files.writeString(dir.resolve("neg.jsonl"), sb);

    Run r = run(new IdWriter(0, 0), "id UInt64", "--input", in.toString());

    long shown = r.err().lines().filter(l -> l.contains("skipped line")).count();
    assertThat(shown).isBetween((long) RowReport.BURST, 100L);
    assertThat(r.err()).contains((500 - shown) + " more lines about skipped rows were not shown");
    assertThat(r.summary().get("rowsSkipped").asLong()).isEqualTo(500);
  }

  /**
   * Seeded runs whose writer refuses inserts at random and gives up (no replays), then a resume
   * with a writer that refuses nothing: every row arrives, and the duplicates the two summaries
   * report are exactly the rows the writers received twice.
   */
  @Test
  void giveUpThenResume_reportsExactlyTheDuplicatesWritten() throws Exception {
    int rows = 3_000;
    Path in = ids(rows);
    long lostSeen = 0;
    long partlyWrittenSeen = 0;
    long resumeDuplicatesSeen = 0;
    for (long seed = 1; seed <= 20; seed++) {
      Path cp = dir.resolve("cp-" + seed + ".json");
      IdWriter writer = new IdWriter(seed, 0.3);
      String[] common = {"--input", in.toString(), "--checkpoint", cp.toString(),
          "--batch-rows", "200", "--chunk-bytes", "512", "--insert-bytes", "1KiB",
          "--max-replays", String.valueOf(seed % 3), "--parse-threads",
          String.valueOf(1 + seed % 3)};
      Run first = run(writer, "id UInt64", common);
      JsonNode a = first.summary();
      assertThat(a.get("rowsWritten").asLong() - a.get("duplicates").asLong()
          + a.get("rowsLost").asLong())
          .as("seed %d: written once + lost = read: %s", seed, a).isEqualTo(rows);
      assertThat(found(writer, rows)).as("seed %d: distinct rows found", seed)
          .isEqualTo(rows - a.get("rowsLost").asLong());
      long dupesFirst = writer.ids.size() - writer.counts().size();
      assertThat(a.get("duplicates").asLong()).as("seed %d", seed).isEqualTo(dupesFirst);

      IdWriter good = new IdWriter(seed, 0);
      good.ids.addAll(writer.ids);
      List<String> resume = new ArrayList<>(List.of(common));
      resume.add("--resume");
      JsonNode b = run(good, "id UInt64", resume.toArray(new String[0])).summary();
      assertThat(b.get("status").asText()).as("seed %d: %s", seed, b).isEqualTo("ok");
      assertThat(good.counts()).as("seed %d: every row", seed).hasSize(rows);
      long dupes = good.ids.size() - rows;
      assertThat(a.get("duplicates").asLong() + b.get("duplicates").asLong())
          .as("seed %d: duplicates reported = found (first %s, resume %s)", seed, a, b)
          .isEqualTo(dupes);
      lostSeen += a.get("rowsLost").asLong();
      partlyWrittenSeen += a.get("rowsWrittenPastCheckpoint").asLong();
      resumeDuplicatesSeen += b.get("duplicates").asLong();
    }
    assertThat(lostSeen).as("the seeds lose rows").isPositive();
    assertThat(partlyWrittenSeen).as("rows written past the checkpoint").isPositive();
    assertThat(resumeDuplicatesSeen).as("resumes write duplicates").isPositive();
  }

  private static long found(IdWriter w, int rows) {
    return w.counts().keySet().stream().filter(id -> id >= 0 && id < rows).count();
  }

  @Test
  void progressBar_endsWithTheSummarysFigures() throws Exception {
    Path in = ids(5_000);

    Run r = run(new IdWriter(0, 0), "id UInt64", "--input", in.toString(), "--progress");

    String[] draws = r.err().split("\r");
    String last = draws[draws.length - 1];
    assertThat(last).contains("5,000 read, 5,000 written");
    assertThat(r.summary().get("rowsWritten").asLong()).isEqualTo(5_000);
  }
}
