package dev.handoff.encoders.rowbinary;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ErrorClass;
import dev.handoff.api.Frame;
import dev.handoff.api.HandoffException;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.clickhouse.testserver.ClickHouseServerException;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import dev.handoff.encoders.testsupport.ServerCanon;
import dev.handoff.encoders.testsupport.ServerCanon.Cell;
import dev.handoff.encoders.testsupport.ServerTable;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One table on the real server, rows for it, and the round trip that proves them: encode with the
 * {@code rowbinary} encoder, {@code INSERT ... FORMAT RowBinary} frame by frame, then read the
 * table back twice and compare.
 *
 * <ol>
 *   <li>{@link #create} makes a fresh database and the table {@code t (id UInt32, <columns>)},
 *       and reads its schema back from {@code system.columns}: the exact type strings the server
 *       prints (Nested and top-level Array(Tuple) columns appear split, as 18.16 stores them).
 *       The encoder is built from that schema.
 *   <li>{@link #row} adds a row by the server's columns after {@code id} (which the round trip
 *       numbers itself); a {@link Cell} gives an input and a different canonical expected value.
 *       {@link #rejectedRow} adds one the encoder must refuse with a {@code DATA} error.
 *   <li>{@link #run} encodes every row into one {@link ChunkBuffer} (rolled back to the row's
 *       start after a refused row, as the stage does), splits a frame every {@code rowsPerFrame}
 *       rows and sends each frame as its own INSERT; then checks
 *       <ul>
 *         <li>{@code count()};
 *         <li>the values: {@code SELECT ... ORDER BY id FORMAT TabSeparated}, parsed by {@link
 *             ServerTsv}, equals the expected value of every cell (the server's own reading of our
 *             bytes). Decimal128 columns, which 18.16 cannot print, are compared instead with the
 *             same values parsed by the server from text ({@link #checkWideDecimals});
 *         <li>the bytes: {@code SELECT * ... ORDER BY id FORMAT RowBinary} returns exactly the
 *             bytes sent (every bit: NaN payloads, FixedString padding, values 18.16 cannot
 *             print).
 *       </ul>
 * </ol>
 *
 * <p>Failures name the row, the column and its type, the input (with its Java class), the
 * expected value and what the server shows.
 */
final class ServerRoundTrip extends ServerTable {
  /** Mismatching cells listed in a failure; the count says how many there were. */
  private static final int MAX_REPORTED = 25;

  private final RowEncoder<Object[]> encoder;
  private final List<Object[]> inputs = new ArrayList<>();
  private final List<Object[]> expected = new ArrayList<>();
  /** Per row (null for a rejected row): the reason fragment the encoder must give. */
  private final List<String> rejections = new ArrayList<>();
  private int rowsPerFrame = -1;
  private boolean checkText = true;

  private ServerRoundTrip(ClickHouseServer server, String db) {
    super(server, db);
    this.encoder =
        new RowBinaryEncoderProvider().create(schema, RowAccessors.objectArray(), Map.of());
  }

  /**
   * Creates {@code <fresh db>.t (id UInt32, <columns>) ENGINE = <engine>} and reads its schema.
   *
   * @param columns column definitions as in CREATE TABLE, e.g. {@code "a UInt8, b String"}
   */
  static ServerRoundTrip create(ClickHouseServer server, String prefix, String columns,
      String engine) {
    String db = server.uniqueDatabase("rowbinary_" + prefix);
    String table = db + ".t";
    server.execute("CREATE TABLE " + table + " (id UInt32, " + columns + ") ENGINE = " + engine);
    return new ServerRoundTrip(server, db);
  }

  static ServerRoundTrip create(ClickHouseServer server, String prefix, String columns) {
    return create(server, prefix, columns, "Memory");
  }

  /** Sends a frame (one INSERT) after every {@code n} rows instead of three frames in all. */
  ServerRoundTrip rowsPerFrame(int n) {
    this.rowsPerFrame = n;
    return this;
  }

  /**
   * Skips the TabSeparated comparison, for values 18.16 stores but cannot print (dates after
   * 2105); the byte comparison still runs.
   */
  ServerRoundTrip withoutTextCheck() {
    this.checkText = false;
    return this;
  }

  /** Adds a row: one value per column after {@code id}, a {@link Cell} where they differ. */
  ServerRoundTrip row(Object... values) {
    return add(values, null);
  }

  private ServerRoundTrip add(Object[] values, String rejection) {
    int n = schema.size() - 1;
    if (values.length != n) {
      throw new IllegalArgumentException("test bug: " + values.length + " values for the " + n
          + " columns " + serverNames());
    }
    Object[] in = new Object[n + 1];
    Object[] exp = new Object[n + 1];
    in[0] = inputs.size();
    exp[0] = ServerCanon.expected(types.get(0), (long) inputs.size());
    for (int i = 0; i < n; i++) {
      Object v = values[i];
      Object e = v;
      if (v instanceof Cell c) {
        v = c.input();
        e = c.expected();
      }
      in[i + 1] = v;
      if (rejection != null) {
        continue; // the encoder refuses the row: nothing to expect of it
      }
      try {
        exp[i + 1] = ServerCanon.expected(types.get(i + 1), e);
      } catch (RuntimeException ex) {
        throw new IllegalArgumentException("row " + inputs.size() + ", column "
            + schema.column(i + 1).name() + ": " + ex.getMessage(), ex);
      }
    }
    inputs.add(in);
    expected.add(exp);
    rejections.add(rejection);
    return this;
  }

  /**
   * Adds a row the encoder must refuse with a {@code DATA} error whose message contains {@code
   * reason}; the round trip rolls the buffer back to the row's start, as the stage does, and the
   * row must leave no trace in the table.
   */
  ServerRoundTrip rejectedRow(String reason, Object... values) {
    return add(values, Objects.requireNonNull(reason));
  }

  /** Rows accepted so far. */
  int rowCount() {
    return (int) rejections.stream().filter(Objects::isNull).count();
  }

  /** What {@link #run} did: the bytes sent and the number of INSERTs. */
  record Result(byte[] sent, int inserts, int rows) {}

  /** Encodes, inserts, reads back and compares; throws an AssertionError describing the failure. */
  Result run() {
    int total = inputs.size();
    int perFrame = rowsPerFrame > 0 ? rowsPerFrame : Math.max(1, (rowCount() + 2) / 3);
    ChunkBuffer buffer = new ChunkBuffer(64); // small: the buffer grows while rows are written
    List<Frame> frames = new ArrayList<>();
    List<Integer> rowStarts = new ArrayList<>(); // offset of each accepted row in all bytes sent
    List<Integer> accepted = new ArrayList<>(); // the index in inputs of each accepted row
    int sentBefore = 0;
    int inFrame = 0;
    for (int r = 0; r < total; r++) {
      Object[] row = inputs.get(r);
      int start = buffer.length();
      String reason = rejections.get(r);
      try {
        encoder.encode(row, buffer);
      } catch (HandoffException e) {
        if (reason == null) {
          throw new AssertionError("row " + r + " " + describeRow(row) + ": the encoder refused it: "
              + e.getMessage(), e);
        }
        if (e.errorClass() != ErrorClass.DATA || !e.getMessage().contains(reason)) {
          throw new AssertionError("row " + r + ": expected a DATA error containing [" + reason
              + "], got " + e.errorClass() + ": " + e.getMessage(), e);
        }
        buffer.truncate(start); // what the stage does
        continue;
      }
      if (reason != null) {
        throw new AssertionError("row " + r + " " + describeRow(row)
            + ": the encoder accepted it, expected a DATA error containing [" + reason + "]");
      }
      rowStarts.add(sentBefore + start);
      accepted.add(r);
      if (++inFrame == perFrame) {
        sentBefore += buffer.length();
        frames.add(buffer.split());
        inFrame = 0;
      }
    }
    if (buffer.length() > 0) {
      frames.add(buffer.split());
    }

    try {
      return insertAndCheck(frames, rowStarts, accepted);
    } catch (ClickHouseServerException e) {
      if (server.isRunning()) {
        throw e;
      }
      throw new AssertionError("the ClickHouse server died: " + e.getMessage() + "\n"
          + serverLogs(), e);
    }
  }

  private Result insertAndCheck(List<Frame> frames, List<Integer> rowStarts,
      List<Integer> accepted) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Frame f : frames) {
      byte[] body = f.toByteArray();
      server.query("INSERT INTO " + table + " FORMAT RowBinary", body);
      all.writeBytes(body);
    }
    byte[] sent = all.toByteArray();

    String count = server.query("SELECT count() FROM " + table).strip();
    if (!count.equals(String.valueOf(accepted.size()))) {
      throw new AssertionError(table + " has " + count + " rows after " + frames.size()
          + " INSERTs of " + accepted.size() + " rows");
    }
    if (checkText) {
      checkValues(accepted);
    }
    checkBytes(sent, rowStarts, accepted);
    return new Result(sent, frames.size(), accepted.size());
  }

  /**
   * The server's text rendering of every cell equals the value meant: {@code SELECT ... ORDER BY
   * id FORMAT TabSeparated}, parsed by {@link ServerTsv}; columns holding a Decimal128 are
   * checked by {@link #checkWideDecimals} instead.
   */
  private void checkValues(List<Integer> accepted) {
    List<Integer> columns = new ArrayList<>();
    List<Integer> wide = new ArrayList<>();
    for (int c = 0; c < schema.size(); c++) {
      (ServerTsv.hasWideDecimal(types.get(c)) ? wide : columns).add(c);
    }
    if (!wide.isEmpty()) {
      checkWideDecimals(wide, accepted);
    }
    byte[] text = server.queryBytes("SELECT " + String.join(", ", columns.stream()
        .map(c -> "`" + schema.column(c).name() + "`").toList()) + " FROM " + table
        + " ORDER BY id FORMAT TabSeparated");
    List<ServerTsv.Row> rows =
        ServerTsv.parse(text, columns.stream().map(types::get).toList());
    if (rows.size() != accepted.size()) {
      throw new AssertionError("TabSeparated re-select of " + table + " has " + rows.size()
          + " rows, expected " + accepted.size());
    }
    List<String> problems = new ArrayList<>();
    int mismatches = 0;
    for (int i = 0; i < rows.size(); i++) {
      int r = accepted.get(i);
      Object[] exp = expected.get(r);
      ServerTsv.Row got = rows.get(i);
      for (int k = 0; k < columns.size(); k++) {
        int c = columns.get(k);
        if (!Objects.equals(exp[c], got.values().get(k)) && ++mismatches <= MAX_REPORTED) {
          problems.add("row " + r + ", column " + schema.column(c).name() + " ("
              + schema.column(c).type() + "): sent " + ServerCanon.describe(inputs.get(r)[c])
              + ", expected " + exp[c] + ", the server shows "
              + got.text(k) + " = " + got.values().get(k));
        }
      }
    }
    if (mismatches > 0) {
      throw new AssertionError(mismatches + " cell(s) of " + table + " differ from the values"
          + " sent (schema " + schema.columns() + "):\n  " + String.join("\n  ", problems));
    }
  }

  /**
   * Checks columns holding a Decimal with P &gt; 18 (Decimal128) without the server printing
   * them: the expected values go, as text, into a twin table with the same column types, and
   * the server's binary form of what it parsed must equal the bytes of what it read from ours.
   *
   * <p>18.16 cannot print a Decimal128 whose integer part has 22 or more digits: it writes NUL
   * bytes for some of the digits ({@code toString(toDecimal128('1' || 21 zeros, 0))} is {@code
   * 1\0 000...}), and streaming such values into a response ({@code FORMAT TabSeparated},
   * {@code Values}, {@code JSONEachRow}) overruns its output buffer: {@code SELECT
   * toDecimal128('9999...9', 0) FROM system.numbers LIMIT 200000 FORMAT TabSeparated} segfaults
   * the server, and smaller outputs corrupt other columns ({@code Unexpected value 97 for type
   * Enum8(...)}). Its Decimal128 text parser is right (checked against the two's-complement
   * bytes of 38-digit values).
   */
  private void checkWideDecimals(List<Integer> wide, List<Integer> accepted) {
    String twin = table + "_expected";
    List<String> names = wide.stream().map(c -> "`" + schema.column(c).name() + "`").toList();
    List<String> defs = new ArrayList<>();
    for (int k = 0; k < wide.size(); k++) {
      defs.add(names.get(k) + " " + schema.column(wide.get(k)).type());
    }
    server.execute("CREATE TABLE " + twin + " (id UInt32, " + String.join(", ", defs)
        + ") ENGINE = Memory");
    StringBuilder tsv = new StringBuilder();
    for (int r : accepted) {
      Object[] exp = expected.get(r);
      tsv.append(r);
      for (int c : wide) {
        tsv.append('\t').append(ServerTsv.render(types.get(c), exp[c], true));
      }
      tsv.append('\n');
    }
    server.query("INSERT INTO " + twin + " FORMAT TabSeparated", tsv.toString().getBytes(UTF_8));
    String select = String.join(", ", names);
    byte[] ours = server.queryBytes("SELECT id, " + select + " FROM " + table
        + " ORDER BY id FORMAT RowBinary");
    byte[] theirs = server.queryBytes("SELECT id, " + select + " FROM " + twin
        + " ORDER BY id FORMAT RowBinary");
    if (Arrays.equals(ours, theirs)) {
      return;
    }
    List<String> problems = new ArrayList<>();
    for (int k = 0; k < wide.size(); k++) {
      String name = names.get(k);
      int c = wide.get(k);
      TypeKind kind = types.get(c).kind();
      // A scalar's approximate value is printable; 18.16 prints no Decimal128 exactly.
      String approx = kind == TypeKind.DECIMAL ? "toFloat64(" + name + ")"
          : kind == TypeKind.NULLABLE ? "toFloat64(assumeNotNull(" + name + "))" : "0";
      String found = server.query("SELECT id, " + approx + " FROM " + table
          + " ANY INNER JOIN (SELECT id, " + name + " AS expected_value FROM " + twin
          + ") USING id WHERE NOT (" + name + " = expected_value) ORDER BY id LIMIT "
          + MAX_REPORTED + " FORMAT TabSeparated");
      for (String line : found.lines().toList()) {
        String[] f = line.split("\t");
        int r = Integer.parseInt(f[0]);
        problems.add("row " + r + ", column " + schema.column(c).name() + " ("
            + schema.column(c).type() + "): sent " + ServerCanon.describe(inputs.get(r)[c])
            + ", expected " + expected.get(r)[c] + ", the server holds another value"
            + (approx.equals("0") ? "" : " (about " + f[1] + ")"));
      }
    }
    throw new AssertionError("the Decimal128 columns " + names + " of " + table + " hold other"
        + " values than the same values parsed by the server from text:\n  "
        + String.join("\n  ", problems));
  }

  /** {@code SELECT * ... FORMAT RowBinary} returns exactly the bytes sent. */
  private void checkBytes(byte[] sent, List<Integer> rowStarts, List<Integer> accepted) {
    byte[] back = server.queryBytes("SELECT * FROM " + table + " ORDER BY id FORMAT RowBinary");
    int diff = Arrays.mismatch(sent, back);
    if (diff < 0) {
      return;
    }
    int row = 0;
    while (row + 1 < rowStarts.size() && rowStarts.get(row + 1) <= diff) {
      row++;
    }
    int from = rowStarts.isEmpty() ? 0 : rowStarts.get(row);
    int to = row + 1 < rowStarts.size() ? rowStarts.get(row + 1) : sent.length;
    throw new AssertionError("the RowBinary re-select of " + table + " (" + back.length
        + " bytes) differs from the " + sent.length + " bytes sent, first at offset " + diff
        + ", in row " + accepted.get(row) + " " + describeRow(inputs.get(accepted.get(row)))
        + "\n  sent:     " + hex(sent, from, Math.min(to, from + 200))
        + "\n  received: " + hex(back, from, Math.min(back.length, from + 200)));
  }

  private String describeRow(Object[] row) {
    List<String> cells = new ArrayList<>();
    for (int c = 0; c < row.length; c++) {
      cells.add(schema.column(c).name() + "=" + ServerCanon.describe(row[c]));
    }
    return cells.toString();
  }

  private static String hex(byte[] b, int from, int to) {
    return from >= to ? "(nothing)" : HexFormat.ofDelimiter(" ").formatHex(b, from, to);
  }
}
