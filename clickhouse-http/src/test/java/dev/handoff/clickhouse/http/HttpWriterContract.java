package dev.handoff.clickhouse.http;

import dev.handoff.api.Frame;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import dev.handoff.tck.InsertWriterContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The TCK's InsertWriterContract for the HTTP writer of one format, against a real ClickHouse
 * 18.16 server: the table rejects the row with {@code id = 666} (see {@link Rejections}, code
 * 395), the dead endpoint is a loopback port where nothing listens, and the rows of a frame are
 * read back by inserting it into a scratch {@code Memory} table through the test server's own
 * client (not the writer under test).
 */
abstract class HttpWriterContract extends InsertWriterContract {
  static final ClickHouseServer server = ClickHouseServer.shared();
  static final ClickHouseHttp http = ClickHouseHttp.create(
      ClickHouseHttpOptions.builder().url(server.httpUrl()).build());
  private static final String COLUMNS =
      "id UInt64, s String, a Nullable(String), tags Array(String)";
  private static final long REJECTED_ID = 666;

  private final String format;
  private final String db;
  private final TableSchema schema;
  private final int deadPort = deadPort();
  private final AtomicInteger scratch = new AtomicInteger();

  HttpWriterContract(String format) {
    this.format = format;
    this.db = server.uniqueDatabase("tck_" + format.toLowerCase());
    Rejections.createTable(server, db, "t", COLUMNS, REJECTED_ID);
    this.schema = http.schema(db, "t");
  }

  /** Row {@code id}: some nulls, an empty and a non-empty array. */
  private static Object[] row(long id) {
    return new Object[] {id, "s" + id, id % 2 == 0 ? null : "a" + id,
        id % 3 == 0 ? List.of() : List.of("x" + id, "y")};
  }

  @Override
  protected InsertWriter newWriter() {
    return http.writer(db, "t", schema, format);
  }

  @Override
  protected InsertWriter unreachableWriter() {
    return ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url("http://127.0.0.1:" + deadPort).build()).writer(db, "t", schema, format);
  }

  @Override
  protected String unreachableCause() {
    return "cannot connect to http://127.0.0.1:" + deadPort;
  }

  @Override
  protected Insert goodInsert() {
    return insertOf(3, frameOf(3));
  }

  @Override
  protected Insert rejectedInsert() {
    List<Object[]> rows = new ArrayList<>(List.of(row(1), row(REJECTED_ID), row(2)));
    return insertOf(3, Encoded.frame(format, schema, rows));
  }

  @Override
  protected String rejectionCause() {
    return "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO";
  }

  @Override
  protected Frame frameOf(int rows) {
    List<Object[]> out = new ArrayList<>();
    for (long id = 0; id < rows; id++) {
      out.add(row(id));
    }
    return Encoded.frame(format, schema, out);
  }

  /** Inserts the frame into a new Memory table with the server's client and reads it back. */
  @Override
  protected List<?> rowsOf(Frame frame) {
    String table = db + ".scratch_" + scratch.incrementAndGet();
    server.execute("CREATE TABLE " + table + " (" + COLUMNS + ") ENGINE = Memory");
    server.query("INSERT INTO " + table + " FORMAT " + format, frame.toByteArray());
    String tsv = server.query("SELECT * FROM " + table + " FORMAT TabSeparated");
    return tsv.isEmpty() ? List.of() : List.of(tsv.split("\n"));
  }

  /** A loopback port where nothing listens (bound once to find it, then closed). */
  private static int deadPort() {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
