package dev.handoff.core.sink;

import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.WriteException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Dead letters as files in a directory: for each dead-lettered insert, one data file holding its
 * bytes exactly as they would have been inserted (so {@code clickhouse-client} or {@code
 * clickhouse-local} reads it in the writer's format) and one {@code .json} file beside it with the
 * shard, the sequences, the rows, the server's code and message and the attempt count.
 *
 * <p>Each file is written to a temporary name in the same directory and renamed into place, so a
 * reader never sees a partial file; a data file is renamed before its description. Thread-safe.
 */
public final class DeadLetterDirectory implements DeadLetters {
  private final Path dir;
  private final String format;

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
   */
  public DeadLetterDirectory(Path dir, String format) {
    this.dir = Objects.requireNonNull(dir, "dir");
    this.format = Objects.requireNonNull(format, "format");
  }

  /** Returns the directory. */
  public Path directory() {
    return dir;
  }

  @Override
  public void write(Insert insert, WriteException cause) throws IOException {
    throw new IOException("not implemented yet");
  }
}
