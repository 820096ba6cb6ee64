package dev.handoff.api.archfixture;

import dev.handoff.testkit.ManualClock;

/** Test fixture: an API class that depends on the testkit (forbidden). */
public final class ApiUsesTestkit {
  Object f() {
    return new ManualClock();
  }
}
