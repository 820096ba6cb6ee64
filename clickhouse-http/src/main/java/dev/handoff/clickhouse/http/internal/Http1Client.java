package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.HandoffClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A blocking HTTP/1.1 client for ClickHouse's interface: one POST at a time per connection, on
 * the caller's thread, over a pool of keep-alive connections per server.
 *
 * <p>Why not the JDK's {@link java.net.http.HttpClient}: its selector and executor threads, the
 * method handles its first request spins and the copies of its body publishers cost a short
 * load about a fifth of its CPU; a sink worker sends one request at a time and waits for it
 * anyway. TLS ({@code https://}) takes {@link SSLContext#getDefault()} at the first such
 * connection, with the host name checked as a browser does.
 *
 * <p>Timeouts: the connect timeout bounds each connect; the request timeout bounds the time from
 * the request's start to the answer's status line and headers (as the JDK client's does): a
 * {@link Deadlines} thread closes the connection when it passes, since a blocking write has no
 * timeout of its own. The answer's body is read with the request timeout as the limit of each
 * read. An interrupt of the sending thread closes its connection and ends the request with
 * {@link InterruptedException}.
 *
 * <p>Connections: an idle connection is checked before reuse and dropped if the server has
 * closed it or sent anything, or when it has been idle for longer than the {@code Keep-Alive:
 * timeout} the server announced less a second, so that a request does not meet a server's
 * closing. Concurrency: any number of threads may call {@link #post} at once; the pool is
 * guarded by this object.
 */
public final class Http1Client implements AutoCloseable {
  private final Duration connectTimeout;
  private final HandoffClock clock;
  private final Map<String, ArrayDeque<Http1Connection>> idle = new HashMap<>(); // guarded by this
  private final Deadlines deadlines;
  private boolean closed; // guarded by this

  /** What a request sends after its head: its length, then its bytes. */
  public interface Body {
    /** Returns the number of bytes {@link #writeTo} writes. */
    long length();

    /** Writes the body to {@code out}. */
    void writeTo(OutputStream out) throws IOException;
  }

  /** An answer: its status code and its whole body. */
  public static final class Response {
    private final int status;
    private final byte[] body;

    Response(int status, byte[] body) {
      this.status = status;
      this.body = body;
    }

    /** Returns the HTTP status code. */
    public int statusCode() {
      return status;
    }

    /** Returns the body (empty when there was none). */
    public byte[] body() {
      return body;
    }
  }

  /**
   * Creates a client whose connects give up after {@code connectTimeout}, its request timeouts
   * measured by {@code clock}.
   */
  public Http1Client(Duration connectTimeout, HandoffClock clock) {
    this.connectTimeout = connectTimeout;
    this.clock = clock;
    this.deadlines = new Deadlines(clock);
  }

  /**
   * Sends a POST of {@code body} to {@code uri} with {@code headers} (name, value, name, value,
   * ...) and returns the answer; {@code sent} is run once the last byte of the body was written.
   *
   * @throws HttpConnectTimeoutException when the connect timed out
   * @throws HttpTimeoutException when no status line and headers came within {@code timeout}
   * @throws ConnectException when the server refused the connection
   * @throws IOException when the connection failed otherwise
   * @throws InterruptedException when the thread was interrupted (the connection is closed)
   */
  public Response post(URI uri, List<String> headers, Body body, Duration timeout, Runnable sent)
      throws IOException, InterruptedException {
    checkHeaders(headers);
    long deadline = clock.nanoTime() + timeout.toNanos();
    Http1Connection c = connection(uri, deadline);
    Deadlines.Deadline armed = deadlines.arm(c, deadline);
    boolean reusable = false;
    try {
      try {
        c.writeRequest(uri, headers, body, sent);
      } catch (IOException e) {
        // A server that refuses a request before reading all of its body (an unknown table)
        // answers and closes: that answer, when it arrived, says more than the broken pipe.
        if (armed.fired() || Thread.currentThread().isInterrupted()) {
          throw e;
        }
        try {
          c.readHead();
          byte[] answer = c.readBody(timeout);
          // Never a success for a body that did not all go out.
          if (c.status() / 100 != 2) {
            return new Response(c.status(), answer);
          }
        } catch (IOException noAnswer) {
          e.addSuppressed(noAnswer);
        }
        throw e;
      }
      c.readHead();
      if (deadlines.disarm(armed)) {
        throw new HttpTimeoutException("no answer within " + timeout);
      }
      byte[] answer = c.readBody(timeout);
      reusable = c.reusable();
      return new Response(c.status(), answer);
    } catch (IOException e) {
      if (e instanceof HttpTimeoutException) {
        throw e;
      }
      if (deadlines.disarm(armed) || e instanceof SocketTimeoutException) {
        HttpTimeoutException t = new HttpTimeoutException("no answer within " + timeout);
        t.initCause(e);
        throw t;
      }
      if (e instanceof ClosedByInterruptException || Thread.currentThread().isInterrupted()) {
        Thread.interrupted();
        InterruptedException i = new InterruptedException("interrupted while sending to " + uri
            .getHost() + ":" + port(uri));
        i.initCause(e);
        throw i;
      }
      throw e;
    } finally {
      deadlines.disarm(armed);
      if (reusable) {
        release(c);
      } else {
        c.close();
      }
    }
  }

  /** Closes the idle connections and ends the deadline thread; later requests still work. */
  @Override
  public void close() {
    List<Http1Connection> drop = new ArrayList<>();
    synchronized (this) {
      closed = true;
      for (ArrayDeque<Http1Connection> q : idle.values()) {
        drop.addAll(q);
      }
      idle.clear();
    }
    for (Http1Connection c : drop) {
      c.close();
    }
    deadlines.close();
  }

  private Http1Connection connection(URI uri, long deadline)
      throws IOException, InterruptedException {
    String origin = origin(uri);
    while (true) {
      Http1Connection c;
      synchronized (this) {
        ArrayDeque<Http1Connection> q = idle.get(origin);
        c = q == null ? null : q.pollLast();
      }
      if (c == null) {
        return connect(uri, origin, deadline);
      }
      if (c.reusableNow(clock.nanoTime())) {
        return c;
      }
      c.close();
    }
  }

  private synchronized void release(Http1Connection c) {
    if (closed) {
      c.close();
      return;
    }
    c.markIdle(clock.nanoTime());
    idle.computeIfAbsent(c.origin(), k -> new ArrayDeque<>()).addLast(c);
  }

  private Http1Connection connect(URI uri, String origin, long deadline)
      throws IOException, InterruptedException {
    String host = host(uri);
    int port = port(uri);
    long left = Math.min(connectTimeout.toNanos(), deadline - clock.nanoTime());
    if (left <= 0) {
      throw new HttpConnectTimeoutException("no time left to connect to " + host + ":" + port);
    }
    SocketChannel channel = SocketChannel.open();
    Socket socket = channel.socket();
    boolean done = false;
    try {
      socket.setTcpNoDelay(true);
      InetSocketAddress address = new InetSocketAddress(host, port);
      if (address.isUnresolved()) {
        throw new ConnectException("cannot resolve " + host);
      }
      try {
        socket.connect(address, (int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
      } catch (SocketTimeoutException e) {
        HttpConnectTimeoutException t = new HttpConnectTimeoutException("connect to " + host + ":"
            + port + " timed out after " + connectTimeout);
        t.initCause(e);
        throw t;
      } catch (ClosedByInterruptException e) {
        Thread.interrupted();
        InterruptedException i = new InterruptedException("interrupted while connecting to "
            + host + ":" + port);
        i.initCause(e);
        throw i;
      }
      Socket io = socket;
      if ("https".equalsIgnoreCase(uri.getScheme())) {
        io = tls(socket, host, port);
      }
      Http1Connection c = new Http1Connection(origin, channel, io, hostHeader(uri));
      done = true;
      return c;
    } finally {
      if (!done) {
        channel.close();
      }
    }
  }

  private static Socket tls(Socket plain, String host, int port) throws IOException {
    SSLContext context;
    try {
      context = SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("no default TLS context: " + e.getMessage(), e);
    }
    SSLSocket ssl = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
    SSLParameters p = ssl.getSSLParameters();
    p.setEndpointIdentificationAlgorithm("HTTPS");
    ssl.setSSLParameters(p);
    ssl.startHandshake();
    return ssl;
  }

  /**
   * Refuses a header that would not go out as given: a line break would end it early (and start
   * another), and a character past U+00FF has no byte in a header. The message names the header,
   * not its value (a password).
   */
  static void checkHeaders(List<String> headers) {
    for (int i = 0; i < headers.size(); i++) {
      String h = headers.get(i);
      for (int k = 0; k < h.length(); k++) {
        char ch = h.charAt(k);
        if (ch == '\r' || ch == '\n' || ch == 0 || ch > 0xFF) {
          String name = i % 2 == 0 ? "a header name" : "the value of header " + headers.get(i - 1);
          throw new IllegalArgumentException(name + " holds a character HTTP cannot carry (U+"
              + String.format("%04X", (int) ch) + " at " + k + ")");
        }
      }
    }
  }

  private static String origin(URI uri) {
    return uri.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + host(uri) + ":"
        + port(uri);
  }

  /** The host to connect to: an IPv6 literal without its brackets. */
  private static String host(URI uri) {
    String h = uri.getHost();
    if (h == null) {
      throw new IllegalArgumentException("no host in " + uri);
    }
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  private static String hostHeader(URI uri) {
    String h = uri.getHost();
    return uri.getPort() >= 0 ? h + ":" + uri.getPort() : h;
  }

}
