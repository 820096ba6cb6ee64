package dev.handoff.clickhouse.http;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Providers;
import java.util.List;
import java.util.Map;

/** Frames made by the real encoders, found by name through ServiceLoader, and inserts of them. */
final class Encoded {
  private Encoded() {}

  /** The encoder name for a writer format. */
  static String encoderFor(String format) {
    return format.equalsIgnoreCase("Native") ? "native" : "rowbinary";
  }

  /** Encodes {@code rows} of {@code schema} into one frame (one Native block). */
  static Frame frame(String format, TableSchema schema, List<Object[]> rows) {
    RowEncoder<Object[]> encoder = Providers.encoder(encoderFor(format))
        .create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer buffer = new ChunkBuffer(1024);
    for (Object[] row : rows) {
      encoder.encode(row, buffer);
    }
    encoder.finishChunk(buffer);
    return buffer.split();
  }

  /** Returns an insert of {@code frames} for shard {@code shard}, attempt 1. */
  static Insert insert(int shard, int rows, Frame... frames) {
    long bytes = 0;
    for (Frame f : frames) {
      bytes += f.length();
    }
    return new Insert(shard, 0, 0, List.of(frames), rows, bytes, 1);
  }
}
