package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aimed at the wrong port, {@code ingest} says what it found there and stops at once (exit 3)
 * instead of promising to retry: ClickHouse 18.16's native TCP port answers, but not in HTTP.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class IngestWrongPortTest {

  static ClickHouseServer server;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    server = ClickHouseServer.shared();
  }

  @AfterAll
  static void close() {}

  @Test
  void nativeTcpPort_isNamedAsNotHttp_andTheRunStopsAtOnce() throws Exception {
    Path in = Files.writeString(dir.resolve("one.jsonl"), "{\"id\":1}\n");
    long start = System.nanoTime();

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url",
        "http://127.0.0.1:" + server.tcpPort(), "--table", "default.t", "--input", in.toString(),
        "--no-progress");

    System.out.println("stderr: " + r.err() + "\nstdout: " + r.out());
    assertThat(r.exit()).isEqualTo(Main.ERROR);
    assertThat(r.err()).contains("127.0.0.1:" + server.tcpPort())
        .contains("ClickHouse's native TCP port, not its HTTP interface")
        .contains("--url http://127.0.0.1:" + server.httpPort()).doesNotContain("retrying");
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(30));
  }

  @Test
  void aServerThatDoesNotSpeakHttp_isNamedSo_andTheRunStopsAtOnce() throws Exception {
    Path in = Files.writeString(dir.resolve("one.jsonl"), "{\"id\":1}\n");
    try (ServerSocket ssh = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> {
        while (!ssh.isClosed()) {
          try (java.net.Socket c = ssh.accept()) {
            c.getOutputStream().write("SSH-2.0-OpenSSH_9.2\r\n".getBytes());
            c.getOutputStream().flush();
            Thread.sleep(50);
          } catch (Exception e) {
            return;
          }
        }
      });
      t.setDaemon(true);
      t.start();
      long start = System.nanoTime();

      CommandLineTest.Run r = CommandLineTest.run("ingest", "--url",
          "http://127.0.0.1:" + ssh.getLocalPort(), "--table", "default.t", "--input",
          in.toString(), "--no-progress");

      System.out.println("stderr: " + r.err() + "\nstdout: " + r.out());
      assertThat(r.exit()).isEqualTo(Main.ERROR);
      assertThat(r.err()).contains("127.0.0.1:" + ssh.getLocalPort())
          .contains("not an HTTP server").doesNotContain("retrying");
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(30));
    }
  }

  @Test
  void aPortNobodyListensOn_isNamedAsRefused() throws Exception {
    Path in = Files.writeString(dir.resolve("one.jsonl"), "{\"id\":1}\n");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }

    CommandLineTest.Run r = CommandLineTest.run("ingest", "--url", "http://127.0.0.1:" + port,
        "--table", "default.t", "--input", in.toString(), "--retry-max-elapsed", "1s",
        "--no-progress");

    System.out.println("stderr: " + r.err() + "\nstdout: " + r.out());
    assertThat(r.exit()).isEqualTo(Main.ERROR);
    assertThat(r.err()).contains("connection refused").contains("127.0.0.1:" + port)
        .contains("--retry-max-elapsed");
  }
}
