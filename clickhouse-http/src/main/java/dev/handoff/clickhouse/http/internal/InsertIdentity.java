package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
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
    CRC32C crc = new CRC32C();
    for (Frame f : insert.frames()) {
      crc.update(f.asReadOnlyBuffer());
    }
    return "handoff-" + runId + "-s" + insert.shard() + "-q" + insert.firstSequence() + "-"
        + insert.lastSequence() + "-r" + insert.rows() + "-c"
        + String.format("%08x", crc.getValue());
  }
}
