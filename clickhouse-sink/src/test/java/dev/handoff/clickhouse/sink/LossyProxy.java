package dev.handoff.clickhouse.sink;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An HTTP proxy on loopback in front of a real server that loses the answers of chosen inserts:
 * it forwards each request to the server ({@code Connection: close}, one request per
 * connection), reads the server's whole answer, and for an insert whose number (from 1, in
 * arrival order) is in {@code lose} either closes the client's connection without a byte
 * ({@link Mode#CLOSE}) or holds it silent for {@code holdMillis} first ({@link Mode#HOLD}, so the
 * client's request timeout fires). Records the URL of every insert.
 */
final class LossyProxy implements AutoCloseable {
  /** How an answer is lost. */
  enum Mode { CLOSE, HOLD }

  private final ServerSocket socket;
  private final int upstreamPort;
  private final Set<Integer> lose;
  private final Mode mode;
  private final long holdMillis;
  private final List<String> inserts = new ArrayList<>(); // guarded by itself
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  LossyProxy(int upstreamPort, Set<Integer> lose, Mode mode, long holdMillis) throws IOException {
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.upstreamPort = upstreamPort;
    this.lose = Set.copyOf(lose);
    this.mode = mode;
    this.holdMillis = holdMillis;
    this.acceptor = new Thread(this::accept, "lossy-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String url() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  /** The decoded URL (path and query) of every insert, in arrival order. */
  List<String> inserts() {
    synchronized (inserts) {
      return List.copyOf(inserts);
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        open.add(client);
        Thread t = new Thread(() -> serve(client), "lossy-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    try (client; Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      InputStream in = client.getInputStream();
      String head = readHead(in);
      int length = 0;
      StringBuilder forwarded = new StringBuilder();
      String[] lines = head.split("\r\n");
      for (String line : lines) {
        String lower = line.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).strip());
        }
        if (!lower.startsWith("connection:")) {
          forwarded.append(line).append("\r\n");
        }
      }
      forwarded.append("Connection: close\r\n\r\n");
      byte[] body = in.readNBytes(length);
      String target = URLDecoder.decode(lines[0].split(" ")[1], UTF_8);
      int insert = 0;
      if (target.contains("query=INSERT")) {
        synchronized (inserts) {
          inserts.add(target);
          insert = inserts.size();
        }
      }
      OutputStream up = upstream.getOutputStream();
      up.write(forwarded.toString().getBytes(ISO_8859_1));
      up.write(body);
      up.flush();
      byte[] answer = upstream.getInputStream().readAllBytes(); // the server wrote it by now
      if (lose.contains(insert)) {
        if (mode == Mode.HOLD) {
          Thread.sleep(holdMillis);
        }
        return; // closes the client's connection without an answer
      }
      client.getOutputStream().write(answer);
      client.getOutputStream().flush();
    } catch (IOException | InterruptedException e) {
      // the client went away: nothing to forward
    } finally {
      open.remove(client);
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("request head cut short");
      }
      out.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String head = out.toString(ISO_8859_1);
    return head.substring(0, head.length() - 4);
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
