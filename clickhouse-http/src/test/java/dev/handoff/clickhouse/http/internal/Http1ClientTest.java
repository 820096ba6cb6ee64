package dev.handoff.clickhouse.http.internal;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.HandoffClock;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Http1Client} against a scripted peer on a loopback port: the answer's framings, reuse
 * of keep-alive connections and the cases where a connection must not be reused, the request
 * timeout while writing and while waiting, interrupts, refused connects, TLS, and an answer that
 * comes before the server read the whole body.
 */
final class Http1ClientTest {
  private static final Duration LONG = Duration.ofSeconds(20);

  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final Http1Client client = new Http1Client(Duration.ofSeconds(5), HandoffClock.system());

  @AfterEach
  void closeAll() throws Exception {
    client.close();
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  /** What the peer does with one accepted connection. */
  interface Script {
    void run(Socket s, InputStream in, OutputStream out) throws Exception;
  }

  /** Starts a peer that runs {@code script} on every connection; returns its URL. */
  private URI peer(AtomicInteger connections, Script script) throws IOException {
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    toClose.add(server);
    Thread t = new Thread(() -> {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          toClose.add(s);
          connections.incrementAndGet();
          Thread h = new Thread(() -> {
            try (s) {
              script.run(s, s.getInputStream(), s.getOutputStream());
            } catch (Exception e) {
              // the client went away
            }
          }, "peer-connection");
          h.setDaemon(true);
          h.start();
        } catch (IOException e) {
          return;
        }
      }
    }, "peer-accept");
    t.setDaemon(true);
    t.start();
    return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/?query=x");
  }

  /** Reads one request (head and Content-Length body); returns its body, or null at the end. */
  private static byte[] readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      head.write(b);
      byte[] h = head.toByteArray();
      int n = h.length;
      if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
        break;
      }
    }
    if (b == -1) {
      return null;
    }
    String text = head.toString(ISO_8859_1);
    int at = text.indexOf("Content-Length: ");
    int length = Integer.parseInt(text.substring(at + 16, text.indexOf('\r', at)));
    byte[] body = new byte[length];
    new DataInputStream(in).readFully(body);
    return body;
  }

  private static void answer(OutputStream out, String headers, String body) throws IOException {
    out.write(("HTTP/1.1 200 OK\r\n" + headers + "\r\n" + body).getBytes(ISO_8859_1));
    out.flush();
  }

  private Http1Client.Response post(URI uri, String body) throws Exception {
    return client.post(uri, List.of("Content-Type", "text/plain"),
        Bodies.ofBytes(body.getBytes(UTF_8)), LONG, () -> { });
  }

  @Test
  void answers_byLengthAndChunked_onOneKeptConnection() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    List<String> seen = new ArrayList<>();
    URI uri = peer(connections, (s, in, out) -> {
      byte[] first = readRequest(in);
      seen.add(new String(first, UTF_8));
      answer(out, "Content-Length: 5\r\nKeep-Alive: timeout=10\r\n", "hello");
      byte[] second = readRequest(in);
      seen.add(new String(second, UTF_8));
      answer(out, "Transfer-Encoding: chunked\r\n", "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n");
      readRequest(in);
    });

    Http1Client.Response a = post(uri, "one");
    Http1Client.Response b = post(uri, "two");

    assertThat(a.statusCode()).isEqualTo(200);
    assertThat(new String(a.body(), UTF_8)).isEqualTo("hello");
    assertThat(new String(b.body(), UTF_8)).isEqualTo("abcde");
    assertThat(seen).containsExactly("one", "two");
    assertThat(connections).hasValue(1);
  }

  @Test
  void aConnectionTheServerClosedWhileIdle_isNotReused() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    CountDownLatch closed = new CountDownLatch(1);
    URI uri = peer(connections, (s, in, out) -> {
      readRequest(in);
      answer(out, "Content-Length: 2\r\n", "ok");
      s.close(); // as a server whose keep-alive timeout passed
      closed.countDown();
    });

    post(uri, "a");
    assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(100); // the end of the stream reaches the client's socket
    Http1Client.Response again = post(uri, "b");

    assertThat(new String(again.body(), UTF_8)).isEqualTo("ok");
    assertThat(connections).hasValue(2);
  }

  @Test
  void aConnectionIdlePastTheAnnouncedKeepAlive_isNotReused() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      while (readRequest(in) != null) {
        answer(out, "Content-Length: 2\r\nKeep-Alive: timeout=2\r\n", "ok");
      }
    });

    post(uri, "a");
    post(uri, "b"); // at once: reused
    assertThat(connections).hasValue(1);
    Thread.sleep(1_100); // past 2 s less the second of margin
    post(uri, "c");

    assertThat(connections).hasValue(2);
  }

  @Test
  void connectionClose_orABodyToTheEndOfTheStream_endsTheConnection() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    AtomicInteger requests = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      readRequest(in);
      if (requests.incrementAndGet() == 1) {
        answer(out, "Connection: close\r\nContent-Length: 3\r\n", "one");
        readRequest(in);
      } else {
        answer(out, "", "to the end");
      }
    });

    assertThat(new String(post(uri, "a").body(), UTF_8)).isEqualTo("one");
    assertThat(new String(post(uri, "b").body(), UTF_8)).isEqualTo("to the end");
    assertThat(connections).hasValue(2);
  }

  @Test
  void http10_keepsTheConnectionOnlyWhenItSaysKeepAlive() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    AtomicInteger requests = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      while (readRequest(in) != null) {
        String keep = requests.incrementAndGet() == 1 ? "Connection: keep-alive\r\n" : "";
        out.write(("HTTP/1.0 200 OK\r\n" + keep + "Content-Length: 2\r\n\r\nok")
            .getBytes(ISO_8859_1));
        out.flush();
      }
    });

    post(uri, "a"); // kept
    post(uri, "b"); // same connection, not kept
    post(uri, "c");

    assertThat(requests).hasValue(3);
    assertThat(connections).hasValue(2);
  }

  @Test
  void anInterimAnswer_isSkipped() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      readRequest(in);
      out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(ISO_8859_1));
      answer(out, "Content-Length: 4\r\n", "done");
      readRequest(in);
    });

    Http1Client.Response r = post(uri, "x");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(new String(r.body(), UTF_8)).isEqualTo("done");
  }

  @Test
  void close_dropsTheIdleConnections_andRequestsStillWork() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      while (readRequest(in) != null) {
        answer(out, "Content-Length: 2\r\nKeep-Alive: timeout=10\r\n", "ok");
      }
    });

    post(uri, "a");
    client.close();
    post(uri, "b"); // a new connection: the idle one was closed
    post(uri, "c"); // and another: a closed client keeps none

    assertThat(connections).hasValue(3);
  }

  @Test
  void aServerThatStopsReading_timesOutTheWrite() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    URI uri = peer(connections, (s, in, out) -> release.await());
    AtomicBoolean sent = new AtomicBoolean();
    byte[] big = new byte[64 << 20];

    long t0 = System.nanoTime();
    assertThatThrownBy(() -> client.post(uri, List.of(), Bodies.ofBytes(big),
        Duration.ofMillis(500), () -> sent.set(true)))
        .isInstanceOf(HttpTimeoutException.class);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    release.countDown();

    assertThat(sent).isFalse();
    assertThat(ms).isBetween(400L, 10_000L);
  }

  @Test
  void aServerThatReadsButDoesNotAnswer_timesOutAfterTheWholeBodyWent() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    URI uri = peer(connections, (s, in, out) -> {
      readRequest(in);
      release.await();
    });
    AtomicBoolean sent = new AtomicBoolean();

    assertThatThrownBy(() -> client.post(uri, List.of(), Bodies.ofBytes(new byte[1000]),
        Duration.ofMillis(300), () -> sent.set(true)))
        .isInstanceOf(HttpTimeoutException.class);
    release.countDown();

    assertThat(sent).isTrue();
  }

  @Test
  void anInterrupt_endsTheWaitWithInterruptedException() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    URI uri = peer(connections, (s, in, out) -> {
      readRequest(in);
      release.await();
    });
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread sender = new Thread(() -> {
      try {
        post(uri, "wait");
      } catch (Throwable t) {
        thrown.set(t);
      }
    });
    sender.start();
    while (connections.get() == 0) {
      Thread.sleep(10);
    }
    Thread.sleep(200);
    sender.interrupt();
    sender.join(10_000);
    release.countDown();

    assertThat(sender.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
  }

  @Test
  void aRefusedConnect_isAConnectException() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/");

    assertThatThrownBy(() -> post(uri, "x")).isInstanceOf(ConnectException.class);
  }

  @Test
  void anAnswerBeforeTheWholeBodyWasRead_isReturned() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      byte[] head = new byte[16];
      new DataInputStream(in).readFully(head);
      out.write(("HTTP/1.1 404 Not Found\r\nContent-Length: 11\r\nConnection: close\r\n\r\n"
          + "Code: 60. x").getBytes(ISO_8859_1));
      out.flush();
      s.shutdownOutput();
      Thread.sleep(300);
    });
    AtomicBoolean sent = new AtomicBoolean();

    Http1Client.Response r = client.post(uri, List.of(), Bodies.ofBytes(new byte[64 << 20]),
        LONG, () -> sent.set(true));

    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(new String(r.body(), UTF_8)).isEqualTo("Code: 60. x");
    assertThat(sent).isFalse();
  }

  @Test
  void aSuccessBeforeTheWholeBodyWasRead_isNoSuccess() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    URI uri = peer(connections, (s, in, out) -> {
      new DataInputStream(in).readFully(new byte[16]);
      out.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
          .getBytes(ISO_8859_1));
      out.flush();
      s.shutdownOutput();
      Thread.sleep(300);
    });
    AtomicBoolean sent = new AtomicBoolean();

    assertThatThrownBy(() -> client.post(uri, List.of(), Bodies.ofBytes(new byte[64 << 20]),
        LONG, () -> sent.set(true))).isInstanceOf(IOException.class);
    assertThat(sent).isFalse();
  }

  @Test
  void aHeaderWithALineBreak_isRefusedWithoutItsValue() {
    URI uri = URI.create("http://127.0.0.1:1/");

    assertThatThrownBy(() -> client.post(uri, List.of("X-ClickHouse-Key", "se\r\ncret"),
        Bodies.ofBytes(new byte[0]), LONG, () -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("X-ClickHouse-Key").hasMessageNotContaining("cret");
    assertThatThrownBy(() -> new HttpTransport(ClickHouseHttpOptions.builder()
        .password("se\ncret").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("X-ClickHouse-Key").hasMessageNotContaining("cret");
  }

  /**
   * An {@code https://} URL gets a TLS handshake: the peer reads the client's first record (a
   * handshake record, type 22) and answers with a fatal alert, which fails the request.
   */
  @Test
  void httpsUrl_speaksTls() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    AtomicReference<Integer> firstByte = new AtomicReference<>();
    URI plain = peer(connections, (s, in, out) -> {
      byte[] header = new byte[5]; // a TLS record: type, version (2 bytes), length (2 bytes)
      DataInputStream d = new DataInputStream(in);
      d.readFully(header);
      firstByte.set(header[0] & 0xFF);
      d.readFully(new byte[((header[3] & 0xFF) << 8) | (header[4] & 0xFF)]);
      out.write(new byte[] {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28}); // handshake_failure
      out.flush();
      while (in.read() != -1) {
        // until the client hangs up
      }
    });
    URI tls = URI.create("https://127.0.0.1:" + plain.getPort() + "/");

    assertThatThrownBy(() -> post(tls, "x")).isInstanceOf(SSLException.class);
    assertThat(firstByte.get()).as("a TLS handshake record").isEqualTo(0x16);
  }
}
