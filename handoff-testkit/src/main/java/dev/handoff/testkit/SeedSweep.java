package dev.handoff.testkit;

import java.util.Objects;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * Checks a property over a range of seeds, and on the first failure shrinks the case and throws
 * an {@link AssertionError} that says how to reproduce it.
 *
 * <p>Each seed becomes one case through the caller's generator (typically {@link Gen#sample}). A
 * case fails when the property returns {@code false} or throws an {@link Exception} or an {@link
 * AssertionError}, so properties may use any assertion library; the thrown error becomes the
 * cause of the report.
 *
 * <p>The report names the property, the failing seed, the original case, the shrunk case and a
 * one-line reproduction hint. Setting the system property {@value #SEED_PROPERTY} (for example
 * {@code mvn test -Dtest=FooTest -Dhandoff.seed=1234}) restricts every sweep to that one seed.
 *
 * <p>Case descriptions longer than {@value #MAX_CASE_CHARS} characters are cut in the report.
 */
public final class SeedSweep {

  /** The system property that restricts every sweep to a single seed. */
  public static final String SEED_PROPERTY = "handoff.seed";

  /** The longest case description a report shows in full. */
  public static final int MAX_CASE_CHARS = 4_000;

  private SeedSweep() {}

  /**
   * Checks {@code holds} for the cases of seeds {@code firstSeed} to {@code firstSeed + count -
   * 1}, or of the seed in {@value #SEED_PROPERTY} when that is set.
   *
   * @param propertyName what the property says, for the report
   * @param firstSeed the first seed
   * @param count how many consecutive seeds to check, {@code >= 1}
   * @param generate makes the case of a seed; must be deterministic
   * @param holds whether the property holds for a case
   * @param shrink makes a failing case smaller, for example {@link Shrink#list()}
   * @param <C> the case type
   * @throws AssertionError at the first seed whose case fails, after shrinking it
   * @throws IllegalArgumentException if {@code count < 1} or {@value #SEED_PROPERTY} is not a
   *     number
   */
  public static <C> void run(
      String propertyName,
      long firstSeed,
      int count,
      LongFunction<? extends C> generate,
      Predicate<? super C> holds,
      Shrink<C> shrink) {
    run(propertyName, firstSeed, count, generate, holds, shrink,
        System.getProperty(SEED_PROPERTY));
  }

  /**
   * Checks {@code holds} like {@link #run(String, long, int, LongFunction, Predicate, Shrink)},
   * reporting a failing case without shrinking it.
   *
   * @param <C> the case type
   */
  public static <C> void run(
      String propertyName,
      long firstSeed,
      int count,
      LongFunction<? extends C> generate,
      Predicate<? super C> holds) {
    run(propertyName, firstSeed, count, generate, holds, Shrink.none());
  }

  /** The sweep itself, with the seed override passed in so tests need no system property. */
  static <C> void run(
      String propertyName,
      long firstSeed,
      int count,
      LongFunction<? extends C> generate,
      Predicate<? super C> holds,
      Shrink<C> shrink,
      String seedOverride) {
    Objects.requireNonNull(propertyName, "propertyName");
    Objects.requireNonNull(generate, "generate");
    Objects.requireNonNull(holds, "holds");
    Objects.requireNonNull(shrink, "shrink");
    if (count < 1) {
      throw new IllegalArgumentException("count : " + count + " (expected: >= 1)");
    }
    boolean pinned = seedOverride != null && !seedOverride.isBlank();
    long from = pinned ? parseSeed(seedOverride) : firstSeed;
    int seeds = pinned ? 1 : count;
    for (int i = 0; i < seeds; i++) {
      long seed = from + i; // wraps around past Long.MAX_VALUE, which is fine for seeds
      C original = generate.apply(seed);
      Failure failure = check(holds, original);
      if (failure != null) {
        throw report(propertyName, seed, i, pinned, original, failure, holds, shrink);
      }
    }
  }

  private static <C> AssertionError report(
      String propertyName,
      long seed,
      int passedBefore,
      boolean pinned,
      C original,
      Failure originalFailure,
      Predicate<? super C> holds,
      Shrink<C> shrink) {
    C shrunk = original;
    Failure failure = originalFailure;
    String note = "";
    Throwable shrinkError = null;
    try {
      C candidate = shrink.shrink(original, c -> check(holds, c) != null);
      // Re-check, so a faulty shrinker can never make the report show a passing case.
      Failure candidateFailure = candidate == original ? originalFailure : check(holds, candidate);
      if (candidateFailure != null) {
        shrunk = candidate;
        failure = candidateFailure;
      } else {
        note = "\n  note:      the shrinker returned a passing case; showing the original";
      }
    } catch (RuntimeException | AssertionError e) {
      shrinkError = e;
      note = "\n  note:      shrinking threw " + e + "; showing the original";
    }

    StringBuilder msg = new StringBuilder()
        .append("property '").append(propertyName).append("' failed at seed ").append(seed)
        .append(pinned ? " (the only seed, from -D" + SEED_PROPERTY + ")"
            : " after " + passedBefore + " passing seed(s)")
        .append("\n  original:  ").append(describe(original))
        .append("\n  shrunk:    ").append(describe(shrunk))
        .append("\n  failure:   ")
        .append(failure.error() == null ? "the property returned false" : failure.error())
        .append(note)
        .append("\n  reproduce: rerun with -D").append(SEED_PROPERTY).append('=').append(seed);

    AssertionError error = new AssertionError(msg.toString(), failure.error());
    if (shrinkError != null) {
      error.addSuppressed(shrinkError);
    }
    return error;
  }

  /** Why a case failed: the error it threw, or {@code null} when the property returned false. */
  private record Failure(Throwable error) {}

  /** Returns {@code null} when the property holds for {@code c}, else why it does not. */
  private static <C> Failure check(Predicate<? super C> holds, C c) {
    try {
      return holds.test(c) ? null : new Failure(null);
    } catch (Exception | AssertionError e) {
      return new Failure(e);
    }
  }

  private static String describe(Object c) {
    String s = String.valueOf(c);
    if (s.length() <= MAX_CASE_CHARS) {
      return s;
    }
    return s.substring(0, MAX_CASE_CHARS) + "... (" + (s.length() - MAX_CASE_CHARS)
        + " more chars)";
  }

  private static long parseSeed(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "-D" + SEED_PROPERTY + " must be a long, was '" + value + "'", e);
    }
  }
}
