package dev.handoff.cli;

import dev.handoff.api.Frame;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.WriteException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code --out DIR} writer: each insert becomes one file in the directory instead of an HTTP
 * request, so {@code ingest} runs without a server.
 *
 * <p>A file holds exactly the body the HTTP writer would send: the frames concatenated, in the
 * chosen format ({@code Native} or {@code RowBinary}). It is named {@code
 * <counter>-shard<S>-seq<A>-<B>.<native|rowbinary>} and appears atomically (written to a hidden
 * temporary file, forced, renamed), so a reader never sees half an insert. Next to the inserts,
 * {@code structure.txt} holds the table's columns as {@code name Type, ...} and {@code
 * format.txt} the ClickHouse format name; load a file with {@code clickhouse-client --query
 * "INSERT INTO db.t FORMAT Native" < file}, or read it with {@code clickhouse-local --structure
 * "$(cat structure.txt)" --input-format Native}. Thread-safe.
 */
final class OutDirWriter implements InsertWriter {
  private final Path dir;
  private final String extension;
  /** Numbers the files (attempts included), so names never collide and sort in write order. */
  private final AtomicLong counter = new AtomicLong();

  /**
   * Creates the directory if needed and writes {@code structure.txt} and {@code format.txt}.
   *
   * @param format the ClickHouse format name: {@code Native} or {@code RowBinary}
   * @throws IOException if the directory or the description files cannot be written
   */
  OutDirWriter(Path dir, TableSchema schema, String format) throws IOException {
    this.dir = dir;
    this.extension = format.toLowerCase(Locale.ROOT);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("structure.txt"), structure(schema) + "\n",
        StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("format.txt"), format + "\n", StandardCharsets.UTF_8);
  }

  /** Returns the columns as clickhouse-local's {@code --structure} takes them. */
  static String structure(TableSchema schema) {
    StringJoiner j = new StringJoiner(", ");
    for (ColumnSpec c : schema.columns()) {
      j.add(c.name() + " " + c.type());
    }
    return j.toString();
  }

  @Override
  public void write(Insert insert) throws WriteException {
    String name = String.format(Locale.ROOT, "%08d-shard%d-seq%d-%d.%s",
        counter.incrementAndGet(), insert.shard(), insert.firstSequence(),
        insert.lastSequence(), extension);
    Path file = dir.resolve(name);
    Path temp = dir.resolve("." + name + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream out = Channels.newOutputStream(ch);
        for (Frame f : insert.frames()) {
          f.writeTo(out);
        }
        out.flush();
        ch.force(true);
      }
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // the temporary file's name starts with a dot: readers skip it
      }
      // A full disk may clear up; the workers retry with backoff until their deadline.
      throw new WriteException(WriteException.Kind.TRANSIENT, -1,
          "cannot write " + file + ": " + e, e);
    }
  }
}
