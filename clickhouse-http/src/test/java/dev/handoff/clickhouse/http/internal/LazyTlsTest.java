package dev.handoff.clickhouse.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.Test;

/**
 * The client of an {@code http://} URL makes its TLS context only when a connection needs one
 * ({@link LazyTls}), and that context is the JDK's default in all but the time it is made.
 */
final class LazyTlsTest {

  private static HttpClient client(String url) {
    return HttpTransport.newClient(ClickHouseHttpOptions.builder().url(url).build());
  }

  @Test
  void httpClient_hasTheDefaultContextsParametersAndEngines() throws Exception {
    SSLContext lazy = client("http://127.0.0.1:8123").sslContext();
    SSLContext real = SSLContext.getDefault();

    assertThat(lazy).isNotSameAs(real);
    assertThat(lazy.getDefaultSSLParameters().getCipherSuites())
        .containsExactly(real.getDefaultSSLParameters().getCipherSuites());
    assertThat(lazy.getDefaultSSLParameters().getProtocols())
        .containsExactly(real.getDefaultSSLParameters().getProtocols());
    SSLEngine a = lazy.createSSLEngine("example.org", 443);
    SSLEngine b = real.createSSLEngine("example.org", 443);
    assertThat(a.getEnabledCipherSuites()).containsExactly(b.getEnabledCipherSuites());
    assertThat(a.getEnabledProtocols()).containsExactly(b.getEnabledProtocols());
    assertThat(a.getPeerHost()).isEqualTo("example.org");
    assertThatThrownBy(() -> lazy.init(null, null, null))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void httpsClient_takesTheDefaultContextAtOnce() throws Exception {
    assertThat(client("https://127.0.0.1:8443").sslContext()).isSameAs(SSLContext.getDefault());
  }

  /**
   * An {@code https://} request through the client of an {@code http://} URL (a replica that
   * speaks TLS) starts a real handshake: the peer here gets a TLS ClientHello and refuses it
   * with a TLS alert, which fails the client's handshake.
   */
  @Test
  void httpClient_speaksTlsToAnHttpsUrl() throws Exception {
    AtomicReference<Integer> firstByte = new AtomicReference<>();
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread peer = new Thread(() -> {
        try (Socket s = server.accept()) {
          s.setSoTimeout(10_000);
          DataInputStream in = new DataInputStream(s.getInputStream());
          byte[] header = new byte[5]; // a TLS record: type, version (2 bytes), length (2 bytes)
          in.readFully(header);
          firstByte.set(header[0] & 0xFF);
          in.readFully(new byte[((header[3] & 0xFF) << 8) | (header[4] & 0xFF)]);
          // A fatal handshake_failure alert: the client's handshake fails at once. (An answer
          // that is not TLS at all, as a plain HTTP server gives, sometimes left JDK 17's client
          // waiting out its connect timeout instead.)
          OutputStream out = s.getOutputStream();
          out.write(new byte[] {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28});
          out.flush();
          while (in.read() != -1) {
            // until the client hangs up
          }
        } catch (Exception e) {
          // the client hung up
        }
      }, "tls-refusing-peer");
      peer.start();
      HttpClient c = client("http://127.0.0.1:8123");
      HttpRequest request = HttpRequest.newBuilder(
          URI.create("https://127.0.0.1:" + server.getLocalPort() + "/"))
          .timeout(Duration.ofSeconds(10)).build();

      assertThatThrownBy(() -> c.send(request, HttpResponse.BodyHandlers.discarding()))
          .isInstanceOf(SSLException.class);
      peer.join(10_000);
      assertThat(firstByte.get()).as("a TLS handshake record").isEqualTo(0x16);
    }
  }
}
