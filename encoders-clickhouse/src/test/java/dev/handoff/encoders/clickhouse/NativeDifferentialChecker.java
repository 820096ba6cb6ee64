package dev.handoff.encoders.clickhouse;

import static dev.handoff.encoders.clickhouse.NativeDifferentialCases.blockCount;
import static dev.handoff.encoders.clickhouse.NativeDifferentialCases.clientV2Limitation;
import static dev.handoff.encoders.testsupport.DiffCheck.causes;
import static dev.handoff.encoders.testsupport.DiffCheck.compareRows;
import static dev.handoff.encoders.testsupport.DiffCheck.readRow;
import static dev.handoff.encoders.testsupport.DiffModel.isBad;
import static dev.handoff.encoders.testsupport.DiffShow.hex;

import com.clickhouse.client.api.ClientConfigProperties;
import com.clickhouse.client.api.data_formats.NativeFormatReader;
import com.clickhouse.client.api.data_formats.internal.BinaryStreamReader;
import com.clickhouse.client.api.data_formats.internal.StringValue;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseColumn;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.TableSchema;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.testsupport.DiffCheck;
import dev.handoff.encoders.testsupport.DiffCheck.ReaderValues;
import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.Column;
import dev.handoff.encoders.testsupport.DiffModel.V;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The checker of {@link NativeDifferentialProperties}: encodes a case with our {@code
 * native} encoder in its blocks (a row with a bad value must be refused with a DATA
 * error), decodes each block with client-v2's {@code NativeFormatReader} and compares with the
 * case's canonical values (the shared half is {@link DiffCheck}).
 */
final class NativeDifferentialChecker {
  private NativeDifferentialChecker() {}

  static final NativeEncoderProvider PROVIDER = new NativeEncoderProvider();

  /**
   * Encodes the case with our encoder, decodes it with client-v2 and compares; returns {@code
   * null} when equal, else what differs.
   */
  static String check(Case c) {
    return check(c, UnaryOperator.identity());
  }

  /** {@link #check(Case)} with the encoded bytes passed through {@code tamper} first. */
  static String check(Case c, UnaryOperator<byte[]> tamper) {
    if (clientV2Limitation(c) != null) {
      return null; // not generated (see generate); reachable only while shrinking
    }
    byte[] bytes;
    List<Integer> ends = new ArrayList<>();
    try {
      bytes = encode(c, ends);
    } catch (RowMismatch e) {
      return e.getMessage();
    }
    return compare(c.columns(), c.expectedRows(), tamper.apply(bytes), ends);
  }

  /** A row refused or accepted against the case's expectation. */
  static final class RowMismatch extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RowMismatch(String message) {
      super(message, null, false, false);
    }
  }

  /** Encodes the rows of {@code c} in the case's row shape, in its blocks. */
  static byte[] encode(Case c) {
    return encode(c, new ArrayList<>());
  }

  /** {@link #encode(Case)}, adding the end offset of every block to {@code ends}. */
  static byte[] encode(Case c, List<Integer> ends) {
    List<Boolean> bad = new ArrayList<>();
    for (List<V> row : c.rows()) {
      bad.add(isBad(row));
    }
    int blocks = blockCount(c);
    return DiffCheck.encodeRows(c, new DiffCheck.RowsEncoder() {
      @Override
      public <T> byte[] encode(TableSchema schema, RowAccessor<T> accessor, List<T> rows) {
        return encodeAll(schema, accessor, rows, bad, blocks, ends);
      }
    });
  }

  /**
   * Encodes {@code rows} in {@code blocks} nearly equal runs, a {@code finishChunk} after each,
   * into one buffer. A row marked {@code bad} must be refused with a DATA error (and so rolled
   * back), any other accepted; else a {@link RowMismatch}.
   */
  static <T> byte[] encodeAll(TableSchema schema, RowAccessor<T> accessor, List<T> rows,
      List<Boolean> bad, int blocks, List<Integer> ends) {
    RowEncoder<T> encoder = PROVIDER.create(schema, accessor, Map.of());
    ChunkBuffer buffer = new ChunkBuffer(256);
    int n = rows.size();
    for (int b = 0; b < blocks; b++) {
      for (int r = n * b / blocks; r < n * (b + 1) / blocks; r++) {
        try {
          encoder.encode(rows.get(r), buffer);
        } catch (HandoffException e) {
          if (!bad.get(r)) {
            throw new RowMismatch("our encoder rejected a valid value in row " + r + ": "
                + e.getMessage());
          }
          if (e.errorClass() != ErrorClass.DATA) {
            throw new RowMismatch("our encoder refused row " + r + " with a " + e.errorClass()
                + " error, not DATA: " + e.getMessage());
          }
          continue;
        }
        if (bad.get(r)) {
          throw new RowMismatch("our encoder accepted row " + r + ", which carries a bad value");
        }
      }
      encoder.finishChunk(buffer);
      ends.add(buffer.toByteArray().length);
    }
    return buffer.toByteArray();
  }

  /**
   * Decodes {@code bytes} (Native blocks) with client-v2's {@link NativeFormatReader} and
   * compares with {@code expected} (canonical values) and with the names and types of {@code
   * columns}; returns {@code null} when they are equal, else what differs.
   */
  static String compare(List<Column> columns, List<List<Object>> expected, byte[] bytes) {
    return compare(columns, expected, bytes, List.of(bytes.length));
  }

  /**
   * {@link #compare(List, List, byte[])} for a body of several blocks ending at {@code ends}:
   * each block is read by a reader of its own, because client-v2 0.10.0's Native reader loses
   * the last row of a block when a second block follows (proof: {@link
   * NativeDifferentialProperties#clientV2MisreadsServerNativeBlocks}, on the server's multi-block output). Bytes after the
   * last end are reported unread.
   */
  static String compare(List<Column> columns, List<List<Object>> expected, byte[] bytes,
      List<Integer> ends) {
    List<List<Object>> decoded = new ArrayList<>();
    int start = 0;
    for (int end : ends) {
      end = Math.min(end, bytes.length);
      String m = decode(columns, Arrays.copyOfRange(bytes, start, end), bytes, decoded);
      if (m != null) {
        return m;
      }
      start = end;
    }
    if (start < bytes.length) {
      return "client-v2 left " + (bytes.length - start) + " byte(s) unread\n  bytes: "
          + hex(bytes, 512);
    }
    return compareRows(columns, expected, decoded, bytes);
  }

  /** Decodes one block, adding its rows to {@code decoded}; null, or what went wrong. */
  private static String decode(List<Column> columns, byte[] block, byte[] bytes,
      List<List<Object>> decoded) {
    QuerySettings settings = new QuerySettings().setUseTimeZone("UTC");
    // Top-level String/FixedString as raw bytes (StringValue), so any bytes can be compared.
    settings.setOption(ClientConfigProperties.BINARY_STRING_SUPPORT.getKey(), true);
    ByteArrayInputStream in = new ByteArrayInputStream(block);
    try {
      NativeFormatReader reader = new NativeFormatReader(in, settings,
          new BinaryStreamReader.DefaultByteBufferAllocator());
      while (reader.hasNext()) {
        reader.next();
        List<String> theirs = new ArrayList<>();
        for (ClickHouseColumn col : reader.getSchema().getColumns()) {
          theirs.add(col.getColumnName() + " " + col.getOriginalTypeName());
        }
        List<String> ours = new ArrayList<>();
        for (Column col : columns) {
          ours.add(col.toString());
        }
        if (!theirs.equals(ours)) {
          return "client-v2 read the block's columns as " + theirs + ", expected " + ours
              + "\n  bytes: " + hex(bytes, 512);
        }
        String m = readRow(columns, reader::readValue, CLIENT_V2, decoded, bytes);
        if (m != null) {
          return m;
        }
      }
    } catch (RuntimeException e) {
      return "client-v2 could not decode our bytes (" + decoded.size() + " row(s) read before;"
          + " it reads one block ahead): " + causes(e) + "\n  bytes: " + hex(bytes, 512);
    }
    if (in.available() != 0) {
      return "client-v2 left " + in.available() + " byte(s) unread\n  bytes: " + hex(bytes, 512);
    }
    return null;
  }

  /** How client-v2's own value classes are read (see {@link ReaderValues}). */
  static final ReaderValues CLIENT_V2 = new ReaderValues(v -> ((StringValue) v).toByteArray(),
      v -> ((BinaryStreamReader.EnumValue) v).value,
      v -> ((BinaryStreamReader.ArrayValue) v).length(),
      (v, i) -> ((BinaryStreamReader.ArrayValue) v).get(i));
}
