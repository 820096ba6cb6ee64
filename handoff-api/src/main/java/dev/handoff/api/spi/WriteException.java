package dev.handoff.api.spi;

/**
 * An insert the sink did not acknowledge, classified by whether sending it again may help.
 *
 * <p>The {@link InsertWriter} classifies: {@link Kind#TRANSIENT} for failures of the transport or
 * of the server's state (connection refused or reset, timeouts, HTTP 5xx, server error codes that
 * are retryable), {@link Kind#PERMANENT} for failures of the data itself (parse and type errors),
 * which fail again on every attempt.
 */
public final class WriteException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Whether a failed insert may succeed when sent again. */
  public enum Kind {
    /** The same insert may succeed later: the worker retries it with backoff. */
    TRANSIENT,
    /** The insert fails on every attempt: the worker fails it or sets it aside. */
    PERMANENT
  }

  private final Kind kind;
  private final int serverCode;

  /**
   * Creates an exception.
   *
   * @param kind whether retrying may help; not {@code null}
   * @param serverCode the server's error code (ClickHouse's numeric code), or {@code -1} when the
   *     server sent none (a transport failure, an HTTP status without a code)
   * @param message what happened, with the server's message when there is one
   * @param cause the underlying exception, or {@code null}
   */
  public WriteException(Kind kind, int serverCode, String message, Throwable cause) {
    super(message, cause);
    if (kind == null) {
      throw new NullPointerException("kind");
    }
    if (serverCode < -1) {
      throw new IllegalArgumentException("serverCode : " + serverCode + " (expected: >= -1)");
    }
    this.kind = kind;
    this.serverCode = serverCode;
  }

  /** Returns whether retrying may help. */
  public Kind kind() {
    return kind;
  }

  /** Returns the server's error code, or {@code -1} when there is none. */
  public int serverCode() {
    return serverCode;
  }

  /** Returns whether this failure is {@link Kind#TRANSIENT}. */
  public boolean isTransient() {
    return kind == Kind.TRANSIENT;
  }
}
