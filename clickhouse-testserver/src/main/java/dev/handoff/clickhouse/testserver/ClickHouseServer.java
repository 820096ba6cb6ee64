package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A throwaway local ClickHouse server for integration tests.
 *
 * <p>{@link #start()} runs the installed {@code clickhouse-server} (Debian package, 18.16 on CI;
 * found on {@code PATH}, in {@code /usr/sbin} or at the system property {@value #BINARY_PROPERTY})
 * as a child process. The server gets a fresh temp directory for its config, data and logs, and
 * listens only on {@code 127.0.0.1}, on an HTTP port and a TCP (native protocol) port picked free
 * at start. {@code start()} returns once {@code GET /ping} answers {@code Ok.}, usually within a
 * fraction of a second (the limit is 60 s). {@link #close()} stops the server and deletes the
 * directory.
 *
 * <h2>Using it from a test</h2>
 *
 * <p>Most tests share one server per test JVM, because every test class that starts its own pays
 * the start and stop time:
 *
 * <pre>{@code
 * static final ClickHouseServer server = ClickHouseServer.shared();  // starts on first use
 *
 * @Test
 * void roundTrip() {
 *   String db = server.uniqueDatabase("rowbinary");                 // a fresh, empty database
 *   server.execute("CREATE TABLE " + db + ".t (a UInt8, b String) ENGINE = Memory");
 *   server.query("INSERT INTO " + db + ".t FORMAT RowBinary", new byte[] {1, 3, 'o', 'n', 'e'});
 *   assertThat(server.query("SELECT * FROM " + db + ".t FORMAT TabSeparated"))
 *       .isEqualTo("1\tone\n");
 * }
 * }</pre>
 *
 * <p>A test that needs a server of its own (it stops or breaks the server, or must see an empty
 * instance) starts one and closes it:
 *
 * <pre>{@code
 * try (ClickHouseServer server = ClickHouseServer.start()) {
 *   writer = new MyWriter(server.httpUrl());                        // "http://127.0.0.1:<port>"
 *   server.stop();                                                  // simulate an outage
 *   server.resume();                                                // same ports, same data dir
 * }
 * }</pre>
 *
 * <h2>What the server is like</h2>
 *
 * <ul>
 *   <li>One user, {@code default}, without a password, allowed from {@code 127.0.0.1} only.
 *   <li>Server time zone {@code Etc/UTC}, whatever the machine's, as for the golden vectors.
 *   <li>The {@code default} profile sets {@code allow_experimental_low_cardinality_type=1}, so
 *       tables with {@code LowCardinality} columns can be created on 18.16 without a setting per
 *       query.
 *   <li>Logs at level {@code warning} in {@code <directory>/log}; no query log, no interserver
 *       port, small mark and uncompressed caches.
 * </ul>
 *
 * <h2>Requests</h2>
 *
 * <p>{@link #query(String)} POSTs the SQL as the body; {@link #query(String, byte[])} puts the SQL
 * (an {@code INSERT ... FORMAT X}) in the URL and sends the bytes as the body. Every request has
 * {@code wait_end_of_query=1}, so the server buffers the result and an error during the query
 * comes back as an HTTP error status (without it, 18.16 answers {@code 200} and appends the error
 * text to the data it already sent). Any status other than 200 throws {@link
 * ClickHouseServerException} with the status and the server's {@code Code: ...} message.
 *
 * <p>Requests time out after 120 s. The server closes idle HTTP connections after 3 s ({@code
 * keep_alive_timeout}, as in the packaged config), so clients under test meet that too.
 *
 * <h2>Lifetime</h2>
 *
 * <p>Servers never outlive the JVM: a shutdown hook stops every server still running at JVM exit.
 * If the JVM dies without running hooks (SIGKILL, {@code Runtime.halt}), a small {@code /bin/sh}
 * wrapper between the JVM and the server sees its stdin pipe from the JVM close, stops the server
 * and deletes its directory. Servers are thread-safe; requests may be sent from any thread.
 *
 * <p>Starting takes about 0.1 to 0.2 s on 18.16. Stopping ({@link #stop()}, {@link #close()})
 * takes about 1 s, plus up to the 3 s keep-alive timeout while any client (this harness included)
 * holds an idle connection: 18.16 waits for those before it exits. A test that needs many fresh
 * servers is slow; one that needs an empty database should use {@link #uniqueDatabase(String)}.
 *
 * <h2>ClickHouse 18.16 notes</h2>
 *
 * <ul>
 *   <li>It runs as root without complaint and does not check who owns the data directory (later
 *       versions refuse a directory owned by another user); as any other user it works the same,
 *       since the directory is that user's own temp directory.
 *   <li>A port that is taken makes it exit (status 70, {@code Address already in use} in its
 *       error log); {@link #start()} then retries with other ports, up to 5 times.
 *   <li>Some startup errors (a bad time zone, say) go to its stderr, not its error log; a failed
 *       start reports the tail of both.
 *   <li>It reports the time zone {@code UTC} as {@code Etc/UTC}, prints {@code DateTime} 0 as
 *       {@code 0000-00-00 00:00:00}, and has no {@code EXISTS DATABASE}.
 * </ul>
 */
public final class ClickHouseServer implements AutoCloseable {
  /** System property naming the {@code clickhouse-server} binary to run instead of the search. */
  public static final String BINARY_PROPERTY = "clickhouse.server.binary";

  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  static final Duration POLL_INTERVAL = Duration.ofMillis(100);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
  static final Duration PING_TIMEOUT = Duration.ofSeconds(2);
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final int PORT_ATTEMPTS = 5;
  static final int LOG_TAIL_LINES = 40;
  static final String LOOPBACK = "127.0.0.1";
  static final String DIRECTORY_PREFIX = "handoff-clickhouse-";

  private static final String BINARY_NAME = "clickhouse-server";
  private static final List<String> FALLBACK_DIRECTORIES =
      List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin");
  private static final String PORT_CLASH = "Address already in use";
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * Sits between the JVM and the server: {@code /bin/sh -c WRAPPER <name> <dir> <stdout> <stderr>
   * <binary> <args...>}. It prints the server's pid, then waits for the server and exits with its status.
   * A watcher reads the wrapper's stdin, a pipe only the JVM writes to and never does: it reaches
   * end of file only when the JVM closes it or dies. The JVM closes it only after the wrapper has
   * exited, so end of file while the server runs means the JVM is gone without stopping it: the
   * watcher then stops the server (TERM, KILL after 10 s) and the wrapper deletes the directory.
   */
  private static final String WRAPPER =
      """
      dir=$1; out=$2; err=$3; shift 3
      exec 3<&0
      "$@" </dev/null >"$out" 2>"$err" 3<&- &
      pid=$!
      echo "$pid"
      exec >/dev/null
      (
        read -r _ <&3
        : >"$dir/orphaned"
        kill -TERM "$pid" 2>/dev/null
        sleep 10
        kill -KILL "$pid" 2>/dev/null
      ) &
      watcher=$!
      exec 3<&-
      wait "$pid"
      rc=$?
      kill "$watcher" 2>/dev/null
      if [ -e "$dir/orphaned" ]; then rm -rf -- "$dir"; fi
      exit "$rc"
      """;

  private static final Set<ClickHouseServer> LIVE = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();
  private static final AtomicInteger DATABASE_COUNTER = new AtomicInteger();

  private static ClickHouseServer sharedServer; // guarded by ClickHouseServer.class
  private static RuntimeException sharedFailure; // guarded by ClickHouseServer.class

  private final Options options;
  private final Path binary;
  private final Path directory;
  private final boolean shared;
  private final String token = "handoff-clickhouse-test-server " + UUID.randomUUID();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(CONNECT_TIMEOUT)
          .build();

  private volatile int httpPort;
  private volatile int tcpPort;
  private volatile URI base;
  private volatile Duration startupTime = Duration.ZERO;
  private volatile Process wrapper; // written under this
  private volatile ProcessHandle process; // written under this
  private boolean closed; // guarded by this

  private ClickHouseServer(Options options, Path binary, Path directory, boolean shared) {
    this.options = options;
    this.binary = binary;
    this.directory = directory;
    this.shared = shared;
  }

  /**
   * Starts a new server of its own for the caller, who must {@link #close()} it.
   *
   * @throws ClickHouseServerException if {@code clickhouse-server} is not installed, exits during
   *     startup (the message holds the tail of its logs), or does not answer within 60 s
   */
  public static ClickHouseServer start() {
    return start(Options.DEFAULTS, false);
  }

  /**
   * The server shared by every caller in this JVM: started on the first call, stopped at JVM exit.
   * Its {@link #close()} does nothing, and {@link #stop()} and {@link #resume()} refuse, since
   * other test classes use it; isolate tests with {@link #uniqueDatabase(String)}. If the shared
   * server has died (a crash, say), the next call starts a new one (with none of the old data) and
   * says so on {@code System.err}. If starting it failed once, every later call fails at once with
   * that failure as the cause, instead of waiting again.
   */
  public static synchronized ClickHouseServer shared() {
    if (sharedServer != null && sharedServer.isRunning()) {
      return sharedServer;
    }
    if (sharedFailure != null) {
      throw new ClickHouseServerException(
          "the shared ClickHouse test server failed to start earlier in this JVM", sharedFailure);
    }
    if (sharedServer != null) {
      System.err.println(
          "[ClickHouseServer] the shared server at " + sharedServer.httpUrl()
              + " is no longer running; starting a new one. Its logs:\n"
              + sharedServer.diagnostics());
      sharedServer.terminate();
      sharedServer = null;
    }
    try {
      sharedServer = start(Options.DEFAULTS, true);
    } catch (RuntimeException e) {
      sharedFailure = e;
      throw e;
    }
    return sharedServer;
  }

  static ClickHouseServer start(Options options, boolean shared) {
    Path binary = options.binary() != null ? options.binary() : locateBinary();
    installShutdownHook();
    Path directory;
    try {
      directory = Files.createTempDirectory(DIRECTORY_PREFIX);
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot create a temp directory for ClickHouse", e);
    }
    ClickHouseServer server = new ClickHouseServer(options, binary, directory, shared);
    LIVE.add(server);
    try {
      server.launchOnFreePorts();
      return server;
    } catch (RuntimeException | Error e) {
      try {
        server.terminate();
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /** {@code http://127.0.0.1:<httpPort>}, without a trailing slash. */
  public String httpUrl() {
    return "http://" + LOOPBACK + ":" + httpPort;
  }

  /** The HTTP port on {@code 127.0.0.1}. */
  public int httpPort() {
    return httpPort;
  }

  /** The native-protocol TCP port on {@code 127.0.0.1} ({@code clickhouse-client --port}). */
  public int tcpPort() {
    return tcpPort;
  }

  /** The server's temp directory: {@code config.xml}, {@code users.xml}, {@code data/}, {@code log/}. */
  public Path directory() {
    return directory;
  }

  /** The pid of the {@code clickhouse-server} process, or {@code -1} when it is not running. */
  public long pid() {
    ProcessHandle server = process;
    return server != null && server.isAlive() ? server.pid() : -1;
  }

  /** Whether the server process is alive (it may still be starting up or shutting down). */
  public boolean isRunning() {
    Process launched = wrapper;
    ProcessHandle server = process;
    return launched != null && launched.isAlive() && server != null && server.isAlive();
  }

  /** How long the last start took, from launching the process to the first good {@code /ping}. */
  public Duration startupTime() {
    return startupTime;
  }

  /**
   * Sends {@code sql} as the body of a POST and returns the response body as UTF-8 text, for
   * example {@code "1\tone\n"} for {@code SELECT ... FORMAT TabSeparated}; empty for statements
   * without a result.
   *
   * @throws ClickHouseServerException with the HTTP status and the server's message when the
   *     status is not 200, or with status {@code -1} when no HTTP answer came
   */
  public String query(String sql) {
    return new String(queryBytes(sql), UTF_8);
  }

  /** As {@link #query(String)}, returning the raw bytes (for {@code FORMAT RowBinary} and the like). */
  public byte[] queryBytes(String sql) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri("")).POST(HttpRequest.BodyPublishers.ofString(sql, UTF_8));
    return send(sql, request);
  }

  /**
   * Runs {@code sql} with {@code body} as its data: {@code sql} goes in the URL ({@code
   * ?query=...}) and the bytes are the POST body, the way ClickHouse takes {@code INSERT INTO t
   * FORMAT RowBinary} followed by the rows. Returns the response body (empty for an insert).
   *
   * @throws ClickHouseServerException as {@link #query(String)}
   */
  public String query(String sql, byte[] body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri("&query=" + urlEncode(sql)))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    return new String(send(sql, request), UTF_8);
  }

  /** Runs a statement whose result does not matter ({@code CREATE}, {@code DROP}, ...). */
  public void execute(String sql) {
    queryBytes(sql);
  }

  /**
   * Drops the database {@code name} if it exists and creates it empty; returns {@code name}.
   *
   * @throws IllegalArgumentException unless {@code name} is a plain identifier ({@code
   *     [A-Za-z_][A-Za-z0-9_]*})
   */
  public String createDatabase(String name) {
    if (!IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException("not a plain database name: " + name);
    }
    execute("DROP DATABASE IF EXISTS `" + name + "`");
    execute("CREATE DATABASE `" + name + "`");
    return name;
  }

  /**
   * Creates an empty database whose name starts with {@code prefix} and is unique in this JVM
   * ({@code prefix_1}, {@code prefix_2}, ...), so tests sharing a server do not see each other's
   * tables; returns its name.
   */
  public String uniqueDatabase(String prefix) {
    return createDatabase(prefix + "_" + DATABASE_COUNTER.incrementAndGet());
  }

  /**
   * Stops the server process (SIGTERM, then SIGKILL after 10 s) but keeps its directory and ports,
   * so {@link #resume()} can start it again: for tests of what a client does while the server is
   * down. {@code Memory} tables are gone after a resume; {@code MergeTree} tables stay.
   *
   * @throws IllegalStateException on the {@link #shared()} server or after {@link #close()}
   */
  public synchronized void stop() {
    checkOwnAndOpen("stop");
    stopProcess();
  }

  /**
   * Starts the server again after {@link #stop()}, on the same ports and with the same data; does
   * nothing if it is running. Waits until it answers, like {@link #start()}.
   *
   * @throws ClickHouseServerException if it does not come up, for instance because another process
   *     took one of its ports meanwhile
   * @throws IllegalStateException on the {@link #shared()} server or after {@link #close()}
   */
  public synchronized void resume() {
    checkOwnAndOpen("resume");
    if (isRunning()) {
      return;
    }
    stopProcess(); // clears what is left of a crashed process
    try {
      launchProcess(false);
    } catch (PortClash clash) {
      throw new ClickHouseServerException(
          "cannot restart ClickHouse on its ports (http " + httpPort + ", tcp " + tcpPort
              + "): another process took one of them.\n" + clash.getMessage());
    }
  }

  /**
   * Stops the server (SIGTERM, then SIGKILL after 10 s) and deletes its directory. Idempotent. Does
   * nothing on the {@link #shared()} server, which stops at JVM exit.
   *
   * @throws ClickHouseServerException if the directory cannot be deleted
   */
  @Override
  public void close() {
    if (shared) {
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    LIVE.remove(this);
    stopProcess();
    deleteDirectory();
  }

  @Override
  public String toString() {
    return "ClickHouseServer{" + httpUrl() + ", tcp " + tcpPort + ", " + directory
        + (shared ? ", shared" : "") + '}';
  }

  // ---------------------------------------------------------------------------------- start-up

  private void launchOnFreePorts() {
    PortClash last = null;
    for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      int[] ports = options.ports().get();
      httpPort = ports[0];
      tcpPort = ports[1];
      base = URI.create(httpUrl() + "/");
      writeConfig();
      try {
        synchronized (this) {
          launchProcess(true);
        }
        return;
      } catch (PortClash clash) {
        last = clash;
      }
    }
    throw new ClickHouseServerException(
        "ClickHouse found a port taken on each of " + PORT_ATTEMPTS + " attempts; the last:\n"
            + last.getMessage());
  }

  /** Starts the process and waits until it answers; throws PortClash if a port is taken. */
  private void launchProcess(boolean freshLogs) throws PortClash {
    Path log = directory.resolve("log");
    try {
      Files.createDirectories(log);
      Files.deleteIfExists(directory.resolve("orphaned"));
      if (freshLogs) {
        try (Stream<Path> files = Files.list(log)) {
          for (Path file : (Iterable<Path>) files::iterator) {
            Files.delete(file);
          }
        }
      }
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot prepare " + log, e);
    }
    List<String> command =
        List.of(
            "/bin/sh", "-c", WRAPPER, "clickhouse-test-server",
            directory.toString(),
            log.resolve("stdout.log").toString(),
            log.resolve("stderr.log").toString(),
            binary.toString(),
            "--config-file=" + directory.resolve("config.xml"));
    long started = System.nanoTime();
    Process launched;
    try {
      launched =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectOutput(ProcessBuilder.Redirect.PIPE)
              .redirectError(ProcessBuilder.Redirect.appendTo(log.resolve("wrapper.log").toFile()))
              .start();
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot run " + binary + " through /bin/sh", e);
    }
    wrapper = launched;
    long pid = readPid(launched);
    process = ProcessHandle.of(pid).orElse(null);
    awaitReady(launched, started);
  }

  private long readPid(Process launched) {
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(launched.getInputStream(), UTF_8));
      String line = out.readLine();
      out.close();
      if (line == null) {
        throw new ClickHouseServerException(
            "the wrapper shell exited before starting " + binary + "\n" + diagnostics());
      }
      return Long.parseLong(line.strip());
    } catch (IOException | NumberFormatException e) {
      throw new ClickHouseServerException("cannot read the pid of " + binary, e);
    }
  }

  private void awaitReady(Process launched, long started) throws PortClash {
    long deadline = started + STARTUP_TIMEOUT.toNanos();
    while (true) {
      if (!launched.isAlive()) {
        String logs = diagnostics();
        stopProcess();
        if (logs.contains(PORT_CLASH)) {
          throw new PortClash(logs);
        }
        throw new ClickHouseServerException(
            binary + " exited with status " + launched.exitValue() + " during startup (directory "
                + directory + ").\n" + logs);
      }
      if (answers()) {
        startupTime = Duration.ofNanos(System.nanoTime() - started);
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        String logs = diagnostics();
        stopProcess();
        throw new ClickHouseServerException(
            binary + " did not answer GET " + base + "ping within " + STARTUP_TIMEOUT.toSeconds()
                + " s (directory " + directory + ").\n" + logs);
      }
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopProcess();
        throw new ClickHouseServerException("interrupted while waiting for ClickHouse to start", e);
      }
    }
  }

  /**
   * {@code /ping} answers {@code Ok.}, and {@code GET /} answers this server's token: another
   * server that grabbed the port between picking and binding answers the ping too, but not with
   * our token (ours then fails to bind, exits, and the port clash is retried).
   */
  private boolean answers() {
    try {
      HttpResponse<String> ping =
          http.send(
              HttpRequest.newBuilder(base.resolve("ping")).timeout(PING_TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      if (ping.statusCode() != 200 || !ping.body().strip().equals("Ok.")) {
        return false;
      }
      HttpResponse<String> root =
          http.send(
              HttpRequest.newBuilder(base).timeout(PING_TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      return root.statusCode() == 200 && root.body().strip().equals(token);
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void writeConfig() {
    String dir = xml(directory.toString());
    String config =
        """
        <?xml version="1.0"?>
        <!-- Written by dev.handoff.clickhouse.testserver.ClickHouseServer for one test server. -->
        <yandex>
          <logger>
            <level>warning</level>
            <log>%1$s/log/clickhouse-server.log</log>
            <errorlog>%1$s/log/clickhouse-server.err.log</errorlog>
            <size>100M</size>
            <count>1</count>
          </logger>
          <listen_host>%2$s</listen_host>
          <http_port>%3$d</http_port>
          <tcp_port>%4$d</tcp_port>
          <http_server_default_response>%5$s</http_server_default_response>
          <path>%1$s/data/</path>
          <tmp_path>%1$s/tmp/</tmp_path>
          <user_files_path>%1$s/user_files/</user_files_path>
          <format_schema_path>%1$s/format_schemas/</format_schema_path>
          <users_config>%1$s/users.xml</users_config>
          <default_profile>default</default_profile>
          <default_database>default</default_database>
          <timezone>%6$s</timezone>
          <mark_cache_size>67108864</mark_cache_size>
          <uncompressed_cache_size>67108864</uncompressed_cache_size>
          <max_concurrent_queries>100</max_concurrent_queries>
          <keep_alive_timeout>3</keep_alive_timeout>
          <mlock_executable>false</mlock_executable>
        </yandex>
        """;
    config =
        String.format(
            Locale.ROOT, config, dir, LOOPBACK, httpPort, tcpPort, xml(token),
            xml(options.timezone()));
    String users =
        """
        <?xml version="1.0"?>
        <!-- Written by dev.handoff.clickhouse.testserver.ClickHouseServer for one test server. -->
        <yandex>
          <profiles>
            <default>
              <allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type>
            </default>
          </profiles>
          <users>
            <default>
              <password></password>
              <networks>
                <ip>%s</ip>
              </networks>
              <profile>default</profile>
              <quota>default</quota>
            </default>
          </users>
          <quotas>
            <default></default>
          </quotas>
        </yandex>
        """
            .replace("%s", LOOPBACK);
    try {
      Files.writeString(directory.resolve("config.xml"), config, UTF_8);
      Files.writeString(directory.resolve("users.xml"), users, UTF_8);
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot write the ClickHouse config in " + directory, e);
    }
  }

  // ----------------------------------------------------------------------------------- stopping

  /** Stops the process if there is one and waits for it; keeps the directory. */
  private synchronized void stopProcess() {
    Process launched = wrapper;
    ProcessHandle server = process;
    if (launched == null) {
      return;
    }
    if (server != null && server.isAlive()) {
      server.destroy(); // SIGTERM: ClickHouse shuts down cleanly
    }
    if (!awaitExit(launched, server, STOP_TIMEOUT)) {
      if (server != null) {
        server.destroyForcibly();
      }
      if (!awaitExit(launched, server, KILL_TIMEOUT)) {
        launched.destroyForcibly();
      }
    }
    // Only now, with the wrapper gone, may its stdin close (see WRAPPER).
    closeQuietly(launched.getOutputStream());
    wrapper = null;
    process = null;
  }

  private static boolean awaitExit(Process launched, ProcessHandle server, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      if (!launched.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        return false;
      }
      while (server != null && server.isAlive()) {
        if (System.nanoTime() - deadline > 0) {
          return false;
        }
        Thread.sleep(20);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Stops the process and deletes the directory, whatever kind of server this is. */
  private void terminate() {
    synchronized (this) {
      closed = true;
    }
    LIVE.remove(this);
    stopProcess();
    deleteDirectory();
  }

  private void deleteDirectory() {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        deleteTree(directory);
        return;
      } catch (IOException e) {
        last = e;
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    throw new ClickHouseServerException("cannot delete " + directory, last);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(root)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (Path path : paths) {
      try {
        Files.delete(path);
      } catch (NoSuchFileException gone) {
        // deleted meanwhile
      }
    }
  }

  private static void installShutdownHook() {
    if (HOOK_INSTALLED.compareAndSet(false, true)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(ClickHouseServer::stopAllAtExit, "clickhouse-test-server-shutdown"));
    }
  }

  private static void stopAllAtExit() {
    List<ClickHouseServer> servers = new ArrayList<>(LIVE);
    for (ClickHouseServer server : servers) {
      ProcessHandle process = server.process;
      if (process != null && process.isAlive()) {
        process.destroy(); // SIGTERM all of them at once, then wait for each
      }
    }
    for (ClickHouseServer server : servers) {
      try {
        server.terminate();
      } catch (RuntimeException e) {
        System.err.println("[ClickHouseServer] at JVM exit: " + e);
      }
    }
  }

  // ------------------------------------------------------------------------------------ helpers

  private byte[] send(String sql, HttpRequest.Builder request) {
    HttpResponse<byte[]> response;
    try {
      response =
          http.send(
              request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new ClickHouseServerException(
          "no answer from ClickHouse at " + httpUrl()
              + (isRunning() ? "" : " (the server is not running)") + " for [" + sql + "]: " + e,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClickHouseServerException("interrupted while waiting for ClickHouse", e);
    }
    if (response.statusCode() != 200) {
      throw new ClickHouseServerException(
          response.statusCode(), new String(response.body(), UTF_8), sql);
    }
    return response.body();
  }

  private URI uri(String extraParameters) {
    return base.resolve("?wait_end_of_query=1" + extraParameters);
  }

  private static String urlEncode(String text) {
    return URLEncoder.encode(text, UTF_8).replace("+", "%20");
  }

  private static String xml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static void closeQuietly(OutputStream stream) {
    try {
      stream.close();
    } catch (IOException ignored) {
      // the wrapper is gone; nothing reads the pipe
    }
  }

  private void checkOwnAndOpen(String operation) {
    if (shared) {
      throw new IllegalStateException(
          "cannot " + operation + " the shared ClickHouse server, other tests use it;"
              + " use ClickHouseServer.start() for a server of your own");
    }
    if (closed) {
      throw new IllegalStateException("cannot " + operation + " a closed ClickHouseServer");
    }
  }

  /** The last lines of the server's error log and of its stderr. */
  String diagnostics() {
    Path log = directory.resolve("log");
    return "--- " + log.resolve("clickhouse-server.err.log") + " (last lines):\n"
        + tail(log.resolve("clickhouse-server.err.log"))
        + "--- stderr (last lines):\n"
        + tail(log.resolve("stderr.log"))
        + tailIfAny(log.resolve("wrapper.log"));
  }

  private static String tailIfAny(Path file) {
    String tail = tail(file);
    return tail.isBlank() ? "" : "--- " + file.getFileName() + ":\n" + tail;
  }

  private static String tail(Path file) {
    try {
      List<String> lines = new String(Files.readAllBytes(file), UTF_8).lines().toList();
      List<String> last = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
      return last.isEmpty() ? "(empty)\n" : String.join("\n", last) + "\n";
    } catch (NoSuchFileException e) {
      return "(none)\n";
    } catch (IOException e) {
      return "(unreadable: " + e + ")\n";
    }
  }

  /** The {@code clickhouse-server} to run: the system property, else PATH, else /usr/sbin etc. */
  static Path locateBinary() {
    return locateBinary(
        System.getProperty(BINARY_PROPERTY), System.getenv("PATH"), FALLBACK_DIRECTORIES);
  }

  static Path locateBinary(String configured, String pathVariable, List<String> fallbacks) {
    if (configured != null && !configured.isBlank()) {
      Path path = Path.of(configured);
      if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
        throw new ClickHouseServerException(
            "-D" + BINARY_PROPERTY + "=" + configured + " is not an executable file");
      }
      return path;
    }
    List<String> directories = new ArrayList<>();
    if (pathVariable != null) {
      directories.addAll(List.of(pathVariable.split(java.io.File.pathSeparator)));
    }
    directories.addAll(fallbacks);
    for (String dir : directories) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, BINARY_NAME);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new ClickHouseServerException(
        BINARY_NAME + " is not installed (looked on PATH and in " + fallbacks
            + "). The integration tests need a local ClickHouse server: install it with"
            + " `apt-get install clickhouse-server` (bash .ci/run does this on CI), or point -D"
            + BINARY_PROPERTY + " at the binary.");
  }

  /** Two distinct free ports on 127.0.0.1: bound to port 0 together, then released. */
  static int[] freePorts() {
    try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
        ServerSocket b = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return new int[] {a.getLocalPort(), b.getLocalPort()};
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot find free ports on " + LOOPBACK, e);
    }
  }

  /**
   * What {@link #start()} varies, for the harness's own tests.
   *
   * @param binary the server binary, or {@code null} to search for it
   * @param timezone the server time zone
   * @param ports gives {@code {httpPort, tcpPort}} for each start attempt
   */
  record Options(Path binary, String timezone, Supplier<int[]> ports) {
    static final Options DEFAULTS = new Options(null, "Etc/UTC", ClickHouseServer::freePorts);
  }

  /** The server could not bind one of its ports. */
  private static final class PortClash extends Exception {
    private static final long serialVersionUID = 1L;

    PortClash(String logs) {
      super(logs, null, false, false);
    }
  }
}
