package dev.handoff.core.sink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Dead letters as files in a directory: for each dead-lettered insert, one data file holding its
 * bytes exactly as they would have been inserted (so {@code clickhouse-client} or {@code
 * clickhouse-local} reads it in the writer's format) and one {@code .json} file beside it with the
 * shard, the sequences, the rows, the server's code and message and the attempt count.
 *
 * <p>Each file is written to a temporary name in the same directory, forced to the storage device
 * and renamed into place, so a reader never sees a partial file; a data file is renamed before its
 * description, and the directory is forced after both renames. {@link #write} returns only then:
 * the sink workers resolve the insert's acknowledgements after it, the source commits past the
 * rows, and a dead letter that a power loss could still take would be a lost record.
 * Thread-safe.
 */
public final class DeadLetterDirectory implements DeadLetters {
  private final Path dir;
  private final String format;
  private final AtomicLong counter = new AtomicLong();

  /**
   * Creates dead letters in {@code dir} (created when needed) with data files named {@code
   * .bin}.
   */
  public DeadLetterDirectory(Path dir) {
    this(dir, "bin");
  }

  /**
   * Creates dead letters in {@code dir} whose data files are named after {@code format} (for
   * example {@code native} or {@code rowbinary}), which the description also records.
   *
   * @throws IllegalArgumentException if {@code format} is not 1 to 32 letters or digits
   */
  public DeadLetterDirectory(Path dir, String format) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.format = Objects.requireNonNull(format, "format");
    if (!format.matches("[A-Za-z0-9]{1,32}")) {
      throw new IllegalArgumentException(
          "format : '" + format + "' (expected: 1 to 32 letters or digits, e.g. native)");
    }
  }

  /** Returns the directory. */
  public Path directory() {
    return dir;
  }

  /**
   * Writes the insert's bytes to {@code shard<S>-seq<F>-<L>-<N>.<format>} and its description to
   * the same name with {@code .json}, each through a temporary file renamed into place. {@code N}
   * counts up until the name is free, so earlier dead letters are never overwritten. Both files
   * and the directory are forced to the storage device before it returns.
   *
   * @throws IOException if a file cannot be written, forced or renamed (the sink workers then
   *     fail the insert's acknowledgements, so its batches replay)
   */
  @Override
  public void write(Insert insert, WriteException cause) throws IOException {
    Objects.requireNonNull(insert, "insert");
    Objects.requireNonNull(cause, "cause");
    Files.createDirectories(dir);
    String base = "shard" + insert.shard() + "-seq" + insert.firstSequence() + "-"
        + insert.lastSequence() + "-";
    Path tmp = Files.createTempFile(dir, ".dead-letter-", ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream out = Channels.newOutputStream(ch);
        for (dev.handoff.api.Frame f : insert.frames()) {
          f.writeTo(out);
        }
        out.flush();
        ch.force(true);
      }
      String name = moveToFreeName(tmp, base);
      Path json = Files.createTempFile(dir, ".dead-letter-", ".tmp");
      try {
        try (FileChannel ch = FileChannel.open(json, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
          ByteBuffer b = ByteBuffer.wrap(
              describe(insert, cause, name).getBytes(StandardCharsets.UTF_8));
          while (b.hasRemaining()) {
            ch.write(b);
          }
          ch.force(true);
        }
        Files.move(json, dir.resolve(name.substring(0, name.length() - format.length()) + "json"),
            StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(json);
      }
      forceDirectory(dir);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Forces a directory's entries to disk; platforms that cannot open a directory skip it. */
  private static void forceDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (UnsupportedOperationException | java.nio.file.AccessDeniedException e) {
      // Windows cannot open a directory as a channel; its renames are durable on their own.
    }
  }

  /** Renames {@code tmp} to the first free {@code base<N>.<format>}; returns the name. */
  private String moveToFreeName(Path tmp, String base) throws IOException {
    for (int tries = 0; ; tries++) {
      String name = base + counter.getAndIncrement() + "." + format;
      Path target = dir.resolve(name);
      if (Files.exists(target)) {
        if (tries > 1_000_000) {
          throw new IOException("no free dead-letter name for " + base + " in " + dir);
        }
        continue;
      }
      try {
        // Without REPLACE_EXISTING a name taken meanwhile fails instead of being overwritten.
        Files.move(tmp, target);
        return name;
      } catch (FileAlreadyExistsException e) {
        // taken between the check and the move: try the next number
      }
    }
  }

  private String describe(Insert insert, WriteException cause, String dataFile) {
    return "{\n"
        + "  \"dataFile\": " + quote(dataFile) + ",\n"
        + "  \"format\": " + quote(format) + ",\n"
        + "  \"shard\": " + insert.shard() + ",\n"
        + "  \"firstSequence\": " + insert.firstSequence() + ",\n"
        + "  \"lastSequence\": " + insert.lastSequence() + ",\n"
        + "  \"rows\": " + insert.rows() + ",\n"
        + "  \"bytes\": " + insert.bytes() + ",\n"
        + "  \"attempt\": " + insert.attempt() + ",\n"
        + "  \"kind\": " + quote(cause.kind().name()) + ",\n"
        + "  \"serverCode\": " + cause.serverCode() + ",\n"
        + "  \"message\": " + quote(String.valueOf(cause.getMessage())) + "\n"
        + "}\n";
  }

  /** Returns {@code s} as a JSON string literal. */
  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  @Override
  public String toString() {
    return "DeadLetterDirectory{" + dir + ", format=" + format + '}';
  }
}
