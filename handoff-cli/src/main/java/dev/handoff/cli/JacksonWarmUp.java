package dev.handoff.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Makes Jackson's first {@link ObjectMapper} on a thread of its own while {@code ingest} asks the
 * server for the table's columns: the first one costs tens of milliseconds of class
 * initialization (its default date format loads the calendar and the locale's data), which the
 * line parsers would otherwise pay on the pipeline thread once the columns are known. A run that
 * gets there first waits for the initialization in progress (the JVM's class initialization lock)
 * instead of doing it twice; a run that fails before is not slowed down by it.
 */
final class JacksonWarmUp implements Runnable {

  private JacksonWarmUp() {}

  /** Starts the daemon thread that makes the mapper. */
  static void start() {
    Thread t = new Thread(new JacksonWarmUp(), "handoff-ingest-warm-up");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void run() {
    new ObjectMapper();
  }
}
