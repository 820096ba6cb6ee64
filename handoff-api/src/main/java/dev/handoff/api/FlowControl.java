package dev.handoff.api;

/**
 * Whether the pipeline may keep going. A stage reports pressure with {@link #BLOCKED} instead of
 * blocking the pipeline thread; the driver then waits and asks again.
 */
public enum FlowControl {
  /** The stage accepts more work now. */
  CONTINUE,
  /** The stage holds output it could not hand on; the driver should back off and ask again. */
  BLOCKED
}
