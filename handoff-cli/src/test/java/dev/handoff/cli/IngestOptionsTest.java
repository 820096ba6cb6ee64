package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.ColumnSpec;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Option parsing of {@code ingest}, its usage errors, and the summary's JSON form. */
final class IngestOptionsTest {

  @TempDir
  Path dir;

  Path input;

  @BeforeEach
  void input() throws IOException {
    input = Files.writeString(dir.resolve("in.jsonl"), "{}\n");
  }

  static Ingest.Settings settings(String... args) {
    CommandLine cl = Main.commandLine();
    CommandLine.ParseResult parsed = cl.parseArgs(args);
    IngestCommand cmd = (IngestCommand) parsed.subcommand().commandSpec().userObject();
    return cmd.settings();
  }

  @Test
  void isLoopback_namesThisMachineByLiteralOrLocalhostOnly() {
    for (String url : new String[] {"http://127.0.0.1:8123", "http://127.3.4.5:8123/",
        "http://localhost:8123", "https://LOCALHOST", "http://[::1]:8123",
        "http://[0:0:0:0:0:0:0:1]:8123"}) {
      assertThat(IngestCommand.isLoopback(url)).as(url).isTrue();
    }
    for (String url : new String[] {"http://10.0.0.1:8123", "http://128.0.0.1:8123",
        "http://[::2]:8123", "http://clickhouse:8123", "http://localhost.example:8123",
        "http://127.0.0.1.example:8123", "not a url", "http:///x"}) {
      assertThat(IngestCommand.isLoopback(url)).as(url).isFalse();
    }
  }

  @Test
  void defaults_andSuffixedSizesAndDurations() {
    Ingest.Settings d = settings("ingest", "--table", "db.t", "--input", input.toString());
    assertThat(d.url()).isEqualTo("http://127.0.0.1:8123");
    assertThat(d.database()).isEqualTo("db");
    assertThat(d.table()).isEqualTo("t");
    assertThat(d.format()).isEqualTo(IngestCommand.Format.native_);
    assertThat(d.retryMaxElapsed()).isEqualTo(Duration.ofMinutes(10));
    assertThat(d.skipBadRows()).isTrue();
    assertThat(d.deadLetter()).isNull();
    assertThat(d.progress()).isNull();
    // auto: the default URL is this machine, where compressing only costs CPU.
    assertThat(d.compression()).isEqualTo(ClickHouseHttpOptions.Compression.NONE);
    assertThat(settings("ingest", "--table", "db.t", "--input", input.toString(),
        "--url", "http://clickhouse.example:8123").compression())
        .isEqualTo(ClickHouseHttpOptions.Compression.LZ4);
    assertThat(settings("ingest", "--table", "db.t", "--input", input.toString(),
        "--url", "http://localhost:8123", "--compression", "lz4").compression())
        .isEqualTo(ClickHouseHttpOptions.Compression.LZ4);
    assertThat(d.zstdLevel()).isEqualTo(1);
    assertThat(d.insertBytes()).isEqualTo(64L << 20);
    // A load's inserts wait up to a second for more chunks: fewer, larger parts.
    assertThat(d.linger()).isEqualTo(Duration.ofSeconds(1));
    // Two shards can each gather a whole 64 MiB insert.
    assertThat(d.budget()).isEqualTo(128L << 20);
    Ingest.Settings z = settings("ingest", "--table", "db.t", "--input", input.toString(),
        "--compression", "zstd", "--zstd-level", "7");
    assertThat(z.compression()).isEqualTo(ClickHouseHttpOptions.Compression.ZSTD);
    assertThat(z.zstdLevel()).isEqualTo(7);
    assertThat(settings("ingest", "--table", "db.t", "--input", input.toString(),
        "--compression", "none").compression()).isEqualTo(ClickHouseHttpOptions.Compression.NONE);

    Ingest.Settings s = settings("ingest", "--table", "db.t", "--input", input.toString(),
        "--format", "rowbinary", "--chunk-bytes", "64KiB", "--insert-bytes", "16MiB",
        "--budget", "1GiB", "--linger", "200ms", "--retry-max-elapsed", "5s",
        "--on-reject", "dead-letter", "--dead-letter", dir.toString(), "--no-progress",
        "--shards", "3", "--batch-rows", "500");
    assertThat(s.format().encoder).isEqualTo("rowbinary");
    assertThat(s.chunkBytes()).isEqualTo(65536);
    assertThat(s.insertBytes()).isEqualTo(16L << 20);
    assertThat(s.budget()).isEqualTo(1L << 30);
    assertThat(s.linger()).isEqualTo(Duration.ofMillis(200));
    assertThat(s.retryMaxElapsed()).isEqualTo(Duration.ofSeconds(5));
    assertThat(s.deadLetter()).isEqualTo(dir);
    assertThat(s.progress()).isFalse();
    assertThat(s.shards()).isEqualTo(3);
    assertThat(s.batchRows()).isEqualTo(500);
  }

  /**
   * Every option of the programmatic model reaches the settings: a value other than its default
   * for each, so that an option added to {@link IngestOptions#spec} and not to its {@code read}
   * shows here (the count pins the list).
   */
  @Test
  void everyOption_reachesTheSettings() throws IOException {
    Path schemaFile = Files.writeString(dir.resolve("schema.txt"), "id UInt64, ts DateTime");
    Ingest.Settings s = settings("ingest", "--url", "http://10.1.2.3:9", "--table", "db.t",
        "--input", input.toString(), "--format", "rowbinary", "--user", "u", "--password", "p",
        "--shards", "3", "--chunk-bytes", "64KiB", "--insert-bytes", "16MiB", "--insert-rows",
        "7", "--linger", "2s", "--budget", "1GiB", "--queue-capacity", "9", "--batch-rows", "11",
        "--on-error", "fail", "--input-format", "tsv", "--rejects", dir.resolve("r").toString(),
        "--strict", "--timezone", "Asia/Tokyo", "--parse-threads", "5", "--on-reject",
        "dead-letter", "--dead-letter", dir.toString(), "--retry-max-elapsed", "3s",
        "--request-timeout", "4s", "--compression", "gzip", "--zstd-level", "6",
        "--max-replays", "0", "--checkpoint", dir.resolve("cp").toString(), "--resume", "--out",
        dir.toString(), "--schema", "@" + schemaFile, "--deadline", "1m", "--progress");
    assertThat(IngestOptions.spec(new IngestCommand()).options()).hasSize(33); // -h: inherited
    assertThat(s.url()).isEqualTo("http://10.1.2.3:9");
    assertThat(s.database() + "." + s.table()).isEqualTo("db.t");
    assertThat(s.input()).isEqualTo(input);
    assertThat(s.format()).isEqualTo(IngestCommand.Format.rowbinary);
    assertThat(s.user()).isEqualTo("u");
    assertThat(s.password()).isEqualTo("p");
    assertThat(s.shards()).isEqualTo(3);
    assertThat(s.chunkBytes()).isEqualTo(65536);
    assertThat(s.insertBytes()).isEqualTo(16L << 20);
    assertThat(s.insertRows()).isEqualTo(7);
    assertThat(s.linger()).isEqualTo(Duration.ofSeconds(2));
    assertThat(s.budget()).isEqualTo(1L << 30);
    assertThat(s.queueCapacity()).isEqualTo(9);
    assertThat(s.batchRows()).isEqualTo(11);
    assertThat(s.skipBadRows()).isFalse();
    assertThat(s.inputFormat()).isEqualTo(DelimitedText.Kind.TSV);
    assertThat(s.rejects()).isEqualTo(dir.resolve("r"));
    assertThat(s.strict()).isTrue();
    assertThat(s.timezone()).isEqualTo(java.time.ZoneId.of("Asia/Tokyo"));
    assertThat(s.parseThreads()).isEqualTo(5);
    assertThat(s.deadLetter()).isEqualTo(dir);
    assertThat(s.retryMaxElapsed()).isEqualTo(Duration.ofSeconds(3));
    assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(4));
    assertThat(s.compression()).isEqualTo(ClickHouseHttpOptions.Compression.GZIP);
    assertThat(s.zstdLevel()).isEqualTo(6);
    assertThat(s.maxReplays()).isZero();
    assertThat(s.checkpoint()).isEqualTo(dir.resolve("cp"));
    assertThat(s.resume()).isTrue();
    assertThat(s.out()).isEqualTo(dir);
    assertThat(s.schema().columns()).containsExactly(new ColumnSpec("id", "UInt64"),
        new ColumnSpec("ts", "DateTime"));
    assertThat(s.deadline()).isEqualTo(Duration.ofMinutes(1));
    assertThat(s.progress()).isTrue();

    Ingest.Settings d = settings("ingest", "--table", "db.t", "--input", input.toString());
    assertThat(d.strict()).isFalse();
    assertThat(d.resume()).isFalse();
    assertThat(d.progress()).isNull();
    assertThat(settings("ingest", "--table", "db.t", "--input", input.toString(),
        "--no-skip-unknown-fields").strict()).isTrue();
  }

  @Test
  void sizesAndDurations_parse() {
    assertThat(Sizes.parseBytes("65536")).isEqualTo(65536);
    assertThat(Sizes.parseBytes("64KiB")).isEqualTo(65536);
    assertThat(Sizes.parseBytes("16 MiB")).isEqualTo(16L << 20);
    assertThat(Sizes.parseBytes("2GB")).isEqualTo(2_000_000_000L);
    assertThat(Sizes.parseBytes("8k")).isEqualTo(8192);
    assertThatThrownBy(() -> Sizes.parseBytes("12XB")).hasMessageContaining("XB");
    assertThatThrownBy(() -> Sizes.parseBytes("-1")).hasMessageContaining("-1");
    assertThat(Sizes.parseDuration("200ms")).isEqualTo(Duration.ofMillis(200));
    assertThat(Sizes.parseDuration("5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(Sizes.parseDuration("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(Sizes.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Sizes.parseDuration("PT3S")).isEqualTo(Duration.ofSeconds(3));
    assertThatThrownBy(() -> Sizes.parseDuration("soon")).hasMessageContaining("soon");
  }

  @Test
  void usageErrors_nameTheOptionAndTheValue_andExitWithTwo() {
    String in = input.toString();
    assertUsage("--chunk-bytes", "12XB", "ingest", "--table", "db.t", "--input", in,
        "--chunk-bytes", "12XB");
    assertUsage("--compression", "brotli", "ingest", "--table", "db.t", "--input", in,
        "--compression", "brotli");
    assertUsage("--zstd-level", "23", "ingest", "--table", "db.t", "--input", in,
        "--compression", "zstd", "--zstd-level", "23");
    assertUsage("--format", "avro", "ingest", "--table", "db.t", "--input", in,
        "--format", "avro");
    assertUsage("--on-error", "maybe", "ingest", "--table", "db.t", "--input", in,
        "--on-error", "maybe");
    assertUsage("--on-reject", "ignore", "ingest", "--table", "db.t", "--input", in,
        "--on-reject", "ignore");
    assertUsage("--dead-letter", "dead-letter", "ingest", "--table", "db.t", "--input", in,
        "--on-reject", "dead-letter");
    assertUsage("--table", "nodot", "ingest", "--table", "nodot", "--input", in);
    assertUsage("--table", "--out", "ingest", "--input", in);
    assertUsage("--input", "missing.jsonl", "ingest", "--table", "db.t", "--input",
        dir.resolve("missing.jsonl").toString());
    assertUsage("--resume", "stdin", "ingest", "--table", "db.t", "--input", "-", "--resume",
        "--checkpoint", dir.resolve("cp").toString());
    assertUsage("--resume", "--checkpoint", "ingest", "--table", "db.t", "--input", in,
        "--resume");
    assertUsage("--schema", "--out", "ingest", "--input", in, "--out", dir.toString());
    assertUsage("--shards", "0", "ingest", "--table", "db.t", "--input", in, "--shards", "0");
    assertUsage("--linger", "soon", "ingest", "--table", "db.t", "--input", in, "--linger",
        "soon");
    assertUsage("--schema", "Decimal(", "ingest", "--input", in, "--out", dir.toString(),
        "--schema", "a Decimal(18, 4");
  }

  private static void assertUsage(String option, String value, String... args) {
    CommandLineTest.Run r = CommandLineTest.run(args);
    assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(Main.USAGE);
    assertThat(r.err()).as(String.join(" ", args)).contains(option).contains(value)
        .doesNotContain("\tat ");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void schemaText_keepsCommasInsideTypes() {
    assertThat(SchemaText.parse("id UInt64, d Decimal(18, 4),\n `odd name` Map(String, UInt8)")
        .columns()).containsExactly(new ColumnSpec("id", "UInt64"),
            new ColumnSpec("d", "Decimal(18, 4)"), new ColumnSpec("odd name", "Map(String, UInt8)"));
    assertThatThrownBy(() -> SchemaText.parse("id")).hasMessageContaining("'id'");
    assertThatThrownBy(() -> SchemaText.parse(" , ")).hasMessageContaining("no columns");
  }

  @Test
  void dateTimeWithoutAZone_isFoundNestedOrNot() {
    assertThat(SchemaText.hasDateTimeWithoutZone(SchemaText.parse("a DateTime"))).isTrue();
    assertThat(SchemaText.hasDateTimeWithoutZone(
        SchemaText.parse("a Array(Nullable(DateTime64(3)))"))).isTrue();
    assertThat(SchemaText.hasDateTimeWithoutZone(
        SchemaText.parse("a DateTime('UTC'), b DateTime64(3, 'Asia/Tokyo'), c Date"))).isFalse();
    assertThat(SchemaText.hasDateTimeWithoutZone(
        SchemaText.parse("a DateTime('UTC'), b Tuple(DateTime, String)"))).isTrue();
  }

  @Test
  void summary_isJsonWithEveryField() throws IOException {
    IngestSummary s = new IngestSummary("ok", "db.t", "Native", "in.jsonl", "UTC (the server's)", 0, 10, 9, 1,
        Map.of(SkipReasons.MALFORMED_JSON, 1L), 1, Map.of("Note", 1L), 0, 0, 2, 1, 5, 0, 0, 0, 0,
        0, 900, 2.0, 123, 10, "cp.json", null, null);

    JsonNode n = new ObjectMapper().readTree(s.toJson());

    assertThat(n.get("status").asText()).isEqualTo("ok");
    assertThat(n.get("rowsRead").asLong()).isEqualTo(10);
    assertThat(n.get("rowsWritten").asLong()).isEqualTo(9);
    assertThat(n.get("skipped").get("malformed JSON").asLong()).isEqualTo(1);
    assertThat(n.get("unknownFields").get("Note").asLong()).isEqualTo(1);
    assertThat(n.get("retries").asLong()).isEqualTo(2);
    assertThat(n.get("batchesReplayed").asLong()).isEqualTo(1);
    assertThat(n.get("rowsPerSecond").asLong()).isEqualTo(5);
    assertThat(n.get("checkpoint").get("offset").asLong()).isEqualTo(123);
    assertThat(n.get("error").isNull()).isTrue();
    assertThat(n.fieldNames()).toIterable().contains("rowsDeadLettered", "duplicates",
        "rowsInDoubt", "rowsLost", "elapsedSeconds", "megabytesPerSecond", "resumedFrom");
  }

  @Test
  void skipReason_isTheColumnPrefixOfAnEncoderMessage() {
    assertThat(SkipReasons.reasonOf("column \"id\" (UInt64): value \"x\" (TEXT): not a number"))
        .isEqualTo("column \"id\" (UInt64)");
    assertThat(SkipReasons.reasonOf(null)).isEqualTo("rejected by the encoder");
  }
}
