package dev.handoff.clickhouse.http.archfixture;

import dev.handoff.core.internal.WarnLimiter;

/** Test fixture: an HTTP writer class that reaches into core (forbidden). */
public final class HttpUsesCore {
  Class<?> f() {
    return WarnLimiter.class;
  }
}
