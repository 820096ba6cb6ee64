package dev.handoff.api.archfixture;

/** Test fixture: an API class other than SystemClock that reads the system clock (forbidden). */
public final class ApiReadsClock {
  long f() {
    return System.currentTimeMillis();
  }
}
