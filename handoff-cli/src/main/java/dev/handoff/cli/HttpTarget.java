package dev.handoff.cli;

import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpException;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.IOException;
import java.io.PrintWriter;
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
        .requestTimeout(s.requestTimeout());
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
   * Reads the table's columns from the server. While the server cannot be reached or fails
   * transiently, tries again with backoff (100 ms doubling to 5 s) for up to {@code
   * --retry-max-elapsed}, saying so once on stderr: a server that is restarting delays the start.
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
        if (!e.isTransient() || System.nanoTime() + backoffMillis * 1_000_000 - deadline > 0) {
          throw new IOException("cannot read the columns of " + s.qualifiedTable() + " from "
              + s.url() + ": " + e.getMessage(), e);
        }
        if (!told) {
          told = true;
          err.println("ingest: waiting for " + s.url() + " (" + e.getMessage() + "); retrying"
              + " for up to " + s.retryMaxElapsed());
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
  public InsertWriter writer(TableSchema schema) {
    return http.writer(s.database(), s.table(), schema, s.format().clickhouse);
  }

  @Override
  public void close() {
    http.close();
  }
}
