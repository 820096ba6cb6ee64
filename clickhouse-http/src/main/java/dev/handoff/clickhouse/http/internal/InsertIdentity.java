package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.CRC32C;

/**
 * The identity of an insert: {@code handoff-<run>-s<shard>-q<first>-<last>-r<rows>-c<crc32c>}.
 * Equal for every attempt at one insert (the worker retries the same frames), different for
 * different inserts of one run: the sequences tell chunks apart, the rows and the body's CRC32C
 * tell apart the parts of one chunk made while isolating a rejected row.
 */
public final class InsertIdentity {
  private InsertIdentity() {}

  /** Returns the identity of {@code insert} in run {@code runId}. */
  public static String of(String runId, Insert insert) {
    Crc crc = new Crc();
    try {
      for (Frame f : insert.frames()) {
        f.writeTo(crc);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // Crc never throws
    }
    return "handoff-" + runId + "-s" + insert.shard() + "-q" + insert.firstSequence() + "-"
        + insert.lastSequence() + "-r" + insert.rows() + "-c"
        + String.format("%08x", crc.crc.getValue());
  }

  /**
   * Feeds the bytes a frame writes to a CRC32C: a frame writes its own array, which the CRC
   * reads in place (a read-only buffer of it has no accessible array, and CRC32C copied it in
   * pieces of 4 KiB).
   */
  private static final class Crc extends OutputStream {
    final CRC32C crc = new CRC32C();

    @Override
    public void write(int b) {
      crc.update(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      crc.update(b, off, len);
    }
  }
}
