package dev.handoff.cli;

import dev.handoff.core.StageMetrics;

/** Keeps the stage's parked-chunk gauge for the progress bar (written on the pipeline thread). */
final class StageGauges implements StageMetrics.Listener {
  volatile int parkedChunks;

  @Override
  public void onFlush(StageMetrics m) {
    parkedChunks = m.parkedChunks();
  }
}
