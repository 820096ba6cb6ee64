package dev.handoff.cli;

import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions.Compression;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code handoff ingest --table db.name --input FILE}: reads JSON lines (or CSV or TSV) into a
 * ClickHouse table through the stage and the sink workers, or into insert files with {@code --out
 * DIR}. Progress goes to stderr, a JSON summary to stdout. The options are checked here (a bad value is a usage
 * error naming the option and the value); {@link Ingest} runs them.
 */
@Command(
    name = "ingest",
    sortOptions = false,
    description = "Reads JSON lines (one object per line), or CSV or TSV with a header line, into a"
        + " ClickHouse table over HTTP, or into insert files with --out. Every row is written,"
        + " skipped (counted per reason and named on stderr) or dead-lettered; failed batches are read again; the checkpoint file lets --resume"
        + " continue after a crash. Progress goes to stderr, a JSON summary to stdout.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:every row read was written, or skipped or dead-lettered as the options say",
        "1:some rows were neither (the summary's status is incomplete; rerun with --resume)",
        "2:usage error (the message names the option and the value)",
        "3:the run could not start (no server, a table that does not exist, an unreadable"
            + " checkpoint)",
        "130, 143:stopped by SIGINT or SIGTERM, after printing the summary"})
final class IngestCommand implements Callable<Integer> {

  /** What to do with a row the encoder rejects. */
  enum OnError { skip, fail }

  /** What to do with an insert the server rejects permanently. */
  enum OnReject { fail, dead_letter }

  /** The insert formats, with their encoder and ClickHouse names. */
  enum Format {
    native_("native", "native", "Native"),
    rowbinary("rowbinary", "rowbinary", "RowBinary");

    final String option;
    final String encoder;
    final String clickhouse;

    Format(String option, String encoder, String clickhouse) {
      this.option = option;
      this.encoder = encoder;
      this.clickhouse = clickhouse;
    }

    static Format of(String text) {
      for (Format f : values()) {
        if (f.option.equalsIgnoreCase(text)) {
          return f;
        }
      }
      throw new IllegalArgumentException(text);
    }
  }

  @Spec
  CommandSpec spec;

  @Option(names = "--url", paramLabel = "<url>", defaultValue = "http://127.0.0.1:8123",
      description = "The server's HTTP interface (default ${DEFAULT-VALUE}).")
  String url;

  @Option(names = "--table", paramLabel = "<db.name>",
      description = "The target table; required unless --out is given.")
  String table;

  @Option(names = "--input", required = true, paramLabel = "<file|->",
      description = "The input to read (see --input-format); - reads stdin.")
  String input;

  @Option(names = "--format", paramLabel = "<native|rowbinary>", defaultValue = "native",
      description = "The insert format (default ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--user", paramLabel = "<name>", description = "The ClickHouse user.")
  String user;

  @Option(names = "--password", paramLabel = "<secret>", defaultValue = "${env:HANDOFF_PASSWORD}",
      description = "The user's password (default: the HANDOFF_PASSWORD environment variable).")
  String password;

  @Option(names = "--shards", paramLabel = "<n>", defaultValue = "2",
      description = "Shards: parallel insert streams, one worker each (default ${DEFAULT-VALUE}).")
  int shards;

  @Option(names = "--chunk-bytes", paramLabel = "<size>", defaultValue = "1MiB",
      converter = Sizes.BytesConverter.class,
      description = "Seal a shard's chunk at this size (default ${DEFAULT-VALUE}).")
  long chunkBytes;

  @Option(names = "--insert-bytes", paramLabel = "<size>", defaultValue = "64MiB",
      converter = Sizes.BytesConverter.class,
      description = "Merge chunks into inserts of at most this size (default ${DEFAULT-VALUE},"
          + " as the sink facade's; fewer, larger parts cost the server less).")
  long insertBytes;

  @Option(names = "--insert-rows", paramLabel = "<n>", defaultValue = "1000000",
      description = "Merge chunks into inserts of at most this many rows (default"
          + " ${DEFAULT-VALUE}).")
  int insertRows;

  // A load is a batch: a longer linger means fewer, larger inserts, hence fewer parts for the
  // server to write and merge (docs/ingest.md, Speed). About one insert a second per table is
  // ClickHouse's own advice; the end of the input ends every linger.
  @Option(names = "--linger", paramLabel = "<duration>", defaultValue = "1s",
      converter = Sizes.DurationConverter.class,
      description = "How long a worker waits for more chunks to merge into one insert (default"
          + " ${DEFAULT-VALUE}; the end of the input or a full --budget ends it).")
  Duration linger;

  // Room for each of the default two shards to gather a whole --insert-bytes insert: with 64 MiB
  // a full budget ended the inserts at about 28 MiB, twice the parts on a large file.
  @Option(names = "--budget", paramLabel = "<size>", defaultValue = "128MiB",
      converter = Sizes.BytesConverter.class,
      description = "Stop reading while this many bytes of sealed chunks are not yet written"
          + " (default ${DEFAULT-VALUE}).")
  long budget;

  @Option(names = "--queue-capacity", paramLabel = "<chunks>", defaultValue = "4",
      description = "Chunks each shard's queue holds (default ${DEFAULT-VALUE}).")
  int queueCapacity;

  @Option(names = "--batch-rows", paramLabel = "<n>", defaultValue = "10000",
      description = "Lines per block: the unit of parsing, acknowledgement, checkpoint and"
          + " replay (default ${DEFAULT-VALUE}).")
  int batchRows;

  @Option(names = "--on-error", paramLabel = "<skip|fail>", defaultValue = "skip",
      description = "A line that is not a JSON object, or a row that does not fit the table:"
          + " skip it, count it and say so on stderr, or stop there (default ${DEFAULT-VALUE}).")
  String onError;

  @Option(names = "--input-format", paramLabel = "<json|csv|tsv>",
      description = "JSON lines, or CSV or TSV whose first line names the columns (default: csv"
          + " for a .csv file, tsv for .tsv or .tab, else json).")
  String inputFormat;

  @Option(names = "--rejects", paramLabel = "<file>",
      description = "Write each skipped row's line here as it was read, and why to <file>.reasons"
          + " (line for line), to fix them and ingest that file.")
  Path rejects;

  @Option(names = {"--strict", "--no-skip-unknown-fields"},
      description = "A field that names no column makes its row bad (skipped or stopping the"
          + " run as --on-error says), like ClickHouse's input_format_skip_unknown_fields=0."
          + " Default: such fields are counted, reported once per name, and left out.")
  boolean strict;

  @Option(names = "--timezone", paramLabel = "<zone>",
      description = "The time zone of date-time text without an offset, for DateTime and"
          + " DateTime64 columns that name none (default: the server's timezone(), as the"
          + " server's own JSONEachRow reads it; UTC with --out).")
  String timezone;

  @Option(names = "--parse-threads", paramLabel = "<n>",
      description = "Threads that parse the input, each a block of --batch-rows lines at a"
          + " time (default: the processors available).")
  Integer parseThreads;

  @Option(names = "--on-reject", paramLabel = "<fail|dead-letter>", defaultValue = "fail",
      description = "An insert the server rejects: fail its batches (they replay, then count as"
          + " lost), or isolate the rejected rows into --dead-letter (default ${DEFAULT-VALUE}).")
  String onReject;

  @Option(names = "--dead-letter", paramLabel = "<dir>",
      description = "Where rejected rows go with the server's message (for --on-reject"
          + " dead-letter).")
  Path deadLetter;

  @Option(names = "--retry-max-elapsed", paramLabel = "<duration>", defaultValue = "10m",
      converter = Sizes.DurationConverter.class,
      description = "How long an insert is retried while the server is down or failing"
          + " transiently (default ${DEFAULT-VALUE}).")
  Duration retryMaxElapsed;

  @Option(names = "--request-timeout", paramLabel = "<duration>", defaultValue = "60s",
      converter = Sizes.DurationConverter.class,
      description = "How long one HTTP request may wait for the server's answer (default"
          + " ${DEFAULT-VALUE}).")
  Duration requestTimeout;

  @Option(names = "--compression", paramLabel = "<auto|none|gzip|lz4|zstd>",
      defaultValue = "auto",
      description = "How insert bodies are compressed: ClickHouse's own compressed blocks (lz4,"
          + " zstd), gzip, or none. auto (the default): none when --url names this machine"
          + " (localhost or a loopback address), where compressing only costs CPU, else lz4.")
  String compression;

  @Option(names = "--zstd-level", paramLabel = "<1..22>", defaultValue = "1",
      description = "The ZSTD level for --compression zstd (default ${DEFAULT-VALUE}).")
  int zstdLevel;

  @Option(names = "--max-replays", paramLabel = "<n>", defaultValue = "3",
      description = "How often a failed batch is read again before its rows count as lost"
          + " (default ${DEFAULT-VALUE}).")
  int maxReplays;

  @Option(names = "--checkpoint", paramLabel = "<file>",
      description = "Record the input offset of the acknowledged rows here (atomically).")
  Path checkpoint;

  @Option(names = "--resume", description = "Start reading at the --checkpoint's offset (a file"
      + " input only).")
  boolean resume;

  @Option(names = "--out", paramLabel = "<dir>",
      description = "Write each insert as a file here instead of to a server (needs --schema).")
  Path out;

  @Option(names = "--schema", paramLabel = "<'name Type, ...'|@file>",
      description = "The table's columns: a list, or @ and a file holding one. Required with"
          + " --out (no server to ask); with a server it replaces asking system.columns, and"
          + " must then name the server's types exactly.")
  String schema;

  @Option(names = "--deadline", paramLabel = "<duration>", converter = Sizes.DurationConverter.class,
      description = "Stop reading after this long, write what can be written within a short"
          + " grace, and fail the rest (default: none).")
  Duration deadline;

  @Option(names = "--progress", negatable = true,
      description = "Draw a progress bar on stderr (default: only when stderr is a terminal).")
  Boolean progress;

  IngestCommand() {}

  @Override
  public Integer call() {
    Ingest.Settings settings = settings();
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    return new Ingest(settings, stderr, sample -> {}).run(stdout);
  }

  /** Checks every option and returns the run's settings; a bad value is a usage error. */
  Ingest.Settings settings() {
    Format fmt;
    try {
      fmt = Format.of(format);
    } catch (IllegalArgumentException e) {
      throw usage("--format=" + format + ": expected native or rowbinary");
    }
    boolean skip = switch (onError) {
      case "skip" -> true;
      case "fail" -> false;
      default -> throw usage("--on-error=" + onError + ": expected skip or fail");
    };
    boolean deadLetters = switch (onReject) {
      case "fail" -> false;
      case "dead-letter", "dead_letter" -> true;
      default -> throw usage("--on-reject=" + onReject + ": expected fail or dead-letter");
    };
    if (deadLetters && deadLetter == null) {
      throw usage("--on-reject=dead-letter needs --dead-letter <dir>");
    }
    positive("--shards", shards);
    positive("--chunk-bytes", chunkBytes);
    if (chunkBytes > Integer.MAX_VALUE - 1024) {
      throw usage("--chunk-bytes=" + chunkBytes + ": at most 2 GiB");
    }
    positive("--insert-bytes", insertBytes);
    positive("--insert-rows", insertRows);
    positive("--budget", budget);
    positive("--queue-capacity", queueCapacity);
    positive("--batch-rows", batchRows);
    int threads = parseThreads == null ? Runtime.getRuntime().availableProcessors() : parseThreads;
    positive("--parse-threads", threads);
    if (maxReplays < 0) {
      throw usage("--max-replays=" + maxReplays + ": expected 0 or more");
    }
    if (requestTimeout.isZero() || requestTimeout.isNegative()) {
      throw usage("--request-timeout=" + requestTimeout + ": expected more than 0");
    }
    Compression packing = switch (compression) {
      case "auto" -> isLoopback(url) ? Compression.NONE : Compression.LZ4;
      case "none" -> Compression.NONE;
      case "gzip" -> Compression.GZIP;
      case "lz4" -> Compression.LZ4;
      case "zstd" -> Compression.ZSTD;
      default -> throw usage("--compression=" + compression
          + ": expected auto, none, gzip, lz4 or zstd");
    };
    if (zstdLevel < ClickHouseHttpOptions.MIN_ZSTD_LEVEL
        || zstdLevel > ClickHouseHttpOptions.MAX_ZSTD_LEVEL) {
      throw usage("--zstd-level=" + zstdLevel + ": expected " + ClickHouseHttpOptions.MIN_ZSTD_LEVEL
          + " to " + ClickHouseHttpOptions.MAX_ZSTD_LEVEL);
    }
    if (deadline != null && (deadline.isZero() || deadline.isNegative())) {
      throw usage("--deadline=" + deadline + ": expected more than 0");
    }
    boolean stdin = "-".equals(input);
    Path inputFile = stdin ? null : Path.of(input);
    if (inputFile != null && !Files.isReadable(inputFile)) {
      throw usage("--input=" + input + ": no such readable file");
    }
    if (resume && stdin) {
      throw usage("--resume needs a file --input, not stdin (-): stdin cannot be read from an"
          + " offset");
    }
    if (resume && checkpoint == null) {
      throw usage("--resume needs --checkpoint <file>");
    }
    String db = null;
    String name = null;
    if (table != null) {
      int dot = table.indexOf('.');
      if (dot <= 0 || dot == table.length() - 1 || table.indexOf('.', dot + 1) >= 0) {
        throw usage("--table=" + table + ": expected <database>.<table>");
      }
      db = table.substring(0, dot);
      name = table.substring(dot + 1);
    } else if (out == null) {
      throw usage("missing --table <db.name> (or --out <dir> to write files without a server)");
    }
    if (out != null && schema == null) {
      throw usage("--out needs --schema 'name Type, ...' (or @file): there is no server to ask"
          + " for the table's columns");
    }
    TableSchema columns = schema == null ? null : parseSchema();
    return new Ingest.Settings(url, db, name, inputFile, fmt, user, password, shards,
        (int) chunkBytes, insertBytes, insertRows, linger, budget, queueCapacity, batchRows, skip,
        deadLetters ? deadLetter : null, retryMaxElapsed, requestTimeout, maxReplays, checkpoint,
        resume, out, columns, deadline, progress, packing, zstdLevel,
        threads, strict, zone(), rejects, inputFormat());
  }

  private DelimitedText.Kind inputFormat() {
    String f = inputFormat;
    if (f == null) {
      String name = input.toLowerCase(java.util.Locale.ROOT);
      f = name.endsWith(".csv") ? "csv" : name.endsWith(".tsv") || name.endsWith(".tab") ? "tsv"
          : "json";
    }
    return switch (f.toLowerCase(java.util.Locale.ROOT)) {
      case "json", "jsonl", "jsoneachrow" -> null;
      case "csv", "csvwithnames" -> DelimitedText.Kind.CSV;
      case "tsv", "tabseparated", "tsvwithnames", "tabseparatedwithnames" -> DelimitedText.Kind.TSV;
      default -> throw usage("--input-format=" + inputFormat + ": expected json, csv or tsv");
    };
  }

  private java.time.ZoneId zone() {
    if (timezone == null) {
      return null;
    }
    try {
      return java.time.ZoneId.of(timezone);
    } catch (java.time.DateTimeException e) {
      throw usage("--timezone=" + timezone + ": not a time zone (expected a name such as"
          + " Europe/Berlin or UTC, or an offset such as +01:00)");
    }
  }

  private TableSchema parseSchema() {
    String text = schema;
    if (schema.startsWith("@")) {
      try {
        text = Files.readString(Path.of(schema.substring(1)));
      } catch (IOException e) {
        throw usage("--schema=" + schema + ": cannot read " + schema.substring(1) + ": " + e);
      }
    }
    try {
      return SchemaText.parse(text);
    } catch (IllegalArgumentException e) {
      throw usage("--schema=" + schema + ": " + e.getMessage());
    }
  }

  private void positive(String option, long value) {
    if (value < 1) {
      throw usage(option + "=" + value + ": expected at least 1");
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * Whether {@code url} names this machine by its host alone: {@code localhost} or a loopback
   * address literal (127.0.0.0/8, ::1). No name is resolved, so a start-up never waits for DNS;
   * an unreadable URL is not loopback (the HTTP client reports it).
   */
  static boolean isLoopback(String url) {
    String host;
    try {
      host = URI.create(url).getHost();
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (host == null) {
      return false;
    }
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    boolean literal = host.indexOf(':') >= 0 || host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    if (!literal) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress(); // a literal: no lookup
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
