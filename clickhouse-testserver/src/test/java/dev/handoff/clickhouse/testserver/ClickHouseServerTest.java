package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Requests against one server of this class's own, started from the installed package. */
final class ClickHouseServerTest {
  private static ClickHouseServer server;

  @BeforeAll
  static void startServer() {
    server = ClickHouseServer.start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void start_givesARunningServerOnLoopbackPortsInItsOwnDirectory() {
    assertThat(server.isRunning()).isTrue();
    assertThat(server.pid()).isPositive();
    assertThat(server.httpUrl()).isEqualTo("http://127.0.0.1:" + server.httpPort());
    assertThat(server.tcpPort()).isPositive().isNotEqualTo(server.httpPort());
    assertThat(server.directory().getFileName().toString())
        .startsWith(ServerDirectory.PREFIX);
    assertThat(server.directory().resolve("config.xml")).isRegularFile();
    assertThat(server.directory().resolve("users.xml")).isRegularFile();
    assertThat(server.directory().resolve("data")).isDirectory();
    assertThat(server.startupTime()).isPositive();
  }

  @Test
  void version_is18_16() {
    assertThat(server.query("SELECT version()")).matches("18\\.16\\.\\d+\\n");
  }

  @Test
  void rowBinaryInsert_ofHandBuiltBytes_readsBackAsTabSeparated() {
    String db = server.createDatabase("rowbinary_roundtrip");
    server.execute("CREATE TABLE " + db + ".t (a UInt8, b String) ENGINE = Memory");
    byte[] row = {0x01, 0x03, 0x6F, 0x6E, 0x65}; // UInt8 1, String "one" (length 3, then bytes)

    String answer = server.query("INSERT INTO " + db + ".t FORMAT RowBinary", row);

    assertThat(answer).isEmpty();
    assertThat(server.query("SELECT a, b FROM " + db + ".t FORMAT TabSeparated"))
        .isEqualTo("1\tone\n");
    assertThat(server.queryBytes("SELECT a, b FROM " + db + ".t FORMAT RowBinary"))
        .containsExactly(row);
  }

  @Test
  void insertWithBody_takesSqlWithSpacesPlusSignsAndNonAsciiInTheUrl() {
    String db = server.createDatabase("url_sql");
    server.execute("CREATE TABLE " + db + ".t (s String) ENGINE = Memory");
    byte[] body = "a+b é\n".getBytes(UTF_8);

    server.query("INSERT INTO " + db + ".t /* + é & = ? */ FORMAT TabSeparated", body);

    assertThat(server.query("SELECT s FROM " + db + ".t FORMAT TabSeparated"))
        .isEqualTo("a+b é\n");
  }

  @Test
  void invalidQuery_throwsWithTheStatusAndTheServersCodeMessage() {
    assertThatThrownBy(() -> server.query("SELEC 1"))
        .isInstanceOfSatisfying(
            ClickHouseServerException.class,
            e -> {
              assertThat(e.httpStatus()).isEqualTo(400);
              assertThat(e.errorCode()).isEqualTo(62);
              assertThat(e.serverMessage()).startsWith("Code: 62").contains("Syntax error");
              assertThat(e.getMessage())
                  .startsWith("HTTP 400 from ClickHouse for [SELEC 1]: Code: 62");
            });
  }

  @Test
  void insertOfTruncatedRowBinary_throwsTheServersMessage() {
    String db = server.createDatabase("truncated");
    server.execute("CREATE TABLE " + db + ".t (a UInt8, b String) ENGINE = Memory");

    assertThatThrownBy(
            () -> server.query("INSERT INTO " + db + ".t FORMAT RowBinary", new byte[] {1, 3, 'o'}))
        .isInstanceOfSatisfying(
            ClickHouseServerException.class,
            e -> {
              assertThat(e.httpStatus()).isNotEqualTo(200).isNotEqualTo(-1);
              assertThat(e.serverMessage()).startsWith("Code: ");
            });
    assertThat(server.query("SELECT count() FROM " + db + ".t")).isEqualTo("0\n");
  }

  @Test
  void errorAfterTheFirstBlocks_isAnErrorStatusNotDataWithTheErrorAppended() {
    // 18.16 answers 200 and appends the error to the rows already sent unless the result is
    // buffered (wait_end_of_query=1, which the harness always sends).
    assertThatThrownBy(
            () ->
                server.query(
                    "SELECT number, throwIf(number = 90000) FROM system.numbers LIMIT 100000"
                        + " SETTINGS max_block_size = 1000"))
        .isInstanceOfSatisfying(
            ClickHouseServerException.class,
            e -> {
              assertThat(e.httpStatus()).isEqualTo(500);
              assertThat(e.errorCode()).isEqualTo(395);
            });
  }

  @Test
  void profile_allowsLowCardinalityColumnsWithoutAQuerySetting() {
    String db = server.createDatabase("lowcardinality");
    server.execute("CREATE TABLE " + db + ".t (s LowCardinality(String)) ENGINE = Memory");
    server.query("INSERT INTO " + db + ".t FORMAT TabSeparated", "x\ny\nx\n".getBytes(UTF_8));

    assertThat(server.query("SELECT toTypeName(s), count() FROM " + db + ".t GROUP BY s ORDER BY"
            + " count() FORMAT TabSeparated"))
        .isEqualTo("LowCardinality(String)\t1\nLowCardinality(String)\t2\n");
  }

  @Test
  void serverTimeZone_isUtc() {
    // 18.16 prints DateTime 0 as 0000-00-00 00:00:00, hence a day later.
    assertThat(server.query("SELECT timezone(), toString(toDateTime(86400))"))
        .isEqualTo("Etc/UTC\t1970-01-02 00:00:00\n");
  }

  @Test
  void createDatabase_dropsWhatWasThere_andRejectsNamesThatNeedQuoting() {
    String db = server.createDatabase("recreated");
    server.execute("CREATE TABLE " + db + ".t (a UInt8) ENGINE = Memory");

    server.createDatabase("recreated");

    assertThat(server.query("SELECT count() FROM system.tables WHERE database = 'recreated'"))
        .isEqualTo("0\n");
    assertThatThrownBy(() -> server.createDatabase("x; DROP DATABASE system"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void uniqueDatabase_givesAFreshNameEachTime() {
    String first = server.uniqueDatabase("unique");
    String second = server.uniqueDatabase("unique");

    assertThat(first).startsWith("unique_").isNotEqualTo(second);
    // 18.16 has no EXISTS DATABASE.
    assertThat(server.query("SELECT count() FROM system.databases WHERE name = '" + second + "'"))
        .isEqualTo("1\n");
  }

  @Test
  void listensOn127_0_0_1Only() throws IOException {
    try (Socket ok = new Socket()) {
      ok.connect(new InetSocketAddress("127.0.0.1", server.httpPort()), 2000);
    }
    // 127.0.0.2 is loopback too on Linux, but not the address the server bound.
    assertThatThrownBy(
            () -> {
              try (Socket other = new Socket()) {
                other.connect(new InetSocketAddress("127.0.0.2", server.httpPort()), 2000);
              }
            })
        .isInstanceOf(SocketException.class); // refused (or unreachable where 127/8 is not lo)
  }

  @Test
  void requestAfterTheServersKeepAliveTimeout_stillWorks() throws InterruptedException {
    server.query("SELECT 1");
    Thread.sleep(3_500); // keep_alive_timeout is 3 s, as in the packaged config

    assertThat(server.query("SELECT 2")).isEqualTo("2\n");
  }

  @Test
  void requestsFromManyThreads_allGetTheirOwnAnswers() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> answers = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        int n = i;
        answers.add(pool.submit(() -> server.query("SELECT " + n)));
      }
      for (int i = 0; i < 64; i++) {
        assertThat(answers.get(i).get()).isEqualTo(i + "\n");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void logs_goToTheServersDirectory() {
    assertThat(server.directory().resolve("log/clickhouse-server.err.log")).exists();
    assertThat(Files.exists(server.directory().resolve("orphaned"))).isFalse();
  }
}
