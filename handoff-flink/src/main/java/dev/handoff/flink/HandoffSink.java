package dev.handoff.flink;

import dev.handoff.clickhouse.row.RowAccessors;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.types.Row;

/**
 * handoff as a Flink sink: each subtask owns one {@link
 * dev.handoff.clickhouse.sink.ClickHouseSink} per target table (its shards, byte budget, sink
 * workers and acknowledgement tracker), pushes rows into it without blocking, yields to the task's
 * mailbox while the sink reports pressure, and before every checkpoint waits until everything
 * pushed since the previous one was written (or dead-lettered). A chunk that cannot be written
 * fails the checkpoint, so Flink restores and the source replays: at least once.
 *
 * <pre>{@code
 * stream.sinkTo(HandoffSink.forRecords(Order.class)
 *     .setUrl("http://clickhouse:8123")
 *     .setTable("shop", "orders")
 *     .build());
 * }</pre>
 *
 * <p>See docs/flink.md for every option, the metrics, and what at least once means here.
 *
 * @param <T> the row type
 */
public final class HandoffSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;

  private final SinkSettings<T> settings;
  private final AccessorFactory<T> accessor;

  HandoffSink(SinkSettings<T> settings, AccessorFactory<T> accessor) {
    this.settings = settings;
    this.accessor = accessor;
  }

  /**
   * Starts a builder for instances of a public Java record class, components matched to columns
   * by name.
   */
  public static <R extends Record> HandoffSinkBuilder<R> forRecords(Class<R> type) {
    Objects.requireNonNull(type, "type");
    return new HandoffSinkBuilder<>(
        schema -> RowAccessors.records(type, schema, MethodHandles.publicLookup()));
  }

  /**
   * Starts a builder for POJOs (Java beans): columns matched by name to public getters ({@code
   * getX}, {@code isX}) or public fields of a public class.
   */
  public static <P> HandoffSinkBuilder<P> forPojos(Class<P> type) {
    Objects.requireNonNull(type, "type");
    return new HandoffSinkBuilder<>(
        schema -> RowAccessors.beans(type, schema, MethodHandles.publicLookup()));
  }

  /**
   * Starts a builder for Flink {@link Row}s: a column comes from the row's field of the same
   * name when the row has one, else from the field at the column's position.
   */
  public static HandoffSinkBuilder<Row> forRows() {
    return new HandoffSinkBuilder<>(FlinkRows::accessor);
  }

  /** Starts a builder for rows read by accessors the given factory makes per table. */
  public static <T> HandoffSinkBuilder<T> forAccessor(AccessorFactory<T> factory) {
    return new HandoffSinkBuilder<>(Objects.requireNonNull(factory, "factory"));
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
    return new HandoffSinkWriter<>(settings.copy(), accessor, context);
  }

  @Override
  public String toString() {
    return "HandoffSink{" + (settings.selector != null ? "many tables" : settings.table) + ", "
        + settings.format + " to " + settings.url + '}';
  }
}
