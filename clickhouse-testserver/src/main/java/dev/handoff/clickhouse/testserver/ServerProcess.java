package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code clickhouse-server} process of one server, run through a small {@code /bin/sh}
 * wrapper: launches it, waits until it answers, and stops it (SIGTERM, then SIGKILL). {@link
 * ClickHouseServer} calls {@link #launch(boolean)} and {@link #stop()} holding its own lock; the
 * state they write is volatile, so any thread may read it.
 */
final class ServerProcess {
  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  static final Duration POLL_INTERVAL = Duration.ofMillis(100);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

  private static final String PORT_CLASH = "Address already in use";

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

  private final Path binary;
  private final ServerDirectory directory;
  private final QueryClient client;
  private final String token;

  private volatile Duration startupTime = Duration.ZERO;
  private volatile Process wrapper; // written under the server's lock
  private volatile ProcessHandle process; // written under the server's lock

  /** Runs {@code binary} in {@code directory}; ready once {@code client} sees {@code token}. */
  ServerProcess(Path binary, ServerDirectory directory, QueryClient client, String token) {
    this.binary = binary;
    this.directory = directory;
    this.client = client;
    this.token = token;
  }

  /** Whether the server process is alive (it may still be starting up or shutting down). */
  boolean isRunning() {
    Process launched = wrapper;
    ProcessHandle server = process;
    return launched != null && launched.isAlive() && server != null && server.isAlive();
  }

  /** The pid of the {@code clickhouse-server} process, or {@code -1} when it is not running. */
  long pid() {
    ProcessHandle server = process;
    return server != null && server.isAlive() ? server.pid() : -1;
  }

  /** The {@code clickhouse-server} process, or {@code null} before a launch and after a stop. */
  ProcessHandle handle() {
    return process;
  }

  /** How long the last start took, from launching the process to the first good {@code /ping}. */
  Duration startupTime() {
    return startupTime;
  }

  // ---------------------------------------------------------------------------------- start-up

  /** Starts the process and waits until it answers; throws PortClash if a port is taken. */
  void launch(boolean freshLogs) throws PortClash {
    directory.prepareLaunch(freshLogs);
    Path log = directory.log();
    List<String> command =
        List.of(
            "/bin/sh", "-c", WRAPPER, "clickhouse-test-server",
            directory.path().toString(),
            log.resolve("stdout.log").toString(),
            log.resolve("stderr.log").toString(),
            binary.toString(),
            "--config-file=" + directory.configFile());
    long started = System.nanoTime();
    Process launched;
    try {
      launched =
          new ProcessBuilder(command)
              .directory(directory.path().toFile())
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
            "the wrapper shell exited before starting " + binary + "\n" + directory.diagnostics());
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
        String logs = directory.diagnostics();
        stop();
        if (logs.contains(PORT_CLASH)) {
          throw new PortClash(logs);
        }
        throw new ClickHouseServerException(
            binary + " exited with status " + launched.exitValue() + " during startup (directory "
                + directory.path() + ").\n" + logs);
      }
      if (client.answers(token)) {
        startupTime = Duration.ofNanos(System.nanoTime() - started);
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        String logs = directory.diagnostics();
        stop();
        throw new ClickHouseServerException(
            binary + " did not answer GET " + client.base() + "ping within "
                + STARTUP_TIMEOUT.toSeconds() + " s (directory " + directory.path() + ").\n"
                + logs);
      }
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop();
        throw new ClickHouseServerException("interrupted while waiting for ClickHouse to start", e);
      }
    }
  }

  // ----------------------------------------------------------------------------------- stopping

  /** Stops the process if there is one and waits for it; keeps the directory. */
  void stop() {
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

  private static void closeQuietly(OutputStream stream) {
    try {
      stream.close();
    } catch (IOException ignored) {
      // the wrapper is gone; nothing reads the pipe
    }
  }

  /** The server could not bind one of its ports. */
  static final class PortClash extends Exception {
    private static final long serialVersionUID = 1L;

    PortClash(String logs) {
      super(logs, null, false, false);
    }
  }
}
