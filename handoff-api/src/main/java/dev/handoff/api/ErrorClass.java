package dev.handoff.api;

/** What an error says about the thing that failed, which decides what happens next. */
public enum ErrorClass {
  /** This record is bad; other records may be fine. Subject to the {@link ErrorPolicy}. */
  DATA,
  /** The operation may succeed if retried (a timeout, a refused connection, a server restart). */
  TRANSIENT,
  /** The component is broken; processing must stop whatever the error policy says. */
  FATAL
}
