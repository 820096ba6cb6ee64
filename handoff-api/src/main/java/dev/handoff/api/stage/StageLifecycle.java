package dev.handoff.api.stage;

import dev.handoff.api.FatalError;
import dev.handoff.api.FlowControl;
import java.time.Duration;
import java.util.Optional;

/**
 * The calls a driver makes to a stage around the records it pushes. All of them happen on the
 * pipeline thread, never concurrently with {@link Collector#push}.
 */
public interface StageLifecycle extends AutoCloseable {

  /**
   * Called by the driver after it pushed all records of one payload.
   *
   * <p>The stage flushes its metrics (seen, out, skipped, errors, and {@code elapsed}) to its
   * metrics listener. It must not do output work here.
   *
   * @param elapsed how long the payload took, by the driver's clock
   */
  void onBatchEnd(Duration elapsed);

  /**
   * Returns the error that stopped the stage, once: the first call after the stage stopped returns
   * it, later calls return empty. Called by the driver after every payload; a present value makes
   * the driver stop pulling and tear down.
   */
  Optional<FatalError> takeFatal();

  /**
   * Tries to hand on output that could not be handed on before, without blocking.
   *
   * <p>Called by the driver between payloads, and repeatedly while it waits.
   *
   * @return {@link FlowControl#CONTINUE} when nothing is held back (or all of it went out now), else
   *     {@link FlowControl#BLOCKED}
   */
  FlowControl relieve();

  /**
   * Seals every open buffer and tries to hand all output on, without blocking. Called by the
   * driver at shutdown, repeatedly until it returns {@link FlowControl#CONTINUE} or a deadline passes.
   *
   * @return {@link FlowControl#CONTINUE} only when nothing is left held back
   */
  FlowControl flushTerminal();

  /**
   * Tears the stage down: output that was never handed on fails its acknowledgements (so those
   * batches replay) and its bytes return to the in-flight budget. Idempotent. Called once by the
   * driver after the last {@link #flushTerminal()}.
   */
  @Override
  default void close() {}
}
