package dev.handoff.simulator;

import java.util.List;

/** The names of the faults a run injects and counts, in report order. */
final class Faults {
  static final String SLOW_WRITE = "slow-write";
  static final String SINK_TIMEOUT = "sink-timeout";
  static final String WRITER_STUCK = "writer-stuck";
  static final String DEAD_LETTER_ERROR = "dead-letter-error";
  static final String QUEUE_PRESSURE = "queue-pressure";
  static final String RECORD_ERROR_SKIP = "record-error-skip";
  static final String RECORD_ERROR_FAIL = "record-error-fail";
  static final String FATAL_ENCODE = "fatal-encode";
  static final String FATAL_FINISH = "fatal-finish";
  static final String SINK_TRANSIENT = "sink-transient";
  static final String SINK_PERMANENT = "sink-permanent";
  static final String BUDGET_LIMIT = "budget-limit";
  static final String TEARDOWN = "teardown";
  static final String DRAIN_DEADLINE = "drain-deadline";
  static final String RESTART = "restart";
  static final String SOURCE_ERROR = "source-error";
  static final String ROUTER_ERROR = "router-error";

  static final List<String> NAMES = List.of(SLOW_WRITE, SINK_TIMEOUT, WRITER_STUCK, DEAD_LETTER_ERROR, QUEUE_PRESSURE, RECORD_ERROR_SKIP,
      RECORD_ERROR_FAIL, FATAL_ENCODE, FATAL_FINISH, SINK_TRANSIENT, SINK_PERMANENT, BUDGET_LIMIT,
      TEARDOWN, DRAIN_DEADLINE, RESTART, SOURCE_ERROR, ROUTER_ERROR);

  private Faults() {}
}
