package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * One server's HTTP client: sends SQL and INSERT bodies with {@code wait_end_of_query=1} and turns
 * any status but 200 into a {@link ClickHouseServerException}; also asks whether the server
 * answers at all ({@code /ping} and its token).
 */
final class QueryClient {
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
  static final Duration PING_TIMEOUT = Duration.ofSeconds(2);
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final BooleanSupplier serverRunning;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(CONNECT_TIMEOUT)
          .build();

  private volatile String httpUrl;
  private volatile URI base;

  /** A client whose error messages say whether {@code serverRunning} holds. */
  QueryClient(BooleanSupplier serverRunning) {
    this.serverRunning = serverRunning;
  }

  /** Sends the following requests to {@code httpUrl} (without a trailing slash). */
  void target(String httpUrl) {
    this.httpUrl = httpUrl;
    base = URI.create(httpUrl + "/");
  }

  /** {@code http://127.0.0.1:<httpPort>/}, with the trailing slash. */
  URI base() {
    return base;
  }

  /** POSTs {@code sql} as the body and returns the response body. */
  byte[] query(String sql) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri("")).POST(HttpRequest.BodyPublishers.ofString(sql, UTF_8));
    return send(sql, request);
  }

  /** Puts {@code sql} in the URL, POSTs {@code body} and returns the response body. */
  byte[] query(String sql, byte[] body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri("&query=" + urlEncode(sql)))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    return send(sql, request);
  }

  /**
   * {@code /ping} answers {@code Ok.}, and {@code GET /} answers this server's token: another
   * server that grabbed the port between picking and binding answers the ping too, but not with
   * our token (ours then fails to bind, exits, and the port clash is retried).
   */
  boolean answers(String token) {
    try {
      HttpResponse<String> ping =
          http.send(
              HttpRequest.newBuilder(base.resolve("ping")).timeout(PING_TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      if (ping.statusCode() != 200 || !ping.body().strip().equals("Ok.")) {
        return false;
      }
      HttpResponse<String> root =
          http.send(
              HttpRequest.newBuilder(base).timeout(PING_TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      return root.statusCode() == 200 && root.body().strip().equals(token);
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Sends {@code request}, once more on a new connection if the first attempt read not a byte of
   * an answer from a server that is still running: the server closes a connection idle for its
   * {@code keep_alive_timeout} (3 s, kept as packaged), and a request sent on such a connection
   * as it closes gets end of stream before the server read any of it. The bodies are byte
   * arrays and strings, which the client can send again.
   */
  private HttpResponse<byte[]> sendAgainIfClosed(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    HttpRequest r = request.timeout(REQUEST_TIMEOUT).build();
    try {
      return http.send(r, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      if (!serverRunning.getAsBoolean() || !closedUnanswered(e)) {
        throw e;
      }
      return http.send(r, HttpResponse.BodyHandlers.ofByteArray());
    }
  }

  /** Whether {@code e} is the end of stream before the first byte of the answer's header. */
  private static boolean closedUnanswered(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.io.EOFException
          || (t.getMessage() != null && t.getMessage().contains("received no bytes"))) {
        return true;
      }
    }
    return false;
  }

  private byte[] send(String sql, HttpRequest.Builder request) {
    HttpResponse<byte[]> response;
    try {
      response = sendAgainIfClosed(request);
    } catch (IOException e) {
      throw new ClickHouseServerException(
          "no answer from ClickHouse at " + httpUrl
              + (serverRunning.getAsBoolean() ? "" : " (the server is not running)")
              + " for [" + sql + "]: " + e,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClickHouseServerException("interrupted while waiting for ClickHouse", e);
    }
    if (response.statusCode() != 200) {
      throw new ClickHouseServerException(
          response.statusCode(), new String(response.body(), UTF_8), sql);
    }
    return response.body();
  }

  private URI uri(String extraParameters) {
    return base.resolve("?wait_end_of_query=1" + extraParameters);
  }

  private static String urlEncode(String text) {
    return URLEncoder.encode(text, UTF_8).replace("+", "%20");
  }
}
