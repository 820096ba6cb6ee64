package dev.handoff.api.archfixture;

import org.junit.jupiter.api.Assertions;

/** Test fixture: an API class that depends on a third-party library (forbidden). */
public final class ApiUsesLibrary {
  void f() {
    Assertions.fail("never");
  }
}
