package dev.handoff.encoders.clickhouse;


import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.Frame;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.testserver.ClickHouseServerException;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.ServerCanon;
import dev.handoff.encoders.testsupport.ServerCanon.Cell;
import dev.handoff.encoders.testsupport.ServerTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * One table on the real server, rows for it, and the round trip that proves the {@code
 * native} encoder's bytes:
 *
 * <ol>
 *   <li>{@link #create} makes a fresh database and the table {@code t (id UInt32, <columns>)},
 *       reads its schema back from {@code system.columns} (the exact type strings, so 18.16,
 *       which does not convert a Native column of another type and can crash on one, gets
 *       exactly its own types), and a twin table {@code t_rb} of the same structure;
 *   <li>{@link #run} encodes every row with one {@code native} encoder, finishing a
 *       block every {@code rowsPerBlock} rows and sending {@code blocksPerBody} blocks back to
 *       back as one {@code INSERT ... FORMAT Native} body; the same rows go, encoded by the
 *       {@code rowbinary} encoder, into the twin with {@code INSERT ... FORMAT RowBinary};
 *   <li>then {@code SELECT * FROM t ORDER BY id FORMAT RowBinary} must equal, byte for byte, the
 *       rowbinary encoding of the rows (every bit of every value, which the rowbinary encoder's
 *       own server test proves round-trips), and the twin must read back identically.
 * </ol>
 *
 * Only RowBinary is read back, never text: 18.16 cannot print some Decimal128 values and can
 * crash trying.
 */
final class NativeRoundTrip extends ServerTable {
  private final List<Object[]> rows = new ArrayList<>();

  private NativeRoundTrip(ClickHouseServer server, String db) {
    super(server, db);
  }

  static NativeRoundTrip create(ClickHouseServer server, String prefix, String columns) {
    String db = server.uniqueDatabase("native_" + prefix);
    server.execute("CREATE TABLE " + db + ".t (id UInt32, " + columns + ") ENGINE = Memory");
    server.execute("CREATE TABLE " + db + ".t_rb AS " + db + ".t");
    return new NativeRoundTrip(server, db);
  }

  int rowCount() {
    return rows.size();
  }

  /** Adds a row: one value per column after {@code id}; a {@link Cell} stands for its input. */
  NativeRoundTrip row(Object... values) {
    int n = schema.size() - 1;
    if (values.length != n) {
      throw new IllegalArgumentException("test bug: " + values.length + " values for the " + n
          + " columns " + serverNames());
    }
    Object[] row = new Object[n + 1];
    row[0] = (long) rows.size();
    for (int i = 0; i < n; i++) {
      row[i + 1] = values[i] instanceof Cell c ? c.input() : values[i];
    }
    rows.add(row);
    return this;
  }

  record Result(int bodies, int blocks, int rows, int nativeBytes) {}

  /**
   * Encodes, inserts, reads back and compares.
   *
   * @param rowsPerBlock rows per Native block (finishChunk after that many)
   * @param blocksPerBody blocks sent back to back in one INSERT body
   */
  Result run(int rowsPerBlock, int blocksPerBody) {
    RowEncoder<Object[]> encoder = new NativeEncoderProvider()
        .create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer buffer = new ChunkBuffer(64);
    List<Frame> bodies = new ArrayList<>();
    int blocks = 0;
    int inBlock = 0;
    int blocksInBody = 0;
    int nativeBytes = 0;
    for (int r = 0; r < rows.size(); r++) {
      int before = buffer.length();
      try {
        encoder.encode(rows.get(r), buffer);
      } catch (RuntimeException e) {
        throw new AssertionError("row " + r + " " + describe(rows.get(r))
            + ": the native encoder refused it: " + e.getMessage(), e);
      }
      if (buffer.length() != before) {
        throw new AssertionError("row " + r + ": encode wrote into the chunk buffer");
      }
      if (++inBlock == rowsPerBlock || r == rows.size() - 1) {
        int estimate = encoder.bufferedBytes();
        encoder.finishChunk(buffer);
        int written = buffer.length() - before;
        if (Math.abs(estimate - written) > written * 0.01) {
          throw new AssertionError("bufferedBytes() said " + estimate + " before a block of "
              + written + " bytes (" + inBlock + " rows)");
        }
        blocks++;
        inBlock = 0;
        if (++blocksInBody == blocksPerBody || r == rows.size() - 1) {
          nativeBytes += buffer.length();
          bodies.add(buffer.split());
          blocksInBody = 0;
        }
      }
    }
    RowEncoder<Object[]> rowBinary = new RowBinaryEncoderProvider()
        .create(schema, RowAccessors.objectArray(), Map.of());
    ChunkBuffer rb = new ChunkBuffer(64);
    int[] rowStarts = new int[rows.size() + 1];
    for (int r = 0; r < rows.size(); r++) {
      rowStarts[r] = rb.length();
      rowBinary.encode(rows.get(r), rb);
    }
    rowStarts[rows.size()] = rb.length();
    byte[] expected = rb.toByteArray();

    try {
      for (Frame body : bodies) {
        server.query("INSERT INTO " + table + " FORMAT Native", body.toByteArray());
      }
      if (expected.length > 0) {
        server.query("INSERT INTO " + db + ".t_rb FORMAT RowBinary", expected);
      }
      String count = server.query("SELECT count() FROM " + table).strip();
      if (!count.equals(String.valueOf(rows.size()))) {
        throw new AssertionError(table + " has " + count + " rows after " + bodies.size()
            + " Native INSERTs of " + rows.size() + " rows in " + blocks + " blocks");
      }
      byte[] fromNative = server.queryBytes("SELECT * FROM " + table
          + " ORDER BY id FORMAT RowBinary");
      compare("SELECT * FROM " + table + " (inserted in Native) vs the rowbinary encoding of"
          + " the same rows", expected, fromNative, rowStarts);
      byte[] fromRowBinary = server.queryBytes("SELECT * FROM " + db + ".t_rb"
          + " ORDER BY id FORMAT RowBinary");
      compare("the same rows inserted through rowbinary and read back", fromRowBinary,
          fromNative, rowStarts);
    } catch (ClickHouseServerException e) {
      if (server.isRunning()) {
        throw e;
      }
      throw new AssertionError("the ClickHouse server died: " + e.getMessage() + "\n"
          + serverLogs(), e);
    }
    return new Result(bodies.size(), blocks, rows.size(), nativeBytes);
  }

  /** Fails at the first differing byte, naming the row and column it falls in. */
  private void compare(String what, byte[] expected, byte[] actual, int[] rowStarts) {
    if (Arrays.equals(expected, actual)) {
      return;
    }
    int n = Math.min(expected.length, actual.length);
    int at = n;
    for (int i = 0; i < n; i++) {
      if (expected[i] != actual[i]) {
        at = i;
        break;
      }
    }
    int row = 0;
    while (row + 1 < rowStarts.length && rowStarts[row + 1] <= at) {
      row++;
    }
    String where = row < rows.size()
        ? "row " + row + " " + describe(rows.get(row)) + " (row starts at " + rowStarts[row] + ")"
        : "past the last row";
    int from = Math.max(0, at - 8);
    throw new AssertionError(what + ": first difference at offset " + at + " (expected "
        + expected.length + " bytes, got " + actual.length + "), in " + where
        + "\n  schema " + schema.columns()
        + "\n  expected [" + from + "..]: " + hex(expected, from, at + 24)
        + "\n  actual   [" + from + "..]: " + hex(actual, from, at + 24));
  }

  private static String hex(byte[] b, int from, int to) {
    return HexFormat.ofDelimiter(" ").formatHex(b, Math.min(from, b.length),
        Math.min(to, b.length));
  }

  private String describe(Object[] row) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < row.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(schema.column(i).name()).append('=')
          .append(ServerCanon.describe(row[i]));
    }
    String s = sb.append(')').toString();
    return s.length() > 2_000 ? s.substring(0, 2_000) + "..." : s;
  }

}
