package dev.handoff.clickhouse.sink;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link ClickHouseSink} did with everything pushed into it, returned once by {@link
 * ClickHouseSink#close(java.time.Duration)}.
 *
 * <p>Every row pushed is exactly one of: written, dead-lettered (the server rejected it for good
 * and it went to the dead letters), skipped (the encoder rejected it under the {@code SKIP}
 * policy), or not delivered (its batch failed: given up after retries, left unsent at the
 * deadline, or refused after a fatal error). So {@code rowsPushed == rowsWritten +
 * rowsDeadLettered + rowsSkipped + rowsNotDelivered}.
 *
 * @param table the target table, {@code database.table}
 * @param rowsPushed rows pushed (in push mode) or pulled from the source (in pull mode)
 * @param rowsWritten rows the server acknowledged
 * @param rowsDeadLettered rows the server rejected permanently, handed to the dead letters
 * @param rowsSkipped rows the encoder rejected as bad data under the {@code SKIP} policy
 * @param rowsNotDelivered rows whose batches failed; their sources replay them
 * @param inserts inserts (and parts of inserts) the server acknowledged
 * @param retries failed insert attempts that were retried
 * @param rowsInDoubt rows that may have been written more than once: rows of inserts sent
 *     without a deduplication token that had an attempt whose outcome is unknown (the body was
 *     sent and no answer came: a timeout, a connection reset or closed), counted once per insert;
 *     they are in {@code rowsWritten} (or {@code rowsNotDelivered}) once, but the table may hold
 *     them twice
 * @param batchesFailed source batches that failed (of the sources the sink tracked)
 * @param batchesUnfinished source batches begun and never completed by the application
 * @param drainTimedOut whether the deadline passed before everything was handed to the server
 * @param reasons why rows were not delivered or were dead-lettered, the first few distinct
 *     reasons, each with the server's code and message where there was one
 */
public record DeliveryReport(
    String table,
    long rowsPushed,
    long rowsWritten,
    long rowsDeadLettered,
    long rowsSkipped,
    long rowsNotDelivered,
    long inserts,
    long retries,
    long rowsInDoubt,
    long batchesFailed,
    long batchesUnfinished,
    boolean drainTimedOut,
    List<String> reasons) {

  /** Copies the reasons. */
  public DeliveryReport {
    Objects.requireNonNull(table, "table");
    reasons = List.copyOf(reasons);
  }

  /**
   * Returns whether everything pushed was delivered: every row written, dead-lettered or skipped,
   * no batch failed and none left unfinished.
   */
  public boolean allDelivered() {
    return rowsNotDelivered == 0 && batchesFailed == 0 && batchesUnfinished == 0;
  }

  /** Returns one line for a log or an exception message. */
  public String summary() {
    StringBuilder sb = new StringBuilder();
    if (allDelivered()) {
      sb.append("delivered all ").append(rowsPushed).append(" rows to ").append(table);
    } else if (rowsPushed > 0 && rowsWritten == 0) {
      sb.append("delivered NONE of ").append(rowsPushed).append(" rows to ").append(table);
    } else {
      sb.append("NOT all delivered to ").append(table).append(": ").append(rowsNotDelivered)
          .append(" of ").append(rowsPushed).append(" rows not delivered");
    }
    sb.append(" (written ").append(rowsWritten).append(", dead-lettered ")
        .append(rowsDeadLettered).append(", skipped ").append(rowsSkipped).append(", inserts ")
        .append(inserts).append(", retries ").append(retries);
    if (rowsInDoubt > 0) {
      sb.append(", ").append(rowsInDoubt).append(" rows in doubt (maybe written twice)");
    }
    if (batchesFailed > 0 || batchesUnfinished > 0) {
      sb.append(", batches failed ").append(batchesFailed).append(", unfinished ")
          .append(batchesUnfinished);
    }
    if (drainTimedOut) {
      sb.append(", deadline passed");
    }
    sb.append(')');
    if (!reasons.isEmpty()) {
      sb.append("; reasons: ").append(String.join(" | ", reasons));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return summary();
  }
}
