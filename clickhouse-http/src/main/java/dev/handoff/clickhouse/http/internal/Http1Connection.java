package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One connection of {@link Http1Client}: writes a request's head and body, reads the answer's
 * status line, headers and body (by length, chunked, or to the end of the stream), and knows
 * whether it can carry another request. Used by one thread at a time; {@link #close} may come
 * from another (the deadline thread).
 */
final class Http1Connection implements Closeable {
  private static final int MAX_HEAD = 64 * 1024;
  private static final long NO_KEEP_ALIVE_LIMIT = Long.MAX_VALUE;

  private final String origin;
  private final SocketChannel channel;
  private final Socket io;
  private final String hostHeader;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] buf = new byte[8192];
  private int pos;
  private int limit;

  private int status;
  private long contentLength;
  private boolean chunked;
  private boolean keepAlive;
  private boolean bodyComplete;
  private long keepAliveNanos = NO_KEEP_ALIVE_LIMIT;
  private long idleSince;

  Http1Connection(String origin, SocketChannel channel, Socket io, String hostHeader)
      throws IOException {
    this.origin = origin;
    this.channel = channel;
    this.io = io;
    this.hostHeader = hostHeader;
    this.in = io.getInputStream();
    this.out = new BufferedOutputStream(io.getOutputStream(), 16 * 1024);
  }

  String origin() {
    return origin;
  }

  int status() {
    return status;
  }

  /** Writes the head and the body and flushes them; runs {@code sent} after the last byte. */
  void writeRequest(URI uri, List<String> headers, Http1Client.Body body, Runnable sent)
      throws IOException {
    StringBuilder head = new StringBuilder(256).append("POST ");
    String path = uri.getRawPath();
    head.append(path == null || path.isEmpty() ? "/" : path);
    if (uri.getRawQuery() != null) {
      head.append('?').append(uri.getRawQuery());
    }
    head.append(" HTTP/1.1\r\nHost: ").append(hostHeader)
        .append("\r\nContent-Length: ").append(body.length()).append("\r\n");
    for (int i = 0; i + 1 < headers.size(); i += 2) {
      head.append(headers.get(i)).append(": ").append(headers.get(i + 1)).append("\r\n");
    }
    head.append("\r\n");
    out.write(head.toString().getBytes(ISO_8859_1));
    body.writeTo(out);
    out.flush();
    sent.run();
  }

  /** Reads the status line and headers of the answer (after any 1xx interim answers). */
  void readHead() throws IOException {
    do {
      readOneHead();
    } while (status >= 100 && status < 200);
  }

  private void readOneHead() throws IOException {
    contentLength = -1;
    chunked = false;
    keepAlive = true;
    bodyComplete = false;
    String statusLine = line(true);
    if (!statusLine.startsWith("HTTP/1.")) {
      throw new ProtocolException("not an HTTP/1.x answer: \"" + shorten(statusLine) + "\"");
    }
    if (statusLine.startsWith("HTTP/1.0")) {
      keepAlive = false;
    }
    int sp = statusLine.indexOf(' ');
    try {
      status = Integer.parseInt(statusLine.substring(sp + 1, Math.min(statusLine.length(),
          sp + 4)));
    } catch (RuntimeException e) {
      throw new ProtocolException("no status code in " + shorten(statusLine));
    }
    int headBytes = statusLine.length();
    while (true) {
      String h = line(false);
      headBytes += h.length() + 2;
      if (headBytes > MAX_HEAD) {
        throw new ProtocolException("answer head longer than " + MAX_HEAD + " bytes");
      }
      if (h.isEmpty()) {
        return;
      }
      int colon = h.indexOf(':');
      if (colon <= 0) {
        continue;
      }
      String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).trim();
      switch (name) {
        case "content-length":
          try {
            contentLength = Long.parseLong(value);
          } catch (NumberFormatException e) {
            throw new ProtocolException("bad Content-Length: " + shorten(value));
          }
          break;
        case "transfer-encoding":
          chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
          break;
        case "connection":
          String v = value.toLowerCase(Locale.ROOT);
          if (v.contains("close")) {
            keepAlive = false;
          } else if (v.contains("keep-alive")) {
            keepAlive = true; // an HTTP/1.0 server that keeps the connection says so
          }
          break;
        case "keep-alive":
          keepAliveNanos = keepAliveLimit(value);
          break;
        default:
          break;
      }
    }
  }

  /** Reads the answer's whole body, each read waiting at most {@code timeout}. */
  byte[] readBody(Duration timeout) throws IOException {
    io.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (status == 204 || status == 304) {
      bodyComplete = true;
    } else if (chunked) {
      while (true) {
        String size = line(false);
        int semi = size.indexOf(';');
        long n;
        try {
          n = Long.parseLong((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
        } catch (NumberFormatException e) {
          throw new ProtocolException("bad chunk size: " + shorten(size));
        }
        if (n == 0) {
          while (!line(false).isEmpty()) {
            // trailers, ignored
          }
          break;
        }
        copy(body, n);
        if (!line(false).isEmpty()) {
          throw new ProtocolException("no line end after a chunk");
        }
      }
      bodyComplete = true;
    } else if (contentLength >= 0) {
      copy(body, contentLength);
      bodyComplete = true;
    } else {
      keepAlive = false;
      do {
        body.write(buf, pos, limit - pos);
        pos = limit;
      } while (fill());
    }
    return body.toByteArray();
  }

  /** Whether another request may use this connection now that the answer was read. */
  boolean reusable() {
    return keepAlive && bodyComplete && pos == limit && channel.isOpen();
  }

  void markIdle(long nowNanos) {
    idleSince = nowNanos;
  }

  /**
   * Whether an idle connection can carry a request: not idle past the server's keep-alive limit
   * less a second, and nothing (not even the end of the stream) arrived while it was idle.
   */
  boolean reusableNow(long nowNanos) {
    if (keepAliveNanos != NO_KEEP_ALIVE_LIMIT && nowNanos - idleSince >= keepAliveNanos) {
      return false;
    }
    if (pos != limit || !channel.isOpen()) {
      return false;
    }
    try {
      channel.configureBlocking(false);
      try {
        return channel.read(ByteBuffer.allocate(1)) == 0;
      } finally {
        channel.configureBlocking(true);
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Closes the connection. The channel goes first: a thread blocked in a write holds a TLS
   * socket's write lock, which the TLS socket's own close would wait for.
   */
  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing anyway
    }
    try {
      io.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  private void copy(ByteArrayOutputStream body, long n) throws IOException {
    long left = n;
    while (left > 0) {
      if (pos == limit && !fill()) {
        throw new EOFException("the answer's body ended " + left + " bytes early");
      }
      int k = (int) Math.min(left, limit - pos);
      body.write(buf, pos, k);
      pos += k;
      left -= k;
    }
  }

  /** Reads one line ending in CRLF (or LF), without it; ISO-8859-1. */
  private String line(boolean first) throws IOException {
    StringBuilder sb = new StringBuilder(64);
    while (true) {
      if (pos == limit && !fill()) {
        if (first && sb.length() == 0) {
          throw new EOFException("the server closed the connection before answering");
        }
        throw new EOFException("the answer ended in its head");
      }
      byte b = buf[pos++];
      if (b == '\n') {
        int len = sb.length();
        if (len > 0 && sb.charAt(len - 1) == '\r') {
          sb.setLength(len - 1);
        }
        return sb.toString();
      }
      if (sb.length() >= MAX_HEAD) {
        throw new ProtocolException("a line of the answer's head is longer than " + MAX_HEAD);
      }
      sb.append((char) (b & 0xFF));
    }
  }

  private boolean fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n < 0) {
      pos = limit = 0;
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  /** The idle limit from {@code Keep-Alive: timeout=N}: N seconds less one, at least none. */
  private static long keepAliveLimit(String value) {
    for (String part : value.split(",")) {
      String p = part.trim().toLowerCase(Locale.ROOT);
      if (p.startsWith("timeout=")) {
        try {
          long seconds = Long.parseLong(p.substring("timeout=".length()).trim());
          return Math.max(0, seconds - 1) * 1_000_000_000L;
        } catch (NumberFormatException e) {
          return NO_KEEP_ALIVE_LIMIT;
        }
      }
    }
    return NO_KEEP_ALIVE_LIMIT;
  }

  private static String shorten(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }
}
