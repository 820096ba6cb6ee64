package dev.handoff.clickhouse.http;

/**
 * A request of {@link ClickHouseHttp} other than an insert (schema discovery, a query) failed, or
 * its answer cannot be used (a missing table, a type the type model cannot parse).
 */
public final class ClickHouseHttpException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final int serverCode;
  private final boolean transientFailure;

  /**
   * Creates an exception.
   *
   * @param message what failed, naming the table or query
   * @param status the HTTP status, or {@code 0} when no answer came or the request succeeded
   * @param serverCode the server's error code, or {@code -1} when there is none
   * @param transientFailure whether the same request may succeed later
   * @param cause the underlying exception, or {@code null}
   */
  public ClickHouseHttpException(String message, int status, int serverCode,
      boolean transientFailure, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.serverCode = serverCode;
    this.transientFailure = transientFailure;
  }

  /** Returns the HTTP status, or {@code 0} when no answer came or the answer was 200. */
  public int status() {
    return status;
  }

  /** Returns the server's error code, or {@code -1} when there is none. */
  public int serverCode() {
    return serverCode;
  }

  /** Returns whether the same request may succeed later (the server down, a timeout, ...). */
  public boolean isTransient() {
    return transientFailure;
  }
}
