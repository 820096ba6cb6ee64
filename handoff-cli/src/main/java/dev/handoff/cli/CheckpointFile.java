package dev.handoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@code ingest} checkpoint file: the input byte offset up to which every line was written
 * (or accounted for), so that {@code --resume} starts reading there.
 *
 * <p>The file is a small JSON object ({@code {"input": "...", "offset": 123, "rows": 45,
 * "lines": 46, "writtenPast": 0, "writtenUntil": 123, "clean": true, "updated": "..."}}). It is replaced atomically: the new content goes to a temporary file in
 * the same directory, which is forced to disk and renamed over the old one, and the directory is
 * forced too. A reader therefore sees the old checkpoint or the new one, never a torn one, even
 * after a crash or a kill.
 */
final class CheckpointFile {

  /**
   * One checkpoint.
   *
   * @param input the input file, as given on the command line
   * @param offset the byte offset reading resumes from
   * @param rows the input rows (lines with an object) before {@code offset}, counted from where
   *     the first run started
   * @param lines the input lines before {@code offset} (blank ones included), for the line
   *     numbers of messages; {@code -1} when unknown (a checkpoint of an older version)
   * @param writtenPast rows after {@code offset} that are in the table already: a resumed run
   *     writes them again
   * @param writtenUntil the input offset up to which those rows lie
   * @param clean whether the run that wrote it ended on its own (else it was killed, and rows it
   *     wrote after this checkpoint are not in {@code writtenPast})
   */
  record Position(String input, long offset, long rows, long lines, long writtenPast,
      long writtenUntil, boolean clean) {

    /** Returns a position with only the offset and the rows (nothing written past it). */
    static Position of(String input, long offset, long rows) {
      return new Position(input, offset, rows, -1, 0, offset, true);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Path temp;

  /** Creates the handle of the checkpoint file {@code file}; nothing is read or written yet. */
  CheckpointFile(Path file) {
    this.file = file.toAbsolutePath();
    this.temp = this.file.resolveSibling(this.file.getFileName() + ".tmp");
  }

  /** Returns the file's path. */
  Path path() {
    return file;
  }

  /**
   * Reads the checkpoint.
   *
   * @return empty if the file does not exist
   * @throws IOException if it cannot be read or is not a checkpoint
   */
  Optional<Position> read() throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    JsonNode n;
    try {
      n = JSON.readTree(bytes);
    } catch (IOException e) {
      throw new IOException("checkpoint file " + file + " is not JSON: " + e.getMessage(), e);
    }
    if (n == null || !n.path("offset").canConvertToLong() || n.path("offset").asLong() < 0
        || !n.path("input").isTextual()) {
      throw new IOException("checkpoint file " + file + " holds no input and offset: "
          + new String(bytes, java.nio.charset.StandardCharsets.UTF_8).strip());
    }
    long offset = n.get("offset").asLong();
    return Optional.of(new Position(n.get("input").asText(), offset, n.path("rows").asLong(0),
        n.path("lines").asLong(-1), n.path("writtenPast").asLong(0),
        n.path("writtenUntil").asLong(offset), n.path("clean").asBoolean(true)));
  }

  /**
   * Replaces the checkpoint atomically (temporary file, force, rename, force the directory).
   *
   * @throws IOException if it cannot be written; the old checkpoint is then unchanged
   */
  void write(Position p) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("input", p.input());
    n.put("offset", p.offset());
    n.put("rows", p.rows());
    n.put("lines", p.lines());
    n.put("writtenPast", p.writtenPast());
    n.put("writtenUntil", p.writtenUntil());
    n.put("clean", p.clean());
    n.put("updated", Instant.now().toString());
    byte[] bytes = JSON.writeValueAsBytes(n);
    Path dir = file.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
    try {
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("cannot replace " + file + " atomically: " + e.getMessage(), e);
    }
    if (dir != null) {
      forceDirectory(dir);
    }
  }

  /** Forces a directory's entries to disk; platforms that cannot open a directory skip it. */
  private static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Windows cannot open a directory; the rename is still atomic there.
    }
  }

  /** Counts the newlines of {@code file} before {@code offset} (a checkpoint without lines). */
  static long linesBefore(Path file, long offset) throws IOException {
    if (file == null || offset == 0) {
      return 0;
    }
    long lines = 0;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[1 << 16];
      long left = offset;
      int n;
      while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            lines++;
          }
        }
        left -= n;
      }
    }
    return lines;
  }
}
