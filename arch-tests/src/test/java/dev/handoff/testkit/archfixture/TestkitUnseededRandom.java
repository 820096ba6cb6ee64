package dev.handoff.testkit.archfixture;

import java.util.concurrent.ThreadLocalRandom;

/** Test fixture: a testkit class that draws unseeded randomness (forbidden). */
public final class TestkitUnseededRandom {
  long f() {
    return ThreadLocalRandom.current().nextLong();
  }
}
