package dev.handoff.clickhouse.sink;

import java.util.Objects;

/**
 * Thrown by {@link ClickHouseSink#close()} when not everything pushed was delivered: some rows
 * were neither written nor dead-lettered nor skipped by the encode policy. The {@linkplain
 * #report() report} says how many and why; those rows' source batches failed, so a source that
 * tracks batches replays them.
 */
public final class DeliveryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient DeliveryReport report;

  /** Creates the exception for {@code report}, whose summary is the message. */
  public DeliveryException(DeliveryReport report) {
    super(Objects.requireNonNull(report, "report").summary());
    this.report = report;
  }

  /** Returns the report of the run that did not deliver everything. */
  public DeliveryReport report() {
    return report;
  }
}
