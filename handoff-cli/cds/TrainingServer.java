import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;

/**
 * The server of the launcher's class-data training run (see ../../handoff, "Class-data sharing"):
 * it answers an ingest's requests as a ClickHouse server would, just enough for the run to take
 * every step of a real one (the table's columns, the server's time zone, an insert that
 * succeeds), so that the archive holds the classes of the HTTP client's whole exchange. Not part
 * of the jar; the launcher runs it as a source file ({@code java TrainingServer.java}) on a free
 * loopback port, which it prints, and stops it after the run.
 */
public final class TrainingServer {
  private TrainingServer() {}

  /** The training table's columns: name, type and default kind, as system.columns gives them. */
  private static final String[][] COLUMNS = {{"id", "UInt64", ""}, {"ts", "DateTime", ""},
      {"name", "String", ""}, {"x", "Float64", ""}, {"flag", "UInt8", ""},
      {"d", "Decimal(18, 2)", ""}};

  /** Starts the server and prints its port. */
  public static void main(String[] args) throws IOException {
    HttpServer server = HttpServer.create(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", TrainingServer::answer);
    server.start();
    System.out.println(server.getAddress().getPort());
    System.out.flush();
  }

  private static void answer(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String sql = (query == null ? "" : URLDecoder.decode(query, UTF_8)) + " "
        + new String(exchange.getRequestBody().readAllBytes(), UTF_8);
    byte[] body;
    if (sql.contains("FROM system.columns") && sql.contains("FORMAT RowBinary")) {
      body = columns();
    } else if (sql.contains("timezone()")) {
      body = "UTC\n".getBytes(UTF_8);
    } else if (sql.contains("count()")) {
      body = "0\n".getBytes(UTF_8);
    } else {
      body = new byte[0]; // an insert, or anything else: done
    }
    exchange.getResponseHeaders().set("X-ClickHouse-Timezone", "UTC");
    exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** The columns as RowBinary strings: each a varint length and its UTF-8 bytes. */
  private static byte[] columns() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String[] column : COLUMNS) {
      for (String s : column) {
        byte[] b = s.getBytes(UTF_8);
        out.write(b.length); // every string here is shorter than 128 bytes: one varint byte
        out.write(b, 0, b.length);
      }
    }
    return out.toByteArray();
  }
}
