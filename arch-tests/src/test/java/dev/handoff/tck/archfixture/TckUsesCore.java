package dev.handoff.tck.archfixture;

import dev.handoff.core.Routers;

/** Test fixture: a TCK class that depends on core (forbidden). */
public final class TckUsesCore {
  Routers routers;
}
