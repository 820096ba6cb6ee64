package dev.handoff.api.archfixture;

import dev.handoff.core.internal.WarnLimiter;

/** Test fixture: an API class that uses a class of core's internal package (forbidden). */
public final class ApiUsesCoreInternal {
  boolean f(WarnLimiter limiter) {
    return limiter.tryAcquire();
  }
}
