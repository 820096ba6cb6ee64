package dev.handoff.api;

import java.util.Objects;

/**
 * Why a stage stopped: the component that failed and the reason.
 *
 * @param component the stage or encoder name, as configured
 * @param reason a human-readable reason, including the numbers involved
 * @param cause the exception that stopped it, or {@code null} when there was none
 */
public record FatalError(String component, String reason, Throwable cause) {

  /** Validates the fields. */
  public FatalError {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(reason, "reason");
  }

  /** Returns this error as a {@link ErrorClass#FATAL} exception, for failing acknowledgements. */
  public HandoffException toException() {
    return HandoffException.fatal(component + ": " + reason, cause);
  }

  @Override
  public String toString() {
    return "FatalError{component=" + component + ", reason=" + reason + '}';
  }
}
