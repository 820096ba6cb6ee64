package dev.handoff.core.sink;

import java.time.Duration;

/** The workers behind {@link SinkWorkers}; not yet implemented. */
final class Workers {
  Workers(SinkWorkers.Builder b) {}

  void start() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  WorkerMetrics metrics() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  WorkersReport shutdown(Duration deadline) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
