package dev.handoff.core.archfixture;

import io.micrometer.core.instrument.Metrics;

/** Test fixture: a core class that registers a Micrometer meter (forbidden). */
public final class CoreUsesMicrometer {
  void f() {
    Metrics.counter("handoff.fixture").increment();
  }
}
