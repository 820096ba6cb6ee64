package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.Frame;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * The HTTP side shared by every request of one {@code ClickHouseHttp}: one {@link HttpClient}
 * (HTTP/1.1, keep-alive connection pool), the URL with the query and settings, the credential
 * headers and the body, compressed or streamed from the frames as they are.
 */
public final class HttpTransport {
  private final ClickHouseHttpOptions options;
  private final HttpClient client;
  private final String base;

  /** Creates the transport and its client. */
  public HttpTransport(ClickHouseHttpOptions options) {
    this.options = options;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(options.connectTimeout())
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    String url = options.url().toString();
    while (url.endsWith("/")) {
      url = url.substring(0, url.length() - 1);
    }
    StringBuilder sb = new StringBuilder(url).append("/?database=")
        .append(encode(options.database()));
    for (Map.Entry<String, String> e : options.settings().entrySet()) {
      sb.append('&').append(e.getKey()).append('=').append(encode(e.getValue()));
    }
    this.base = sb.toString();
  }

  /** Returns the options. */
  public ClickHouseHttpOptions options() {
    return options;
  }

  /**
   * Sends {@code sql} (a statement with a result, or none) as the POST body and returns the
   * response; the server buffers the result ({@code wait_end_of_query=1}) so an error mid-way is
   * an error status.
   */
  public HttpResponse<byte[]> query(String sql) throws IOException, InterruptedException {
    HttpRequest request = request(base + "&wait_end_of_query=1")
        .POST(HttpRequest.BodyPublishers.ofString(sql, UTF_8))
        .build();
    return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  /**
   * Sends {@code sql} (an {@code INSERT ... FORMAT X}) in the URL and the frames, concatenated,
   * as the body: streamed from the frames without a copy, or gzip-compressed when the options
   * ask for it.
   */
  public HttpResponse<byte[]> insert(String sql, List<Frame> frames, long bytes)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = request(base + "&query=" + encode(sql));
    if (options.compression() == ClickHouseHttpOptions.Compression.GZIP) {
      b.header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofByteArray(
          gzip(frames, bytes)));
    } else if (bytes == 0) {
      b.POST(HttpRequest.BodyPublishers.noBody());
    } else {
      b.POST(HttpRequest.BodyPublishers.fromPublisher(new FramesPublisher(frames), bytes));
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpRequest.Builder request(String uri) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri))
        .timeout(options.requestTimeout())
        .header("Content-Type", "application/octet-stream");
    if (options.user() != null) {
      b.header("X-ClickHouse-User", options.user());
    }
    if (options.password() != null) {
      b.header("X-ClickHouse-Key", options.password());
    }
    return b;
  }

  private static byte[] gzip(List<Frame> frames, long bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(1 << 20, bytes / 4 + 64));
    try (GZIPOutputStream gz = new FastGzip(out)) {
      for (Frame f : frames) {
        f.writeTo(gz);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not fail
    }
    return out.toByteArray();
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, UTF_8);
  }

  /** gzip at the fastest level: the point is fewer bytes on the wire at little CPU. */
  private static final class FastGzip extends GZIPOutputStream {
    FastGzip(ByteArrayOutputStream out) throws IOException {
      super(out, 64 * 1024);
      def.setLevel(Deflater.BEST_SPEED);
    }
  }
}
