package dev.handoff.api;

import java.util.Objects;

/**
 * An error raised by an encoder, a router or a writer, carrying its {@link ErrorClass}.
 *
 * <p>Encoders throw it from {@code encode} and {@code finishChunk}; no other exception type is
 * expected to escape them. The message names what failed (the column, the value and the reason
 * for a {@link ErrorClass#DATA} error).
 */
public class HandoffException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorClass errorClass;

  /** Creates an exception of the given class. */
  public HandoffException(ErrorClass errorClass, String message) {
    this(errorClass, message, null);
  }

  /** Creates an exception of the given class with a cause. */
  public HandoffException(ErrorClass errorClass, String message, Throwable cause) {
    super(message, cause);
    this.errorClass = Objects.requireNonNull(errorClass, "errorClass");
  }

  /** Returns a {@link ErrorClass#DATA} error: this record is bad. */
  public static HandoffException data(String message) {
    return new HandoffException(ErrorClass.DATA, message);
  }

  /** Returns a {@link ErrorClass#TRANSIENT} error: a retry may succeed. */
  public static HandoffException transientError(String message, Throwable cause) {
    return new HandoffException(ErrorClass.TRANSIENT, message, cause);
  }

  /** Returns a {@link ErrorClass#FATAL} error: the component is broken. */
  public static HandoffException fatal(String message, Throwable cause) {
    return new HandoffException(ErrorClass.FATAL, message, cause);
  }

  /** Returns the error's class. */
  public ErrorClass errorClass() {
    return errorClass;
  }

  @Override
  public String toString() {
    return getClass().getName() + " [" + errorClass + "]: " + getMessage();
  }
}
