package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, stopping, failing and cleaning up: each test with servers of its own. */
final class ServerLifecycleTest {

  @Test
  void close_stopsTheProcess_freesThePort_deletesTheDirectory_andIsIdempotent() {
    ClickHouseServer server = ClickHouseServer.start();
    long pid = server.pid();
    int port = server.httpPort();
    Path directory = server.directory();
    assertThat(answers(port)).isTrue();

    server.close();

    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(server.isRunning()).isFalse();
    assertThat(server.pid()).isEqualTo(-1);
    assertThat(answers(port)).as("port %d answers after close", port).isFalse();
    assertThat(directory).doesNotExist();
    server.close();
    assertThatThrownBy(() -> server.query("SELECT 1"))
        .isInstanceOfSatisfying(
            ClickHouseServerException.class,
            e -> {
              assertThat(e.httpStatus()).isEqualTo(-1);
              assertThat(e.getMessage()).contains("the server is not running");
            });
  }

  @Test
  void stopAndResume_keepPortsAndMergeTreeData() {
    try (ClickHouseServer server = ClickHouseServer.start()) {
      int port = server.httpPort();
      long firstPid = server.pid();
      String db = server.createDatabase("survives");
      server.execute("CREATE TABLE " + db + ".t (a UInt32) ENGINE = MergeTree ORDER BY a");
      server.query("INSERT INTO " + db + ".t FORMAT TabSeparated", "7\n8\n".getBytes(UTF_8));

      server.stop();

      assertThat(server.isRunning()).isFalse();
      assertThat(answers(port)).isFalse();
      assertThatThrownBy(() -> server.query("SELECT 1"))
          .isInstanceOfSatisfying(
              ClickHouseServerException.class, e -> assertThat(e.httpStatus()).isEqualTo(-1));
      assertThat(server.directory().resolve("data")).isDirectory();

      server.resume();

      assertThat(server.httpPort()).isEqualTo(port);
      assertThat(server.pid()).isPositive().isNotEqualTo(firstPid);
      assertThat(server.query("SELECT sum(a) FROM " + db + ".t")).isEqualTo("15\n");
      server.resume(); // running: nothing to do
      assertThat(server.query("SELECT 1")).isEqualTo("1\n");
    }
  }

  @Test
  void resume_afterTheServerDied_startsItAgain() {
    try (ClickHouseServer server = ClickHouseServer.start()) {
      ProcessHandle.of(server.pid()).orElseThrow().destroyForcibly();
      await(() -> !server.isRunning(), 10_000);

      server.resume();

      assertThat(server.query("SELECT 1")).isEqualTo("1\n");
    }
  }

  @Test
  void start_retriesWithOtherPorts_whenAPortIsTaken() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      AtomicInteger calls = new AtomicInteger();
      Supplier<int[]> ports =
          () -> {
            int[] free = LocalMachine.freePorts();
            if (calls.incrementAndGet() == 1) {
              return new int[] {free[0], taken.getLocalPort()}; // the TCP port clashes
            }
            return free;
          };

      try (ClickHouseServer server =
          ClickHouseServer.start(new ClickHouseServer.Options(null, "UTC", ports), false)) {
        assertThat(calls).hasValue(2);
        assertThat(server.tcpPort()).isNotEqualTo(taken.getLocalPort());
        assertThat(server.query("SELECT 1")).isEqualTo("1\n");
      }
    }
  }

  @Test
  void start_givesUp_whenEveryAttemptFindsAPortTaken_andLeavesNothingBehind() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      AtomicInteger calls = new AtomicInteger();
      Supplier<int[]> ports =
          () -> {
            calls.incrementAndGet();
            return new int[] {taken.getLocalPort(), LocalMachine.freePorts()[0]};
          };

      ClickHouseServerException e =
          catchClickHouseServerException(
              () -> ClickHouseServer.start(new ClickHouseServer.Options(null, "UTC", ports), false));

      assertThat(e)
          .hasMessageContaining("port taken on each of " + ClickHouseServer.PORT_ATTEMPTS)
          .hasMessageContaining("Address already in use");
      assertThat(calls).hasValue(ClickHouseServer.PORT_ATTEMPTS);
      assertThat(serverDirectoryNamedIn(e)).doesNotExist();
    }
  }

  @Test
  void start_whenTheServerExitsDuringStartup_reportsItsLogs_andLeavesNothingBehind() {
    ClickHouseServerException e =
        catchClickHouseServerException(
            () ->
                ClickHouseServer.start(
                    new ClickHouseServer.Options(null, "Not/AZone", LocalMachine::freePorts),
                    false));

    assertThat(e)
        .hasMessageContaining("exited with status")
        .hasMessageContaining("during startup")
        .hasMessageContaining("Not/AZone"); // 18.16 says so on stderr, not in its error log
    assertThat(serverDirectoryNamedIn(e)).doesNotExist();
  }

  @Test
  void start_withABinaryThatIsNotClickHouse_failsWithItsOutput(@TempDir Path dir)
      throws IOException {
    Path fake = dir.resolve("clickhouse-server");
    Files.writeString(fake, "#!/bin/sh\necho 'fake server: no such option' >&2\nexit 3\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));

    assertThatThrownBy(
            () ->
                ClickHouseServer.start(
                    new ClickHouseServer.Options(fake, "UTC", LocalMachine::freePorts), false))
        .isInstanceOf(ClickHouseServerException.class)
        .hasMessageContaining("exited with status 3")
        .hasMessageContaining("fake server: no such option");
  }

  @Test
  void locateBinary_findsItOnPathOrInSbin_andOtherwiseSaysHowToInstallIt(@TempDir Path dir)
      throws IOException {
    assertThat(LocalMachine.locateBinary()).isExecutable();

    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path binary = Files.writeString(bin.resolve("clickhouse-server"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwx------"));
    assertThat(LocalMachine.locateBinary(null, "/nonexistent:" + bin, List.of()))
        .isEqualTo(binary);
    assertThat(LocalMachine.locateBinary(null, null, List.of(bin.toString())))
        .isEqualTo(binary);
    assertThat(LocalMachine.locateBinary(binary.toString(), null, List.of()))
        .isEqualTo(binary);

    assertThatThrownBy(() -> LocalMachine.locateBinary(null, dir.toString(), List.of()))
        .isInstanceOf(ClickHouseServerException.class)
        .hasMessageContaining("clickhouse-server is not installed")
        .hasMessageContaining("apt-get install clickhouse-server");
    assertThatThrownBy(
            () -> LocalMachine.locateBinary(dir.resolve("none").toString(), null, List.of()))
        .isInstanceOf(ClickHouseServerException.class)
        .hasMessageContaining(ClickHouseServer.BINARY_PROPERTY);
  }

  /**
   * A JVM killed with SIGKILL runs no shutdown hook; the wrapper shell notices that its stdin (a
   * pipe from the JVM) closed, stops the server and deletes its directory.
   */
  @Test
  void serverOfAJvmKilledWithSigkill_stopsAndItsDirectoryIsDeleted() throws Exception {
    Path basedir = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    String classPath =
        basedir.resolve("target/classes") + java.io.File.pathSeparator
            + basedir.resolve("target/test-classes");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(java.toString(), "-cp", classPath, OrphanChild.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    long serverPid;
    int port;
    Path directory;
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8));
      String line = out.readLine();
      assertThat(line).as("the child JVM's report").isNotNull();
      String[] parts = line.split(" ", 3);
      serverPid = Long.parseLong(parts[0]);
      port = Integer.parseInt(parts[1]);
      directory = Path.of(parts[2]);
      assertThat(answers(port)).isTrue();
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }

    await(() -> ProcessHandle.of(serverPid).filter(ProcessHandle::isAlive).isEmpty(), 20_000);
    await(() -> !Files.exists(directory), 10_000);
    assertThat(answers(port)).isFalse();
  }

  private static boolean answers(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static ClickHouseServerException catchClickHouseServerException(Runnable start) {
    try {
      start.run();
    } catch (ClickHouseServerException e) {
      return e;
    }
    throw new AssertionError("start did not fail");
  }

  /** The server directory that a startup failure's message names (its logs are in it). */
  private static Path serverDirectoryNamedIn(ClickHouseServerException e) {
    Matcher m =
        Pattern.compile("(/\\S*" + ServerDirectory.PREFIX + "\\d+)")
            .matcher(e.getMessage());
    assertThat(m.find()).as("a server directory in: %s", e.getMessage()).isTrue();
    return Path.of(m.group(1));
  }

  private static void await(BooleanSupplier condition, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("condition not met within " + timeoutMillis + " ms");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
