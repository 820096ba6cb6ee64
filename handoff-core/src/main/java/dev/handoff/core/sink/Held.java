package dev.handoff.core.sink;

import dev.handoff.api.EncodedChunk;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A chunk a worker took from its queue and has not settled yet. Settling (releasing the bytes and
 * resolving the acknowledgements) starts with {@link #claim()}, which only one caller wins: the
 * worker, or shutdown failing the chunks of a worker that did not stop in time.
 */
final class Held {
  final EncodedChunk chunk;
  private final AtomicBoolean settled = new AtomicBoolean();

  Held(EncodedChunk chunk) {
    this.chunk = chunk;
  }

  /** Returns true once, for the one caller that settles the chunk. */
  boolean claim() {
    return settled.compareAndSet(false, true);
  }

  boolean isSettled() {
    return settled.get();
  }
}
