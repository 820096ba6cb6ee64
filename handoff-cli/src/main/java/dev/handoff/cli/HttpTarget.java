package dev.handoff.cli;

import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpException;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.http.ClickHouseWriter;
import java.util.List;
import java.util.Optional;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.time.DateTimeException;
import java.time.ZoneId;

/**
 * The server target of {@code ingest}: the table's columns from the server ({@code
 * system.columns}, so the encoder gets exactly the server's types) and the HTTP insert writer of
 * {@code clickhouse-http}.
 */
final class HttpTarget implements Ingest.Target {
  private final Ingest.Settings s;
  private final PrintWriter err;
  private final ClickHouseHttp http;

  /** Creates the client from the settings; sends nothing yet. Notes go to {@code err}. */
  HttpTarget(Ingest.Settings s, PrintWriter err) throws IOException {
    this.s = s;
    this.err = err;
    ClickHouseHttpOptions.Builder b = ClickHouseHttpOptions.builder()
        .url(s.url())
        .database(s.database())
        .requestTimeout(s.requestTimeout())
        .compression(s.compression())
        .zstdLevel(s.zstdLevel())
        // The query log says which inserts a killed run wrote (InsertJournal).
        .setting("log_queries", "1");
    if (s.user() != null) {
      b.user(s.user());
    }
    if (s.password() != null && !s.password().isEmpty()) {
      b.password(s.password());
    }
    try {
      this.http = ClickHouseHttp.create(b.build());
    } catch (IllegalArgumentException e) {
      throw new IOException("--url=" + s.url() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the table's columns from the server. While nothing listens at the URL (connection
   * refused) or the server fails transiently, tries again with backoff (100 ms doubling to 5 s)
   * for up to {@code --retry-max-elapsed}, saying so once on stderr: a server that is restarting
   * delays the start. Something that answers but not in HTTP (another protocol, or ClickHouse's
   * native TCP port) stops the run at once with a message that says what it found.
   */
  @Override
  public TableSchema schema() throws IOException {
    long deadline = System.nanoTime() + s.retryMaxElapsed().toNanos();
    long backoffMillis = 100;
    boolean told = false;
    while (true) {
      try {
        return http.schema(s.database(), s.table());
      } catch (ClickHouseHttpException e) {
        String what = describe(e);
        if (!e.isTransient() || notHttp(e) != null) {
          throw new IOException("cannot read the columns of " + s.qualifiedTable() + " from "
              + s.url() + ": " + what, e);
        }
        if (System.nanoTime() + backoffMillis * 1_000_000 - deadline > 0) {
          throw new IOException("cannot read the columns of " + s.qualifiedTable() + " from "
              + s.url() + ": " + what + ", still after waiting "
              + Sizes.formatDuration(s.retryMaxElapsed()) + " (--retry-max-elapsed): is the"
              + " server running, and is --url right?", e);
        }
        if (!told) {
          told = true;
          err.println("ingest: " + what + "; waiting up to "
              + Sizes.formatDuration(s.retryMaxElapsed()) + " (--retry-max-elapsed) in case"
              + " the server is starting");
          err.flush();
        }
      }
      try {
        Thread.sleep(backoffMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for " + s.url(), e);
      }
      backoffMillis = Math.min(5_000, backoffMillis * 2);
    }
  }

  /** Says what was found at the URL, in the user's words. */
  private String describe(ClickHouseHttpException e) {
    String hostPort = hostPort();
    String garbage = notHttp(e);
    if (garbage != null) {
      return hostPort + " answered, but it is not an HTTP server (it said " + garbage
          + "); check --url: ClickHouse's HTTP interface is usually on port 8123";
    }
    String m = String.valueOf(e.getMessage());
    Matcher nativePort = NATIVE_PORT.matcher(m);
    if (nativePort.find()) {
      return hostPort + " is ClickHouse's native TCP port, not its HTTP interface (the server"
          + " says so); use --url " + s.url().replaceFirst(":\\d+(?=/|$)", ":"
          + nativePort.group(1));
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return "connection refused at " + hostPort + ": nothing listens there";
      }
    }
    return m;
  }

  /** Returns what a server that is not an HTTP server said, or {@code null}. */
  private static String notHttp(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ProtocolException p) {
        String m = String.valueOf(p.getMessage());
        int colon = m.indexOf(": ");
        return colon >= 0 ? m.substring(colon + 2) : m;
      }
    }
    return null;
  }

  private String hostPort() {
    try {
      URI u = URI.create(s.url());
      return u.getHost() + ":" + (u.getPort() >= 0 ? u.getPort()
          : "https".equals(u.getScheme()) ? 443 : 80);
    } catch (IllegalArgumentException e) {
      return s.url();
    }
  }

  /** ClickHouse's answer to HTTP on its native port names the HTTP port. */
  private static final Pattern NATIVE_PORT =
      Pattern.compile("is for clickhouse-client program[.\\s]*You must use port (\\d+) for HTTP");

  /** Returns the server's time zone ({@code SELECT timezone()}). */
  @Override
  public ZoneId timezone() throws IOException {
    String tz;
    try {
      tz = http.query("SELECT timezone()").strip();
    } catch (ClickHouseHttpException e) {
      throw new IOException("cannot read the time zone of " + s.url() + ": " + e.getMessage(), e);
    }
    try {
      return ZoneId.of(tz);
    } catch (DateTimeException e) {
      throw new IOException("the server " + s.url() + " says its time zone is '" + tz
          + "', which Java does not know; give --timezone", e);
    }
  }

  @Override
  public String runId(InsertWriter writer) {
    return writer instanceof ClickHouseWriter w ? w.runId() : null;
  }

  /**
   * Waits (up to {@code --request-timeout}) until no insert of run {@code runId} runs on the
   * server, flushes the server's logs and reads the query ids of the run's finished inserts, each
   * with the rows the server wrote ({@code "query_id\twritten_rows"}), from {@code
   * system.query_log}; empty when the server has no query log or does not answer.
   */
  @Override
  public Optional<List<String>> committedInserts(String runId) throws IOException {
    String like = "'handoff-" + runId.replaceAll("[^0-9A-Za-z]", "") + "-%'";
    long deadline = System.nanoTime() + s.requestTimeout().toNanos();
    try {
      while (!"0".equals(http.query("SELECT count() FROM system.processes WHERE query_id LIKE "
          + like).strip())) {
        if (System.nanoTime() - deadline > 0) {
          return Optional.empty();
        }
        Thread.sleep(50);
      }
      http.query("SYSTEM FLUSH LOGS");
      // written_rows too: an insert cut off by the kill before or inside its body can still
      // finish on the server, with fewer rows than it was sent for (none at all, or its first
      // blocks).
      String ids = http.query("SELECT query_id, written_rows FROM system.query_log"
          + " WHERE CAST(type AS Int8) = 2" // 2: QueryFinish
          + " AND event_date >= yesterday() AND query_id LIKE " + like);
      return Optional.of(ids.lines().filter(l -> !l.isBlank()).toList());
    } catch (ClickHouseHttpException e) {
      err.println("ingest: warning: cannot read which inserts the killed run wrote from the"
          + " server's query log: " + e.getMessage());
      err.flush();
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public InsertWriter writer(TableSchema schema) {
    return http.writer(s.database(), s.table(), schema, s.format().clickhouse);
  }

  @Override
  public void close() {
    http.close();
  }
}
