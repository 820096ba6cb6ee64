package dev.handoff.core.archfixture;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Test fixtures for {@code dev.handoff.arch.ArchitectureRulesBiteTest}: each nested class does one
 * thing that the time-and-randomness rules forbid. They live in a {@code dev.handoff.core} package
 * so the core rule applies to them; being test classes, the real architecture test never imports
 * them.
 */
@SuppressWarnings("unused")
public final class ClockAndRandomReaders {
  private ClockAndRandomReaders() {}

  /** Every nested fixture that reads the system clock. */
  public static final List<Class<?>> CLOCK_READERS =
      List.of(
          CurrentTimeMillis.class,
          NanoTime.class,
          NanoTimeReference.class,
          ThreadSleep.class,
          ThreadSleepNanos.class,
          TimeUnitSleep.class,
          InstantNow.class,
          InstantNowReference.class,
          LocalDateTimeNow.class,
          LocalDateNowInZone.class,
          ZonedDateTimeNow.class,
          ClockSystemUtc.class,
          ClockSystemDefaultZone.class,
          ClockSystemInZone.class,
          ClockTickMillis.class,
          InstantSourceSystem.class,
          ClockReadInLambda.class);

  /** Every nested fixture that draws unseeded randomness. */
  public static final List<Class<?>> UNSEEDED_RANDOMNESS =
      List.of(
          NewRandom.class,
          RandomConstructorReference.class,
          NewSplittableRandom.class,
          ThreadLocalRandomCurrent.class,
          ThreadLocalRandomParameter.class,
          NewSecureRandom.class,
          MathRandom.class,
          RandomUuid.class,
          ShuffleWithoutRandom.class);

  static final class CurrentTimeMillis {
    long f() {
      return System.currentTimeMillis();
    }
  }

  static final class NanoTime {
    long f() {
      return System.nanoTime();
    }
  }

  static final class NanoTimeReference {
    LongSupplier f() {
      return System::nanoTime;
    }
  }

  static final class ThreadSleep {
    void f() throws InterruptedException {
      Thread.sleep(1);
    }
  }

  static final class ThreadSleepNanos {
    void f() throws InterruptedException {
      Thread.sleep(0, 1);
    }
  }

  static final class TimeUnitSleep {
    void f() throws InterruptedException {
      TimeUnit.MILLISECONDS.sleep(1);
    }
  }

  static final class InstantNow {
    Instant f() {
      return Instant.now();
    }
  }

  static final class InstantNowReference {
    Supplier<Instant> f() {
      return Instant::now;
    }
  }

  static final class LocalDateTimeNow {
    LocalDateTime f() {
      return LocalDateTime.now();
    }
  }

  static final class LocalDateNowInZone {
    LocalDate f() {
      return LocalDate.now(ZoneOffset.UTC);
    }
  }

  static final class ZonedDateTimeNow {
    ZonedDateTime f() {
      return ZonedDateTime.now();
    }
  }

  static final class ClockSystemUtc {
    Clock f() {
      return Clock.systemUTC();
    }
  }

  static final class ClockSystemDefaultZone {
    Clock f() {
      return Clock.systemDefaultZone();
    }
  }

  static final class ClockSystemInZone {
    Clock f() {
      return Clock.system(ZoneOffset.UTC);
    }
  }

  static final class ClockTickMillis {
    Clock f() {
      return Clock.tickMillis(ZoneOffset.UTC);
    }
  }

  static final class InstantSourceSystem {
    InstantSource f() {
      return InstantSource.system();
    }
  }

  static final class ClockReadInLambda {
    Runnable f() {
      return () -> System.currentTimeMillis();
    }
  }

  static final class NewRandom {
    int f() {
      return new Random().nextInt();
    }
  }

  static final class RandomConstructorReference {
    Supplier<Random> f() {
      return Random::new;
    }
  }

  static final class NewSplittableRandom {
    int f() {
      return new SplittableRandom().nextInt();
    }
  }

  static final class ThreadLocalRandomCurrent {
    int f() {
      return ThreadLocalRandom.current().nextInt();
    }
  }

  static final class ThreadLocalRandomParameter {
    int f(ThreadLocalRandom random) {
      return random.nextInt();
    }
  }

  static final class NewSecureRandom {
    int f() {
      return new SecureRandom().nextInt();
    }
  }

  static final class MathRandom {
    double f() {
      return Math.random();
    }
  }

  static final class RandomUuid {
    UUID f() {
      return UUID.randomUUID();
    }
  }

  static final class ShuffleWithoutRandom {
    void f() {
      Collections.shuffle(new ArrayList<>(List.of(1, 2, 3)));
    }
  }
}
