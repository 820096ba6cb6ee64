package dev.handoff.api.archfixture;

import dev.handoff.core.SinkHandoff;

/** Test fixture: an API class that depends on core (forbidden). */
public final class ApiUsesCore {
  SinkHandoff<?> stage;
}
