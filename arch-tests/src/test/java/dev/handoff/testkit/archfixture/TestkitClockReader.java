package dev.handoff.testkit.archfixture;

/** Test fixture: a testkit class that reads the system clock (forbidden). */
public final class TestkitClockReader {
  long f() {
    return System.nanoTime();
  }
}
