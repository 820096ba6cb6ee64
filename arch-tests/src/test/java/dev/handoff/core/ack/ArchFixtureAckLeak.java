package dev.handoff.core.ack;

import dev.handoff.core.internal.archfixture.InternalType;

/**
 * Test fixture of the arch-tests module (not part of core): a public method of the exported
 * package {@code dev.handoff.core.ack} takes an internal type.
 */
public final class ArchFixtureAckLeak {
  /** Leaks. */
  public void leak(InternalType internal) {}
}
