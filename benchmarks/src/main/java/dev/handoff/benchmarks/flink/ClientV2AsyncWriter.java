package dev.handoff.benchmarks.flink;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ConnectionInitiationException;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.data.ClickHouseFormat;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriter;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.DequeRequestBuffer;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.apache.flink.connector.base.sink.writer.SimpleBatchCreator;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.metrics.Counter;

/**
 * The writer of {@link ClientV2AsyncSink}: one client-v2 {@link Client} per subtask (asynchronous
 * operations on), and one {@code INSERT ... FORMAT RowBinary} per batch whose body is the
 * entries' bytes streamed back to back. The insert's future completes the batch on the client's
 * threads; Flink's result handler hands that back to the task's mailbox.
 *
 * <p>Failures: a server error the client marks retryable, a connection that could not be opened
 * and an I/O error (a timeout, a reset) retry the batch, up to the sink's attempts; anything else
 * (a parse error, an unknown table) fails the job.
 */
final class ClientV2AsyncWriter<T> extends AsyncSinkWriter<T, RowBinaryEntry> {
  private final Client client;
  private final Target target;
  /** {@code database.table}: 18.16 ignores the database client-v2 sends as the default. */
  private final String table;
  private final InsertSettings settings = new InsertSettings();
  private final Counter bytesSent;
  private final Counter recordsSent;

  /** Where and how the writer inserts: serializable, as it travels with the sink. */
  record Target(String url, String user, String password, String database, String table,
      int maxAttempts) implements Serializable {}

  ClientV2AsyncWriter(ElementConverter<T, RowBinaryEntry> converter, WriterInitContext context,
      AsyncSinkWriterConfiguration config, Collection<BufferedRequestState<RowBinaryEntry>> state,
      Target target) {
    // The batch creator and buffer the deprecated four-argument constructor would pick.
    super(converter, context, config, state,
        new SimpleBatchCreator<>(config.getMaxBatchSizeInBytes()), new DequeRequestBuffer<>());
    this.target = target;
    this.table = target.database() + "." + target.table();
    this.client = new Client.Builder()
        .addEndpoint(target.url())
        .setUsername(target.user())
        .setPassword(target.password())
        .setDefaultDatabase(target.database())
        .useAsyncRequests(true)
        .build();
    this.bytesSent = context.metricGroup().getNumBytesSendCounter();
    this.recordsSent = context.metricGroup().getNumRecordsSendCounter();
  }

  @Override
  protected void submitRequestEntries(List<RowBinaryEntry> entries,
      ResultHandler<RowBinaryEntry> handler) {
    CompletableFuture<InsertResponse> insert;
    try {
      insert = client.insert(table, out -> {
        long bytes = 0;
        for (RowBinaryEntry e : entries) {
          out.write(e.bytes());
          bytes += e.bytes().length;
        }
        out.close();
        bytesSent.inc(bytes);
        recordsSent.inc(entries.size());
      }, ClickHouseFormat.RowBinary, settings);
    } catch (RuntimeException e) {
      failed(entries, handler, e);
      return;
    }
    insert.whenComplete((response, error) -> {
      if (error == null) {
        response.close();
        handler.complete();
      } else {
        failed(entries, handler, error);
      }
    });
  }

  private void failed(List<RowBinaryEntry> entries, ResultHandler<RowBinaryEntry> handler,
      Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (retryable(cause) && entries.get(0).failed() < target.maxAttempts()) {
      handler.retryForEntries(entries);
    } else {
      handler.completeExceptionally(cause instanceof Exception e ? e : new IOException(cause));
    }
  }

  /** Whether {@code error} is worth another attempt of the same batch. */
  private static boolean retryable(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof ServerException s) {
        return s.isRetryable();
      }
      if (t instanceof ConnectionInitiationException || t instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected long getSizeInBytes(RowBinaryEntry entry) {
    return entry.bytes().length;
  }

  @Override
  public void close() {
    try {
      super.close();
    } finally {
      client.close();
    }
  }
}
