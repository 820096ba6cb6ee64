package dev.handoff.core.sink;

import java.time.Duration;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * How a sink worker retries an insert that failed with a transient error: exponential backoff
 * with jitter, bounded by a number of attempts and by the time spent.
 *
 * <p>After failed attempt {@code n} (1-based) the worker waits {@code base(n) = min(maxBackoff,
 * initialBackoff * 2^(n-1))}, reduced by a random fraction of at most {@code jitter}: the wait is
 * {@code base(n) * (1 - jitter * u)} with {@code u} uniform in {@code [0, 1)} drawn from the
 * worker's seeded generator. It stops retrying when {@code maxAttempts} attempts failed, or when
 * the next wait would end more than {@code maxElapsed} after the first attempt started; the
 * insert is then abandoned (its acknowledgements fail, so the batches replay).
 *
 * @param maxAttempts attempts in total, the first included; {@code >= 1}
 * @param initialBackoff the wait after the first failure; {@code > 0}
 * @param maxBackoff the longest single wait; {@code >= initialBackoff}
 * @param jitter the largest fraction taken off a wait at random, in {@code [0, 1]}
 * @param maxElapsed the longest time from the first attempt to the start of the last one; {@code
 *     >= 0}
 */
public record RetryPolicy(
    int maxAttempts,
    Duration initialBackoff,
    Duration maxBackoff,
    double jitter,
    Duration maxElapsed) {

  /** Validates the fields. */
  public RetryPolicy {
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(maxElapsed, "maxElapsed");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts : " + maxAttempts + " (expected: >= 1)");
    }
    if (initialBackoff.isNegative() || initialBackoff.isZero()) {
      throw new IllegalArgumentException(
          "initialBackoff : " + initialBackoff + " (expected: > 0)");
    }
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxBackoff : " + maxBackoff + " (expected: >= initialBackoff " + initialBackoff + ")");
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("jitter : " + jitter + " (expected: 0..1)");
    }
    if (maxElapsed.isNegative()) {
      throw new IllegalArgumentException("maxElapsed : " + maxElapsed + " (expected: >= 0)");
    }
  }

  /**
   * Returns the defaults: 10 attempts, 100 ms doubling up to 10 s, jitter 0.2, at most 2 minutes
   * of retrying. A ClickHouse restart usually fits in that.
   */
  public static RetryPolicy defaults() {
    return new RetryPolicy(10, Duration.ofMillis(100), Duration.ofSeconds(10), 0.2,
        Duration.ofMinutes(2));
  }

  /** Returns a policy that never retries: the first transient failure abandons the insert. */
  public static RetryPolicy none() {
    return new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), 0.0, Duration.ZERO);
  }

  /** Returns the wait before retry after failed attempt {@code attempt}, without jitter. */
  public long baseBackoffNanos(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt : " + attempt + " (expected: >= 1)");
    }
    long initial = initialBackoff.toNanos();
    long max = maxBackoff.toNanos();
    int shift = Math.min(attempt - 1, 62);
    if (initial > (max >> shift)) {
      return max; // initial * 2^shift would pass max (or overflow)
    }
    return Math.min(max, initial << shift);
  }

  /**
   * Returns the wait before retry after failed attempt {@code attempt}, with jitter drawn from
   * {@code random}.
   */
  public long backoffNanos(int attempt, SplittableRandom random) {
    long base = baseBackoffNanos(attempt);
    if (jitter == 0.0) {
      return base;
    }
    double u = random.nextDouble();
    return Math.max(1L, (long) (base * (1.0 - jitter * u)));
  }
}
