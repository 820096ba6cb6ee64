package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * One connection to a ClickHouse 26.7 engine (libchdb), open until {@link #close()}: a launcher
 * process that keeps the connection and runs the queries this object sends it, one at a time.
 * Open one with {@link Chdb#open()} or {@link Chdb#builder()}.
 *
 * <p>The session has a temp directory of its own ({@link #directory()}): the engine's data under
 * {@code data/}, files for {@code file()} and {@code INSERT ... FROM INFILE} under {@code files/}
 * ({@link #writeFile(String, byte[])}), the launcher's stderr in {@code launcher.log}. {@link
 * #close()} deletes it. The engine's time zone is UTC. Tables, databases and {@code SET}s last as
 * long as the session; the settings given to the builder are {@code SET} when it opens.
 *
 * <p>Thread-safe: queries from several threads run one after the other. A query that the engine
 * refuses throws {@link ChdbException} with the engine's text, and the session stays usable. A
 * launcher that dies (or is killed after the query timeout) closes the session, and the query
 * throws {@link ChdbException} with the tail of the launcher's stderr.
 */
public final class ChdbSession implements AutoCloseable {
  private static final Set<ChdbSession> LIVE = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");
  private static final int LOG_TAIL_CHARS = 4000;
  private static final long MAX_RESULT_BYTES = Integer.MAX_VALUE - 64;

  private final Process process;
  private final Path directory;
  private final Map<String, String> settings;
  private final Duration timeout;
  private final DataOutputStream out;
  private final DataInputStream in;
  private volatile boolean closed;
  private volatile boolean timedOut;

  private ChdbSession(Process process, Path directory, Map<String, String> settings,
      Duration timeout) {
    this.process = process;
    this.directory = directory;
    this.settings = Collections.unmodifiableMap(settings);
    this.timeout = timeout;
    this.out = new DataOutputStream(new BufferedOutputStream(process.getOutputStream(), 1 << 16));
    this.in = new DataInputStream(new BufferedInputStream(process.getInputStream(), 1 << 16));
  }

  static ChdbSession start(Path launcher, Map<String, String> settings, Duration timeout) {
    installShutdownHook();
    Path directory;
    Process process;
    try {
      directory = Files.createTempDirectory("handoff-chdb-");
      Files.createDirectories(directory.resolve("files"));
      ProcessBuilder builder = new ProcessBuilder(launcher.toString(), directory.toString())
          .redirectError(directory.resolve("launcher.log").toFile());
      builder.environment().put("TZ", "UTC");
      process = builder.start();
    } catch (IOException e) {
      throw new ChdbException("cannot start the chdb launcher " + launcher + ": " + e, e);
    }
    ChdbSession session = new ChdbSession(process, directory, settings, timeout);
    LIVE.add(session);
    try {
      session.awaitReady();
      for (Map.Entry<String, String> setting : settings.entrySet()) {
        session.execute("SET " + setting.getKey() + " = " + setting.getValue());
      }
      return session;
    } catch (RuntimeException | Error e) {
      session.close();
      throw e;
    }
  }

  /**
   * Runs {@code sql} and returns its result in {@code format} ({@code "RowBinary"}, {@code
   * "Native"}, {@code "JSONEachRow"}, {@code "TabSeparated"}, ...) as the engine wrote it; empty
   * for statements without a result.
   *
   * @throws ChdbException with the engine's error text when it refuses the query (the session
   *     stays open), or when the launcher dies or the query times out (the session is closed)
   * @throws IllegalStateException after {@link #close()}
   */
  public synchronized byte[] query(String sql, String format) {
    checkOpen();
    ScheduledFuture<?> watchdog = Watchdog.EXECUTOR.schedule(() -> {
      timedOut = true;
      process.destroyForcibly();
    }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      writeString(format);
      writeString(sql);
      out.flush();
      return readResponse(sql);
    } catch (IOException e) {
      throw died("during [" + abbreviate(sql) + "]", e);
    } finally {
      watchdog.cancel(false);
    }
  }

  /** As {@link #query(String, String)} in {@code TabSeparated}, as UTF-8 text ({@code "1\tone\n"}). */
  public String queryText(String sql) {
    return queryText(sql, "TabSeparated");
  }

  /** As {@link #query(String, String)}, decoding the result as UTF-8 text. */
  public String queryText(String sql, String format) {
    return new String(query(sql, format), UTF_8);
  }

  /** Runs a statement whose result does not matter ({@code CREATE}, {@code INSERT}, {@code SET}). */
  public void execute(String sql) {
    query(sql, "TabSeparated");
  }

  /**
   * Writes {@code bytes} to {@code files/<name>} in the session's directory, replacing what was
   * there, and returns its absolute path: for {@code file('<path>', 'RowBinary', 'v T')} and
   * {@code INSERT INTO t FROM INFILE '<path>' FORMAT Native} (quote it with {@link
   * Chdb#literal(String)}).
   *
   * @throws IllegalArgumentException unless {@code name} is a plain file name ({@code
   *     [A-Za-z0-9_-][A-Za-z0-9._-]*})
   * @throws ChdbException when the file cannot be written
   */
  public Path writeFile(String name, byte[] bytes) {
    if (!FILE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a plain file name: " + name);
    }
    checkOpen();
    Path path = directory.resolve("files").resolve(name).toAbsolutePath();
    try {
      Files.write(path, bytes);
    } catch (IOException e) {
      throw new ChdbException("cannot write " + path + ": " + e, e);
    }
    return path;
  }

  /** The engine's version, {@code SELECT version()}: {@value Chdb#ENGINE_VERSION} for the pinned package. */
  public String version() {
    return queryText("SELECT version()").strip();
  }

  /** The settings this session was opened with, in the order they were set. */
  public Map<String, String> settings() {
    return settings;
  }

  /** The session's temp directory (deleted by {@link #close()}). */
  public Path directory() {
    return directory;
  }

  /** The pid of the launcher process. */
  public long pid() {
    return process.pid();
  }

  /** Whether the session is open: not closed, and its launcher alive. */
  public boolean isOpen() {
    return !closed && process.isAlive();
  }

  /**
   * Closes the connection (the launcher exits when its input ends), waits up to 30 s for the
   * launcher, kills it if it is still there, and deletes the session's directory. Idempotent. Waits
   * for a query running in another thread to finish first.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LIVE.remove(this);
    try {
      out.close();
    } catch (IOException e) {
      // the launcher is gone already
    }
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    if (!ChdbLibrary.deleteTree(directory)) {
      throw new ChdbException("cannot delete the chdb session directory " + directory);
    }
  }

  @Override
  public String toString() {
    return "ChdbSession{pid " + process.pid() + ", " + directory + (closed ? ", closed" : "") + '}';
  }

  // ---------------------------------------------------------------------------------- protocol

  private void awaitReady() {
    ScheduledFuture<?> watchdog = Watchdog.EXECUTOR.schedule(() -> {
      timedOut = true;
      process.destroyForcibly();
    }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      readResponse("(connect)");
    } catch (ChdbException e) {
      if (e.engineMessage().isEmpty()) {
        throw e;
      }
      throw died("while connecting: " + e.engineMessage(), null);
    } catch (IOException e) {
      throw died("while connecting", e);
    } finally {
      watchdog.cancel(false);
    }
  }

  private void writeString(String text) throws IOException {
    byte[] bytes = text.getBytes(UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private byte[] readResponse(String sql) throws IOException {
    int status = in.read();
    if (status < 0) {
      throw died("during [" + abbreviate(sql) + "]", null);
    }
    long length = in.readLong();
    if (length < 0 || length > MAX_RESULT_BYTES) {
      throw died("after a result of " + length + " bytes, more than a Java array holds, for ["
          + abbreviate(sql) + "]", null);
    }
    byte[] body = in.readNBytes((int) length);
    if (body.length < length) {
      throw died("in the middle of the result of [" + abbreviate(sql) + "]", null);
    }
    if (status == 0) {
      return body;
    }
    if (status == 1) {
      throw ChdbException.refused(new String(body, UTF_8), sql);
    }
    throw died("after sending the unknown status " + status, null);
  }

  /** Kills what is left of the launcher, closes the session and describes what happened. */
  private ChdbException died(String when, IOException cause) {
    closed = true;
    LIVE.remove(this);
    String exit;
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
      exit = process.isAlive() ? "still running" : "exit status " + process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exit = "interrupted while waiting for it";
    }
    String reason = timedOut ? "was killed after the query timeout of " + timeout : "ended";
    String log = logTail();
    ChdbLibrary.deleteTree(directory);
    return new ChdbException("the chdb launcher (pid " + process.pid() + ") " + reason + " " + when
        + " (" + exit + "); the session is closed. Its stderr ends with:\n" + log, cause);
  }

  private String logTail() {
    try {
      String log = Files.readString(directory.resolve("launcher.log"), UTF_8);
      return log.length() <= LOG_TAIL_CHARS ? log : log.substring(log.length() - LOG_TAIL_CHARS);
    } catch (IOException e) {
      return "(no launcher.log: " + e + ")";
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the chdb session is closed: " + this);
    }
  }

  private static String abbreviate(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
  }

  // ---------------------------------------------------------------------------------- lifetime

  private static void installShutdownHook() {
    if (HOOK_INSTALLED.compareAndSet(false, true)) {
      Runtime.getRuntime().addShutdownHook(new Thread(ChdbSession::killAllAtExit, "chdb-shutdown"));
    }
  }

  private static void killAllAtExit() {
    List<ChdbSession> sessions = new ArrayList<>(LIVE);
    for (ChdbSession session : sessions) {
      session.process.destroyForcibly();
    }
    for (ChdbSession session : sessions) {
      try {
        session.process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ChdbLibrary.deleteTree(session.directory);
    }
  }

  /** The daemon thread that kills a launcher whose query outlives the session's timeout. */
  private static final class Watchdog {
    static final ScheduledExecutorService EXECUTOR = create();

    private static ScheduledExecutorService create() {
      ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
        Thread thread = new Thread(r, "chdb-query-watchdog");
        thread.setDaemon(true);
        return thread;
      });
      executor.setRemoveOnCancelPolicy(true);
      return executor;
    }
  }
}
