package dev.handoff.benchmarks.flink;

import com.clickhouse.client.api.data_formats.RowBinaryFormatSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.connector.base.sink.writer.ElementConverter;

/**
 * The baseline's element converter: each {@link Event} becomes its own RowBinary byte array,
 * written with client-v2's {@link RowBinaryFormatSerializer} in the table's column order, the
 * way a user of the official connector writes a POJO converter. Typed calls only, so nothing is
 * looked up per value; {@code id} goes through {@code writeInt64}, which writes the same 8 bytes
 * as UInt64 for ids below 2^63 (client-v2's {@code writeUInt64} takes only a BigInteger).
 */
public final class EventRowBinaryConverter implements ElementConverter<Event, RowBinaryEntry> {
  private static final long serialVersionUID = 1L;
  /** Room for one narrow row, so the stream never grows (a row here is 45 to 50 bytes). */
  private static final int ROW_BYTES = 64;

  @Override
  public RowBinaryEntry apply(Event e, SinkWriter.Context context) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(ROW_BYTES);
    RowBinaryFormatSerializer s = new RowBinaryFormatSerializer(out);
    try {
      s.writeInt64(e.id());
      s.writeDateTime32(e.ts());
      s.writeString(e.name());
      s.writeString(e.kind());
      s.writeFloat64(e.value());
      s.writeUInt32(e.count());
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
    return new RowBinaryEntry(out.toByteArray());
  }
}
