package dev.handoff.benchmarks.flink;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.AsyncSinkBase;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The baseline of the Flink benchmark: a ClickHouse sink built the way the official ClickHouse
 * Flink connector (0.2.x) is, on Flink's {@link AsyncSinkBase}. Each element becomes a request
 * entry holding its row in RowBinary (the {@link ElementConverter}, client-v2's serializer);
 * Flink's async writer buffers the entries, cuts batches by count and bytes, limits the requests
 * in flight with its default congestion control, and snapshots buffered entries at checkpoints;
 * each batch is one asynchronous client-v2 {@code Client.insert(table, writer, RowBinary,
 * settings)} ({@link ClientV2AsyncWriter}), retried on transient failures.
 *
 * <p>Not a copy of the official code: the same design, written from its description, with its
 * default batching options ({@link Builder}) except the batch size and the buffer, which the
 * benchmark sets (Flink requires the buffer to hold more than one batch).
 *
 * @param <T> the element type
 */
public final class ClientV2AsyncSink<T> extends AsyncSinkBase<T, RowBinaryEntry> {
  private static final long serialVersionUID = 1L;

  private final String url;
  private final String user;
  private final String password;
  private final String database;
  private final String table;
  private final int maxAttempts;

  private ClientV2AsyncSink(Builder<T> b) {
    super(b.converter, b.maxBatchSize, b.maxInFlightRequests, b.maxBufferedRequests,
        b.maxBatchSizeInBytes, b.maxTimeInBufferMs, b.maxRecordSizeInBytes);
    this.url = b.url;
    this.user = b.user;
    this.password = b.password;
    this.database = b.database;
    this.table = b.table;
    this.maxAttempts = b.maxAttempts;
  }

  /** Starts a builder for elements that {@code converter} turns into RowBinary rows. */
  public static <T> Builder<T> builder(ElementConverter<T, RowBinaryEntry> converter) {
    return new Builder<>(Objects.requireNonNull(converter, "converter"));
  }

  @Override
  public StatefulSinkWriter<T, BufferedRequestState<RowBinaryEntry>> createWriter(
      WriterInitContext context) {
    return restoreWriter(context, List.of());
  }

  @Override
  public StatefulSinkWriter<T, BufferedRequestState<RowBinaryEntry>> restoreWriter(
      WriterInitContext context, Collection<BufferedRequestState<RowBinaryEntry>> state) {
    AsyncSinkWriterConfiguration config = AsyncSinkWriterConfiguration.builder()
        .setMaxBatchSize(getMaxBatchSize())
        .setMaxBatchSizeInBytes(getMaxBatchSizeInBytes())
        .setMaxInFlightRequests(getMaxInFlightRequests())
        .setMaxBufferedRequests(getMaxBufferedRequests())
        .setMaxTimeInBufferMS(getMaxTimeInBufferMS())
        .setMaxRecordSizeInBytes(getMaxRecordSizeInBytes())
        .build();
    return new ClientV2AsyncWriter<>(getElementConverter(), context, config, state,
        new ClientV2AsyncWriter.Target(url, user, password, database, table, maxAttempts));
  }

  @Override
  public SimpleVersionedSerializer<BufferedRequestState<RowBinaryEntry>>
      getWriterStateSerializer() {
    return new RowBinaryEntry.StateSerializer();
  }

  /**
   * Configures a {@link ClientV2AsyncSink}. The batching defaults are the official connector's:
   * batches of 500 entries or 5 MiB, 50 requests in flight, 10,000 entries buffered, 5 s in the
   * buffer at most, records of up to 1 MiB.
   *
   * @param <T> the element type
   */
  public static final class Builder<T> {
    private final ElementConverter<T, RowBinaryEntry> converter;
    private String url = "http://127.0.0.1:8123";
    private String user = "default";
    private String password = "";
    private String database = "default";
    private String table;
    private int maxBatchSize = 500;
    private int maxInFlightRequests = 50;
    private int maxBufferedRequests = 10_000;
    private long maxBatchSizeInBytes = 5L << 20;
    private long maxTimeInBufferMs = 5_000;
    private long maxRecordSizeInBytes = 1L << 20;
    private int maxAttempts = 10;

    private Builder(ElementConverter<T, RowBinaryEntry> converter) {
      this.converter = converter;
    }

    /** Sets the server's HTTP endpoint. */
    public Builder<T> url(String url) {
      this.url = Objects.requireNonNull(url, "url");
      return this;
    }

    /** Sets the target table. */
    public Builder<T> table(String database, String table) {
      this.database = Objects.requireNonNull(database, "database");
      this.table = Objects.requireNonNull(table, "table");
      return this;
    }

    /**
     * Sets the entries per batch and the entries buffered before {@code write} blocks (Flink
     * requires more buffered than one batch).
     */
    public Builder<T> batching(int maxBatchSize, int maxBufferedRequests) {
      this.maxBatchSize = maxBatchSize;
      this.maxBufferedRequests = maxBufferedRequests;
      return this;
    }

    /** Sets the most inserts a subtask has in flight. */
    public Builder<T> maxInFlightRequests(int requests) {
      this.maxInFlightRequests = requests;
      return this;
    }

    /** Sets the most bytes per batch. */
    public Builder<T> maxBatchSizeInBytes(long bytes) {
      this.maxBatchSizeInBytes = bytes;
      return this;
    }

    /** Sets the attempts of one batch, the first included, before the job fails. */
    public Builder<T> maxAttempts(int attempts) {
      this.maxAttempts = attempts;
      return this;
    }

    /** Returns the sink. */
    public ClientV2AsyncSink<T> build() {
      if (table == null) {
        throw new IllegalStateException("no table");
      }
      return new ClientV2AsyncSink<>(this);
    }
  }
}
