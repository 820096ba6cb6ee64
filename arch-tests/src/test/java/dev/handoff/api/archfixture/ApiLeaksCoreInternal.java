package dev.handoff.api.archfixture;

import dev.handoff.core.internal.archfixture.InternalType;

/** Test fixture: a public API method in an exported API package returns an internal type. */
public final class ApiLeaksCoreInternal {
  /** Leaks. */
  public InternalType leak() {
    return null;
  }
}
