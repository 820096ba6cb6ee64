package dev.handoff.core.ack;

/**
 * Hears about resolved batches. Called on the thread that released the batch's last holder (a
 * sink worker, the pipeline thread, or the leak detector), after the checkpoint was updated. Must
 * be quick and must not throw.
 */
@FunctionalInterface
public interface BatchListener {

  /** A listener that does nothing. */
  BatchListener NONE = (batch, checkpoint) -> {};

  /**
   * Called once per batch when it resolves.
   *
   * @param batch the resolved batch; {@link SourceBatch#state()} says how
   * @param checkpoint the source's checkpoint after this resolution
   */
  void onResolved(SourceBatch batch, long checkpoint);
}
