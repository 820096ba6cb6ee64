package dev.handoff.core.archfixture;

import dev.handoff.api.HandoffClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Test fixture for {@code dev.handoff.arch.ArchitectureRulesBiteTest}: what core code is allowed
 * to do with time and randomness. The time-and-randomness rules must not flag it.
 */
@SuppressWarnings("unused")
public final class DeterministicTimeAndRandomness {
  private final HandoffClock clock = HandoffClock.system();
  private final Supplier<HandoffClock> clocks = HandoffClock::system;
  private final LongSupplier nanos = clock::nanoTime;

  long elapsed(long start) {
    return clock.nanoTime() - start;
  }

  long wallTime() {
    return clock.millis();
  }

  void backOff() throws InterruptedException {
    clock.sleep(Duration.ofMillis(1));
  }

  Instant fixedNow() {
    return Instant.now(java.time.Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
  }

  Instant fromEpoch(long millis) {
    return Instant.ofEpochMilli(millis);
  }

  int seeded(long seed) {
    List<Integer> list = new ArrayList<>(List.of(1, 2, 3));
    Random random = new Random(seed);
    Collections.shuffle(list, random);
    return random.nextInt() + new SplittableRandom(seed).nextInt() + list.get(0);
  }

  void spin() {
    Thread.onSpinWait();
  }
}
