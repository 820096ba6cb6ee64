package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;

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

  static final int PORT_ATTEMPTS = 5;
  static final String LOOPBACK = "127.0.0.1";

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private static final AtomicInteger DATABASE_COUNTER = new AtomicInteger();

  private static ClickHouseServer sharedServer; // guarded by ClickHouseServer.class
  private static RuntimeException sharedFailure; // guarded by ClickHouseServer.class

  private final Options options;
  private final ServerDirectory directory;
  private final boolean shared;
  private final String token = "handoff-clickhouse-test-server " + UUID.randomUUID();
  private final QueryClient client = new QueryClient(this::isRunning);
  private final ServerProcess process;

  private volatile int httpPort;
  private volatile int tcpPort;
  private boolean closed; // guarded by this

  private ClickHouseServer(
      Options options, Path binary, ServerDirectory directory, boolean shared) {
    this.options = options;
    this.directory = directory;
    this.shared = shared;
    this.process = new ServerProcess(binary, directory, client, token);
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
   * Starts a new server of its own whose time zone (the {@code timezone} setting of its config,
   * what {@code timezone()} returns and what text without a zone is read in) is {@code
   * timezone}, say {@code Europe/Berlin}. The caller must {@link #close()} it.
   *
   * @throws ClickHouseServerException as {@link #start()} does
   */
  public static ClickHouseServer start(String timezone) {
    return start(new Options(null, timezone, LocalMachine::freePorts), false);
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
              + sharedServer.directory.diagnostics());
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
    Path binary = options.binary() != null ? options.binary() : LocalMachine.locateBinary();
    LiveServers.installShutdownHook();
    ServerDirectory directory = ServerDirectory.create();
    ClickHouseServer server = new ClickHouseServer(options, binary, directory, shared);
    LiveServers.add(server);
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
    return directory.path();
  }

  /** The pid of the {@code clickhouse-server} process, or {@code -1} when it is not running. */
  public long pid() {
    return process.pid();
  }

  /** Whether the server process is alive (it may still be starting up or shutting down). */
  public boolean isRunning() {
    return process.isRunning();
  }

  /** How long the last start took, from launching the process to the first good {@code /ping}. */
  public Duration startupTime() {
    return process.startupTime();
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
    return client.query(sql);
  }

  /**
   * Runs {@code sql} with {@code body} as its data: {@code sql} goes in the URL ({@code
   * ?query=...}) and the bytes are the POST body, the way ClickHouse takes {@code INSERT INTO t
   * FORMAT RowBinary} followed by the rows. Returns the response body (empty for an insert).
   *
   * @throws ClickHouseServerException as {@link #query(String)}
   */
  public String query(String sql, byte[] body) {
    return new String(client.query(sql, body), UTF_8);
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
      process.launch(false);
    } catch (ServerProcess.PortClash clash) {
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
    LiveServers.remove(this);
    stopProcess();
    directory.delete();
  }

  @Override
  public String toString() {
    return "ClickHouseServer{" + httpUrl() + ", tcp " + tcpPort + ", " + directory.path()
        + (shared ? ", shared" : "") + '}';
  }

  // ---------------------------------------------------------------------------------- start-up

  private void launchOnFreePorts() {
    ServerProcess.PortClash last = null;
    for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      int[] ports = options.ports().get();
      httpPort = ports[0];
      tcpPort = ports[1];
      client.target(httpUrl());
      directory.writeConfig(httpPort, tcpPort, token, options.timezone());
      try {
        synchronized (this) {
          process.launch(true);
        }
        return;
      } catch (ServerProcess.PortClash clash) {
        last = clash;
      }
    }
    throw new ClickHouseServerException(
        "ClickHouse found a port taken on each of " + PORT_ATTEMPTS + " attempts; the last:\n"
            + last.getMessage());
  }

  // ----------------------------------------------------------------------------------- stopping

  /** Stops the process if there is one and waits for it; keeps the directory. */
  private synchronized void stopProcess() {
    process.stop();
  }

  /** Stops the process and deletes the directory, whatever kind of server this is. */
  void terminate() {
    synchronized (this) {
      closed = true;
    }
    LiveServers.remove(this);
    stopProcess();
    directory.delete();
  }

  /** The server process, or {@code null} before a launch and after a stop (for the exit hook). */
  ProcessHandle processHandle() {
    return process.handle();
  }

  // ------------------------------------------------------------------------------------ helpers

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

  /**
   * What {@link #start()} varies, for the harness's own tests.
   *
   * @param binary the server binary, or {@code null} to search for it
   * @param timezone the server time zone
   * @param ports gives {@code {httpPort, tcpPort}} for each start attempt
   */
  record Options(Path binary, String timezone, Supplier<int[]> ports) {
    static final Options DEFAULTS = new Options(null, "Etc/UTC", LocalMachine::freePorts);
  }
}
