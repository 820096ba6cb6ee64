package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.WriteException;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Failures of the transport: a server that is down, comes back, or never answers. */
final class WriterOutageTest {

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void write_serverStopped_isTransientConnectionRefused_thenSucceedsAfterResume()
      throws Exception {
    try (ClickHouseServer server = ClickHouseServer.start();
        ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
            .url(server.httpUrl()).build())) {
      String db = server.uniqueDatabase("outage");
      server.execute("CREATE TABLE " + db + ".t (id UInt64, s String) ENGINE = MergeTree"
          + " ORDER BY id");
      TableSchema schema = http.schema(db, "t");
      InsertWriter writer = http.writer(db, "t", schema, "Native");
      Frame frame = Encoded.frame("Native", schema,
          List.of(new Object[] {1L, "a"}, new Object[] {2L, "b"}));
      writer.write(Encoded.insert(0, 2, frame));

      server.stop();
      assertThatThrownBy(() -> writer.write(Encoded.insert(1, 2, frame)))
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.kind()).isEqualTo(WriteException.Kind.TRANSIENT);
            assertThat(e.serverCode()).isEqualTo(-1);
            assertThat(e).hasMessageContaining("cannot connect to " + server.httpUrl());
          });
      assertThatThrownBy(() -> http.schema(db, "t"))
          .isInstanceOfSatisfying(ClickHouseHttpException.class,
              e -> assertThat(e.isTransient()).isTrue());

      server.resume();
      writer.write(Encoded.insert(1, 2, frame).withAttempt(2));

      assertThat(server.query("SELECT id, count() FROM " + db + ".t GROUP BY id ORDER BY id"))
          .isEqualTo("1\t2\n2\t2\n");
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void write_serverThatAcceptsAndNeverAnswers_isTransientTimeout() throws Exception {
    List<Socket> accepted = new ArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        for (int i = 0; i < 16; i++) { // bounded: the test sends at most a few requests
          try {
            Socket s = silent.accept();
            synchronized (accepted) {
              accepted.add(s);
            }
          } catch (IOException closed) {
            return;
          }
        }
      }, "silent-acceptor");
      acceptor.setDaemon(true);
      acceptor.start();
      ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
          .url("http://127.0.0.1:" + silent.getLocalPort())
          .requestTimeout(Duration.ofMillis(500)).build());
      InsertWriter writer = http.writer("db", "t",
          TableSchema.of(new dev.handoff.api.ColumnSpec("id", "UInt64")), "RowBinary");
      long start = System.nanoTime();

      assertThatThrownBy(() -> writer.write(Encoded.insert(0, 1, Frame.copyOf(new byte[8]))))
          .isInstanceOfSatisfying(WriteException.class, e -> {
            assertThat(e.kind()).isEqualTo(WriteException.Kind.TRANSIENT);
            assertThat(e.serverCode()).isEqualTo(-1);
            assertThat(e).hasMessageContaining("no answer within PT0.5S");
          });
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    } finally {
      synchronized (accepted) {
        for (Socket s : accepted) {
          s.close();
        }
      }
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void write_nothingListening_isTransient() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder()
        .url("http://127.0.0.1:" + port).build());
    InsertWriter writer = http.writer("db", "t",
        TableSchema.of(new dev.handoff.api.ColumnSpec("id", "UInt64")), "Native");

    assertThatThrownBy(() -> writer.write(Encoded.insert(0, 1, Frame.copyOf(new byte[8]))))
        .isInstanceOfSatisfying(WriteException.class,
            e -> assertThat(e.kind()).isEqualTo(WriteException.Kind.TRANSIENT));
  }
}
