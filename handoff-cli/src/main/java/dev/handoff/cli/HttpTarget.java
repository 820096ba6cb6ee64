package dev.handoff.cli;

import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.TableSchema;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpException;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import java.io.IOException;

/**
 * The server target of {@code ingest}: the table's columns from the server ({@code
 * system.columns}, so the encoder gets exactly the server's types) and the HTTP insert writer of
 * {@code clickhouse-http}.
 */
final class HttpTarget implements Ingest.Target {
  private final Ingest.Settings s;
  private final ClickHouseHttp http;

  /** Creates the client from the settings; sends nothing yet. */
  HttpTarget(Ingest.Settings s) throws IOException {
    this.s = s;
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

  @Override
  public TableSchema schema() throws IOException {
    try {
      return http.schema(s.database(), s.table());
    } catch (ClickHouseHttpException e) {
      throw new IOException("cannot read the columns of " + s.qualifiedTable() + " from "
          + s.url() + ": " + e.getMessage(), e);
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
