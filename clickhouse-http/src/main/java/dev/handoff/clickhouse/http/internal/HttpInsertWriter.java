package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.http.ServerError;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link InsertWriter} over HTTP: one {@code INSERT INTO db.table (columns) FORMAT X} per
 * insert, the frames streamed as the body, every failure classified. Stateless apart from the
 * shared transport, so any number of shard threads may call it at once.
 *
 * <p>{@link #close()} marks the writer closed (the transport belongs to the {@code
 * ClickHouseHttp} that made it and stays open); a later {@link #write} throws {@link
 * IllegalStateException} and sends nothing.
 */
public final class HttpInsertWriter implements InsertWriter {
  private static final int MAX_BODY_IN_MESSAGE = 2048;

  private final HttpTransport transport;
  private final String sql;
  private final String target;
  private final boolean nativeFormat;
  private final List<ClickHouseType> types;
  private volatile boolean closed;

  /**
   * Creates a writer.
   *
   * @param transport the shared transport
   * @param database the database
   * @param table the table
   * @param columns the columns the frames hold, in order
   * @param types the columns' types (for splitting RowBinary frames)
   * @param format {@code Native} or {@code RowBinary}
   */
  public HttpInsertWriter(HttpTransport transport, String database, String table,
      List<String> columns, List<ClickHouseType> types, String format) {
    this.transport = transport;
    this.sql = Sql.insert(database, table, columns, format);
    this.target = database + "." + table;
    this.nativeFormat = Sql.format(format).equals("Native");
    this.types = List.copyOf(types);
  }

  /** Returns the statement this writer sends in the URL. */
  public String statement() {
    return sql;
  }

  /** Returns the transport (the server this writer sends to). */
  public HttpTransport transport() {
    return transport;
  }

  @Override
  public void write(Insert insert) throws WriteException {
    send(insert, Map.of(), new HttpTransport.BodyProgress());
  }

  /**
   * Sends {@code insert} with {@code parameters} added to the URL (a {@code query_id}, an {@code
   * insert_deduplication_token}); {@code progress} tells afterwards how far the request got.
   *
   * @throws WriteException as {@link #write}
   */
  public void send(Insert insert, Map<String, String> parameters,
      HttpTransport.BodyProgress progress) throws WriteException {
    if (closed) {
      throw new IllegalStateException("the writer into " + target + " is closed; " + insert
          + " was not sent");
    }
    Http1Client.Response response;
    try {
      response = transport.insert(sql, parameters, insert.frames(), insert.bytes(), progress);
    } catch (HttpTransport.CompressionFailure e) {
      // Nothing was sent; a codec failing on good bytes is the machine's trouble (memory, the
      // native library), not the rows', so it is retried like a connection failure.
      throw failure(insert, e.getMessage(), e);
    } catch (HttpConnectTimeoutException e) {
      throw failure(insert, "connect timed out after " + transport.options().connectTimeout(), e);
    } catch (HttpTimeoutException e) {
      throw failure(insert, "no answer within " + transport.options().requestTimeout(), e);
    } catch (ConnectException e) {
      throw failure(insert, "cannot connect to " + transport.options().url() + ": "
          + describe(e), e);
    } catch (IOException e) {
      throw failure(insert, "connection failed: " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure(insert, "interrupted while waiting for the server", e);
    }
    progress.markAnswered();
    int status = response.statusCode();
    String body = new String(response.body(), UTF_8);
    if (status == 200) {
      // An insert answers with an empty body; an error after the status line was sent is
      // appended to the body instead.
      if (body.isEmpty() || !body.contains("Code: ")) {
        return;
      }
    }
    Optional<ServerError> error = ServerError.parse(body);
    int code = error.map(ServerError::code).orElse(-1);
    boolean retry = ErrorCodes.isTransient(status == 200 ? 500 : status, Math.max(code, 0));
    String what = error.map(ServerError::toString).orElseGet(() -> shorten(body));
    throw new WriteException(retry ? WriteException.Kind.TRANSIENT : WriteException.Kind.PERMANENT,
        code, prefix(insert) + "HTTP " + status + ": " + what, null);
  }

  @Override
  public Optional<List<Frame>> split(Frame frame) {
    List<Frame> parts = nativeFormat ? NativeSplitter.split(frame) : RowBinarySplitter.split(
        frame, types);
    return parts == null || parts.size() < 2 ? Optional.empty() : Optional.of(parts);
  }

  /** Marks the writer closed: later writes throw. Idempotent. */
  @Override
  public void close() {
    closed = true;
  }

  private WriteException failure(Insert insert, String what, Throwable cause) {
    return new WriteException(WriteException.Kind.TRANSIENT, -1, prefix(insert) + what, cause);
  }

  private String prefix(Insert insert) {
    return "insert into " + target + " at " + transport.options().url() + " (shard " + insert.shard() + ", " + insert.rows()
        + " rows, " + insert.bytes() + " bytes, attempt " + insert.attempt() + ") failed: ";
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null || m.isEmpty() ? "" : " (" + m + ")");
  }

  private static String shorten(String body) {
    String b = body.strip();
    if (b.isEmpty()) {
      return "(empty body)";
    }
    return b.length() <= MAX_BODY_IN_MESSAGE ? b : b.substring(0, MAX_BODY_IN_MESSAGE) + "...";
  }
}
