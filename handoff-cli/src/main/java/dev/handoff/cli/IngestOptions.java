package dev.handoff.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The model of {@code handoff ingest}'s options, built with picocli's programmatic API instead of
 * its annotations: reading annotations costs a start-up the JVM's parsing of them and a generated
 * proxy class per annotation type, about 25 ms of the 0.3 s before the first row. {@link #read}
 * copies the parsed values into an {@link IngestCommand}, whose {@code settings()} checks them.
 * The help lists the options in the order they are added here.
 */
final class IngestOptions {

  private IngestOptions() {}

  /** Returns the command's model, whose user object is {@code command}. */
  static CommandSpec spec(IngestCommand command) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name("ingest");
    Map<String, String> exits = new LinkedHashMap<>();
    exits.put("0", "every row read was written, or skipped or dead-lettered as the options say");
    exits.put("1", "some rows were neither (the summary's status is incomplete; rerun with"
        + " --resume)");
    exits.put("2", "usage error (the message names the option and the value)");
    exits.put("3", "the run could not start (no server, a table that does not exist, an"
        + " unreadable checkpoint)");
    exits.put("130, 143", "stopped by SIGINT or SIGTERM, after printing the summary");
    spec.usageMessage()
        .sortOptions(false)
        .description("Reads JSON lines (one object per line), or CSV or TSV with a header line,"
            + " into a ClickHouse table over HTTP, or into insert files with --out. Every row is"
            + " written, skipped (counted per reason and named on stderr) or dead-lettered;"
            + " failed batches are read again; the checkpoint file lets --resume continue after"
            + " a crash. Progress goes to stderr, a JSON summary to stdout.")
        .exitCodeListHeading("%nExit status:%n")
        .exitCodeList(exits);
    add(spec, option("--url", "<url>", String.class, "http://127.0.0.1:8123",
        "The server's HTTP interface (default ${DEFAULT-VALUE})."));
    add(spec, option("--table", "<db.name>", String.class, null,
        "The target table; required unless --out is given."));
    add(spec, option("--input", "<file|->", String.class, null,
        "The input to read (see --input-format); - reads stdin.").required(true));
    add(spec, option("--format", "<native|rowbinary>", String.class, "native",
        "The insert format (default ${DEFAULT-VALUE})."));
    add(spec, option("--user", "<name>", String.class, null,
        "The ClickHouse user."));
    add(spec, option("--password", "<secret>", String.class, "${env:HANDOFF_PASSWORD}",
        "The user's password (default: the HANDOFF_PASSWORD environment variable)."));
    add(spec, option("--shards", "<n>", int.class, "2",
        "Shards: parallel insert streams, one worker each (default ${DEFAULT-VALUE})."));
    add(spec, size("--chunk-bytes", "<size>", "1MiB",
        "Seal a shard's chunk at this size (default ${DEFAULT-VALUE})."));
    add(spec, size("--insert-bytes", "<size>", "64MiB",
        "Merge chunks into inserts of at most this size (default ${DEFAULT-VALUE}, as the sink"
            + " facade's; fewer, larger parts cost the server less)."));
    add(spec, option("--insert-rows", "<n>", int.class, "1000000",
        "Merge chunks into inserts of at most this many rows (default ${DEFAULT-VALUE})."));
    // A load is a batch: a longer linger means fewer, larger inserts, hence fewer parts for the
    // server to write and merge (docs/ingest.md, Speed). About one insert a second per table is
    // ClickHouse's own advice; the end of the input ends every linger.
    add(spec, duration("--linger", "<duration>", "1s",
        "How long a worker waits for more chunks to merge into one insert (default"
            + " ${DEFAULT-VALUE}; the end of the input or a full --budget ends it)."));
    // Room for each of the default two shards to gather a whole --insert-bytes insert: with 64 MiB
    // a full budget ended the inserts at about 28 MiB, twice the parts on a large file.
    add(spec, size("--budget", "<size>", "128MiB",
        "Stop reading while this many bytes of sealed chunks are not yet written (default"
            + " ${DEFAULT-VALUE})."));
    add(spec, option("--queue-capacity", "<chunks>", int.class, "4",
        "Chunks each shard's queue holds (default ${DEFAULT-VALUE})."));
    add(spec, option("--batch-rows", "<n>", int.class, "10000",
        "Lines per block: the unit of parsing, acknowledgement, checkpoint and replay (default"
            + " ${DEFAULT-VALUE})."));
    add(spec, option("--on-error", "<skip|fail>", String.class, "skip",
        "A line that is not a JSON object, or a row that does not fit the table: skip it, count"
            + " it and say so on stderr, or stop there (default ${DEFAULT-VALUE})."));
    add(spec, option("--input-format", "<json|csv|tsv>", String.class, null,
        "JSON lines, or CSV or TSV whose first line names the columns (default: csv for a .csv"
            + " file, tsv for .tsv or .tab, else json)."));
    add(spec, option("--rejects", "<file>", Path.class, null,
        "Write each skipped row's line here as it was read, and why to <file>.reasons (line for"
            + " line), to fix them and ingest that file."));
    add(spec, flag(new String[] {"--strict", "--no-skip-unknown-fields"},
        "A field that names no column makes its row bad (skipped or stopping the run as"
            + " --on-error says), like ClickHouse's input_format_skip_unknown_fields=0. Default:"
            + " such fields are counted, reported once per name, and left out."));
    add(spec, option("--timezone", "<zone>", String.class, null,
        "The time zone of date-time text without an offset, for DateTime and DateTime64 columns"
            + " that name none (default: the server's timezone(), as the server's own JSONEachRow"
            + " reads it; UTC with --out)."));
    add(spec, option("--parse-threads", "<n>", Integer.class, null,
        "Threads that parse the input, each a block of --batch-rows lines at a time (default:"
            + " the processors available)."));
    add(spec, option("--on-reject", "<fail|dead-letter>", String.class, "fail",
        "An insert the server rejects: fail its batches (they replay, then count as lost), or"
            + " isolate the rejected rows into --dead-letter (default ${DEFAULT-VALUE})."));
    add(spec, option("--dead-letter", "<dir>", Path.class, null,
        "Where rejected rows go with the server's message (for --on-reject dead-letter)."));
    add(spec, duration("--retry-max-elapsed", "<duration>", "10m",
        "How long an insert is retried while the server is down or failing transiently (default"
            + " ${DEFAULT-VALUE})."));
    add(spec, duration("--request-timeout", "<duration>", "60s",
        "How long one HTTP request may wait for the server's answer (default ${DEFAULT-VALUE})."));
    add(spec, option("--compression", "<auto|none|gzip|lz4|zstd>", String.class, "auto",
        "How insert bodies are compressed: ClickHouse's own compressed blocks (lz4, zstd),"
            + " gzip, or none. auto (the default): none when --url names this machine (localhost or"
            + " a loopback address), where compressing only costs CPU, else lz4."));
    add(spec, option("--zstd-level", "<1..22>", int.class, "1",
        "The ZSTD level for --compression zstd (default ${DEFAULT-VALUE})."));
    add(spec, option("--max-replays", "<n>", int.class, "3",
        "How often a failed batch is read again before its rows count as lost (default"
            + " ${DEFAULT-VALUE})."));
    add(spec, option("--checkpoint", "<file>", Path.class, null,
        "Record the input offset of the acknowledged rows here (atomically)."));
    add(spec, flag(new String[] {"--resume"},
        "Start reading at the --checkpoint's offset (a file input only)."));
    add(spec, option("--out", "<dir>", Path.class, null,
        "Write each insert as a file here instead of to a server (needs --schema)."));
    add(spec, option("--schema", "<'name Type, ...'|@file>", String.class, null,
        "The table's columns: a list, or @ and a file holding one. Required with --out (no"
            + " server to ask); with a server it replaces asking system.columns, and must then name"
            + " the server's types exactly."));
    add(spec, duration("--deadline", "<duration>", null,
        "Stop reading after this long, write what can be written within a short grace, and fail"
            + " the rest (default: none)."));
    // A Boolean without a default: null (not given) draws the bar only on a terminal.
    add(spec, OptionSpec.builder("--progress").type(Boolean.class).negatable(true)
        .description("Draw a progress bar on stderr (default: only when stderr is a terminal)."));
    return spec;
  }

  /** Copies the values {@code spec} parsed (or its defaults) into {@code c}. */
  static void read(CommandSpec spec, IngestCommand c) {
    c.url = value(spec, "--url");
    c.table = value(spec, "--table");
    c.input = value(spec, "--input");
    c.format = value(spec, "--format");
    c.user = value(spec, "--user");
    c.password = value(spec, "--password");
    c.shards = value(spec, "--shards");
    c.chunkBytes = value(spec, "--chunk-bytes");
    c.insertBytes = value(spec, "--insert-bytes");
    c.insertRows = value(spec, "--insert-rows");
    c.linger = value(spec, "--linger");
    c.budget = value(spec, "--budget");
    c.queueCapacity = value(spec, "--queue-capacity");
    c.batchRows = value(spec, "--batch-rows");
    c.onError = value(spec, "--on-error");
    c.inputFormat = value(spec, "--input-format");
    c.rejects = value(spec, "--rejects");
    c.strict = flag(spec, "--strict");
    c.timezone = value(spec, "--timezone");
    c.parseThreads = value(spec, "--parse-threads");
    c.onReject = value(spec, "--on-reject");
    c.deadLetter = value(spec, "--dead-letter");
    c.retryMaxElapsed = value(spec, "--retry-max-elapsed");
    c.requestTimeout = value(spec, "--request-timeout");
    c.compression = value(spec, "--compression");
    c.zstdLevel = value(spec, "--zstd-level");
    c.maxReplays = value(spec, "--max-replays");
    c.checkpoint = value(spec, "--checkpoint");
    c.resume = flag(spec, "--resume");
    c.out = value(spec, "--out");
    c.schema = value(spec, "--schema");
    c.deadline = value(spec, "--deadline");
    c.progress = value(spec, "--progress");
  }

  private static <T> T value(CommandSpec spec, String name) {
    return spec.findOption(name).getValue();
  }

  private static boolean flag(CommandSpec spec, String name) {
    return Boolean.TRUE.equals(spec.findOption(name).getValue());
  }

  private static void add(CommandSpec spec, OptionSpec.Builder option) {
    spec.addOption(option.build());
  }

  /** An option with a value of {@code type}; {@code defaultValue} null for none. */
  private static OptionSpec.Builder option(String name, String label, Class<?> type,
      String defaultValue, String description) {
    return OptionSpec.builder(name)
        .paramLabel(label)
        .type(type)
        .defaultValue(defaultValue)
        .description(description);
  }

  /** A byte size ({@link Sizes.BytesConverter}: 64MiB, 1GB, 4096). */
  private static OptionSpec.Builder size(String name, String label, String defaultValue,
      String description) {
    return option(name, label, long.class, defaultValue, description)
        .converters(new Sizes.BytesConverter());
  }

  /** A duration ({@link Sizes.DurationConverter}: 200ms, 5s, 10m). */
  private static OptionSpec.Builder duration(String name, String label, String defaultValue,
      String description) {
    return option(name, label, Duration.class, defaultValue, description)
        .converters(new Sizes.DurationConverter());
  }

  /** An option without a value: true when given. */
  private static OptionSpec.Builder flag(String[] names, String description) {
    return OptionSpec.builder(names).type(boolean.class).description(description);
  }
}
