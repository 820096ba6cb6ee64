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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code handoff ingest --table db.name --input FILE}: reads JSON lines (or CSV or TSV) into a
 * ClickHouse table through the stage and the sink workers, or into insert files with {@code --out
 * DIR}. Progress goes to stderr, a JSON summary to stdout. The options are checked here (a bad
 * value is a usage error naming the option and the value); {@link Ingest} runs them.
 *
 * <p>The command's model is built by {@link #spec}, not from annotations: reading picocli's
 * annotations costs every run the JVM's parsing of them and a generated proxy class per
 * annotation type (about 25 ms of a start-up of 0.3 s). {@link #settings} reads the parsed
 * values from the model.
 */
final class IngestCommand implements Callable<Integer> {

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

  private CommandSpec spec;

  // The options' values, read from the model by settings().
  String url;
  String table;
  String input;
  String format;
  String user;
  String password;
  int shards;
  long chunkBytes;
  long insertBytes;
  int insertRows;
  Duration linger;
  long budget;
  int queueCapacity;
  int batchRows;
  String onError;
  String inputFormat;
  Path rejects;
  boolean strict;
  String timezone;
  Integer parseThreads;
  String onReject;
  Path deadLetter;
  Duration retryMaxElapsed;
  Duration requestTimeout;
  String compression;
  int zstdLevel;
  int maxReplays;
  Path checkpoint;
  boolean resume;
  Path out;
  String schema;
  Duration deadline;
  Boolean progress;

  IngestCommand() {}

  /** Returns this command's model (see {@link IngestOptions}); picocli fills it when it parses. */
  CommandSpec spec() {
    if (spec == null) {
      spec = IngestOptions.spec(this);
    }
    return spec;
  }

  @Override
  public Integer call() {
    Ingest.Settings settings = settings();
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    return new Ingest(settings, stderr, sample -> {}).run(stdout);
  }

  /** Checks every option and returns the run's settings; a bad value is a usage error. */
  Ingest.Settings settings() {
    IngestOptions.read(spec, this);
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
