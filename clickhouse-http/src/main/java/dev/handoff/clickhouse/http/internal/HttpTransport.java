package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.Frame;
import dev.handoff.api.HandoffClock;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The HTTP side shared by every request of one {@code ClickHouseHttp}: one {@link Http1Client}
 * (HTTP/1.1, keep-alive connection pool), the URL with the query and settings, the credential
 * headers and the body, written from the frames as they are or compressed (gzip, or ClickHouse's
 * compressed blocks with LZ4 or ZSTD) into a list of buffers.
 */
public final class HttpTransport {
  private final ClickHouseHttpOptions options;
  private final Http1Client client;
  private final String base;
  private final List<String> headers;

  /** Creates the transport and its client. */
  public HttpTransport(ClickHouseHttpOptions options) {
    this(options, newClient(options));
  }

  /**
   * Creates a transport to the server of {@code options} over {@code client}, so that the
   * transports of several servers (the replicas of a cluster) share one client and its threads.
   */
  public HttpTransport(ClickHouseHttpOptions options, Http1Client client) {
    this.options = options;
    this.client = client;
    List<String> h = new ArrayList<>(List.of("Content-Type", "application/octet-stream"));
    if (options.user() != null) {
      h.add("X-ClickHouse-User");
      h.add(options.user());
    }
    if (options.password() != null) {
      h.add("X-ClickHouse-Key");
      h.add(options.password());
    }
    this.headers = List.copyOf(h);
    Http1Client.checkHeaders(headers); // a bad user or password fails here, not at each insert
    if (options.compression() == ClickHouseHttpOptions.Compression.ZSTD) {
      // zstd-jni loads its native library on first use: fail here, not at the first insert.
      try {
        BlockCodec.zstd(options.zstdLevel()).close();
      } catch (LinkageError | RuntimeException e) {
        throw new IllegalStateException("ZSTD compression needs zstd-jni's native library,"
            + " which does not load on this machine (" + e + "); use LZ4, GZIP or NONE", e);
      }
    }
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

  /** Returns the client, to share with transports to other servers of the same options. */
  public Http1Client client() {
    return client;
  }

  /** Returns a client with the options' connect timeout. */
  public static Http1Client newClient(ClickHouseHttpOptions options) {
    return new Http1Client(options.connectTimeout(), HandoffClock.system());
  }

  /** Closes the client's idle connections (shared clients: those of every transport). */
  public void close() {
    client.close();
  }

  /**
   * Sends {@code sql} (a statement with a result, or none) as the POST body and returns the
   * response; the server buffers the result ({@code wait_end_of_query=1}) so an error mid-way is
   * an error status.
   */
  public Http1Client.Response query(String sql) throws IOException, InterruptedException {
    return client.post(URI.create(base + "&wait_end_of_query=1"), headers,
        Bodies.ofBytes(sql.getBytes(UTF_8)), options.requestTimeout(), () -> { });
  }

  /**
   * Sends {@code sql} (an {@code INSERT ... FORMAT X}) in the URL and the frames, concatenated,
   * as the body: streamed from the frames without a copy, or compressed as the options ask.
   *
   * @throws CompressionFailure if the codec fails on the body
   */
  public Http1Client.Response insert(String sql, List<Frame> frames, long bytes)
      throws IOException, InterruptedException {
    return insert(sql, Map.of(), frames, bytes, new BodyProgress());
  }

  /**
   * As {@link #insert(String, List, long)}, with {@code parameters} added to the URL (names are
   * plain identifiers, values are encoded here), and {@code progress} marked once the whole body
   * was handed to the client: from then on a lost answer leaves the outcome unknown.
   *
   * @throws CompressionFailure if the codec fails on the body (nothing was sent)
   */
  public Http1Client.Response insert(String sql, Map<String, String> parameters,
      List<Frame> frames, long bytes, BodyProgress progress)
      throws IOException, InterruptedException {
    StringBuilder uri = new StringBuilder(base);
    for (Map.Entry<String, String> e : parameters.entrySet()) {
      uri.append('&').append(e.getKey()).append('=').append(encode(e.getValue()));
    }
    ClickHouseHttpOptions.Compression compression = options.compression();
    boolean blocks = compression == ClickHouseHttpOptions.Compression.LZ4
        || compression == ClickHouseHttpOptions.Compression.ZSTD;
    if (blocks) {
      uri.append("&decompress=1");
    }
    uri.append("&query=").append(encode(sql));
    List<String> h = headers;
    Http1Client.Body body;
    if (compression == ClickHouseHttpOptions.Compression.NONE) {
      body = Bodies.ofFrames(frames, bytes);
    } else {
      if (compression == ClickHouseHttpOptions.Compression.GZIP) {
        h = new ArrayList<>(headers);
        h.add("Content-Encoding");
        h.add("gzip");
      }
      CompressedBody compressed = compress(frames, bytes);
      body = Bodies.ofBuffers(compressed.buffers(), compressed.length());
    }
    return client.post(URI.create(uri.toString()), h, body, options.requestTimeout(),
        progress::markComplete);
  }

  /** Compresses the body as the options ask; a codec's failure becomes a checked one. */
  private CompressedBody compress(List<Frame> frames, long bytes) throws CompressionFailure {
    try {
      switch (options.compression()) {
        case GZIP:
          return CompressedBody.gzip(frames);
        case LZ4:
          try (BlockCodec codec = BlockCodec.lz4()) {
            return CompressedBody.blocks(frames, bytes, codec);
          }
        case ZSTD:
          try (BlockCodec codec = BlockCodec.zstd(options.zstdLevel())) {
            return CompressedBody.blocks(frames, bytes, codec);
          }
        default:
          throw new IllegalStateException("not a compression: " + options.compression());
      }
    } catch (RuntimeException e) {
      throw new CompressionFailure(options.compression() + " compression of a body of " + bytes
          + " bytes failed: " + e, e);
    }
  }

  /** The codec failed on a body; nothing was sent. */
  public static final class CompressionFailure extends IOException {
    private static final long serialVersionUID = 1L;

    CompressionFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * How far one request got: whether its whole body was handed to the client, and whether an
   * answer (any HTTP status) came back. Set while the request runs, read after it.
   */
  public static final class BodyProgress {
    private volatile boolean complete;
    private volatile boolean answered;

    /** Returns whether the body's last byte was handed to the client. */
    public boolean complete() {
      return complete;
    }

    /** Returns whether the server answered with a status line. */
    public boolean answered() {
      return answered;
    }

    /** Records that the body's last byte was handed to the connection. */
    void markComplete() {
      complete = true;
    }

    /** Records that the server answered. */
    public void markAnswered() {
      answered = true;
    }

    /**
     * Returns whether the outcome is unknown: the whole body went out and no answer came, so the
     * server may have written the insert.
     */
    public boolean outcomeUnknown() {
      return complete && !answered;
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, UTF_8);
  }
}
