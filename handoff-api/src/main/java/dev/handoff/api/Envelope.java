package dev.handoff.api;

import java.util.Objects;

/**
 * One record travelling through the pipeline: its payload, its metadata and the acknowledgement
 * handle of the source batch it came from.
 *
 * <p>Records are immutable. The stage never keeps a reference to a record after {@code push}
 * returns; it keeps only the {@link Ack} (once per run of consecutive records of the same batch).
 *
 * @param <T> the payload type, read by encoders through a {@link dev.handoff.api.row.RowAccessor}
 */
public final class Envelope<T> {
  private final T payload;
  private final RecordMeta meta;
  private final Ack ack;

  /**
   * Creates a record.
   *
   * @param payload the row to encode; never null
   * @param meta event time and routing key; never null
   * @param ack the handle of the source batch this record belongs to; {@link Ack#NONE} when the
   *     source does not track acknowledgements
   */
  public Envelope(T payload, RecordMeta meta, Ack ack) {
    this.payload = Objects.requireNonNull(payload, "payload");
    this.meta = Objects.requireNonNull(meta, "meta");
    this.ack = Objects.requireNonNull(ack, "ack");
  }

  /** Returns the payload. */
  public T payload() {
    return payload;
  }

  /** Returns the metadata. */
  public RecordMeta meta() {
    return meta;
  }

  /** Returns the acknowledgement handle of the record's source batch. */
  public Ack ack() {
    return ack;
  }

  @Override
  public String toString() {
    return "Envelope{batch=" + ack.batchId() + ", meta=" + meta + ", payload=" + payload + '}';
  }
}
