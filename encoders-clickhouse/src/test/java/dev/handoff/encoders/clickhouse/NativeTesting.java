package dev.handoff.encoders.clickhouse;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Helpers shared by this module's unit tests: encoders over Object[] rows, hex bytes. */
final class NativeTesting {
  private NativeTesting() {}

  /** Returns a schema of alternating names and type strings. */
  static TableSchema schema(String... namesAndTypes) {
    ColumnSpec[] c = new ColumnSpec[namesAndTypes.length / 2];
    for (int i = 0; i < c.length; i++) {
      c[i] = new ColumnSpec(namesAndTypes[2 * i], namesAndTypes[2 * i + 1]);
    }
    return TableSchema.of(c);
  }

  static RowEncoder<Object[]> encoder(TableSchema schema) {
    return new NativeEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
  }

  /** Encodes {@code rows} (unchecked) and returns the one block. */
  static byte[] block(TableSchema schema, List<Object[]> rows) {
    RowEncoder<Object[]> e = encoder(schema);
    ChunkBuffer unused = new ChunkBuffer(16);
    for (Object[] r : rows) {
      e.encode(r, unused);
    }
    return finish(e);
  }

  static byte[] finish(RowEncoder<?> e) {
    ChunkBuffer out = new ChunkBuffer(16);
    e.finishChunk(out);
    return out.toByteArray();
  }

  /** Parses hex with any whitespace, {@code |} separators and {@code ..} ignored. */
  static byte[] hex(String s) {
    String h = s.replaceAll("[\\s|]", "");
    byte[] b = new byte[h.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }

  /** Returns a UInt64 LE in hex. */
  static String u64(long v) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      sb.append(String.format("%02x", (v >>> (8 * i)) & 0xFF));
    }
    return sb.toString();
  }

  /** Returns the block header for one column with {@code rows} rows. */
  static byte[] header(int columns, int rows) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ChunkBuffer c = new ChunkBuffer(8);
    c.writeVarUInt(columns);
    c.writeVarUInt(rows);
    b.writeBytes(c.toByteArray());
    return b.toByteArray();
  }

  /** Returns name and type as binary strings. */
  static byte[] nameType(String name, String type) {
    ChunkBuffer c = new ChunkBuffer(8);
    for (String s : new String[] {name, type}) {
      byte[] u = s.getBytes(StandardCharsets.UTF_8);
      c.writeVarUInt(u.length);
      c.writeBytes(u);
    }
    return c.toByteArray();
  }

  /** Concatenates byte arrays. */
  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.writeBytes(p);
    }
    return b.toByteArray();
  }

  /** The block of one column called {@code c} with the given type, rows and data. */
  static byte[] oneColumn(String type, int rows, String dataHex) {
    return concat(header(1, rows), nameType("c", type), hex(dataHex));
  }

  static String hexOf(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x ", x & 0xFF));
    }
    return sb.toString().trim();
  }
}
