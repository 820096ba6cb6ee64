package dev.handoff.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class RetryPolicyTest {

  @Test
  void backoffDoublesFromTheInitialWaitAndStopsAtTheMaximum() {
    RetryPolicy p = new RetryPolicy(100, Duration.ofMillis(100), Duration.ofSeconds(1), 0.0,
        Duration.ofMinutes(1));
    assertThat(new long[] {p.baseBackoffNanos(1), p.baseBackoffNanos(2), p.baseBackoffNanos(3),
        p.baseBackoffNanos(4), p.baseBackoffNanos(5), p.baseBackoffNanos(90)})
        .containsExactly(100_000_000L, 200_000_000L, 400_000_000L, 800_000_000L, 1_000_000_000L,
            1_000_000_000L);
    assertThat(p.backoffNanos(3, new SplittableRandom(1))).isEqualTo(400_000_000L);
  }

  @Test
  void jitterTakesAtMostItsFractionOffAndReplaysForASeed() {
    RetryPolicy p = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofSeconds(1), 0.25,
        Duration.ofMinutes(1));
    SplittableRandom a = new SplittableRandom(42);
    SplittableRandom b = new SplittableRandom(42);
    for (int attempt = 1; attempt <= 200; attempt++) {
      long base = p.baseBackoffNanos(Math.min(attempt, 10));
      long wait = p.backoffNanos(Math.min(attempt, 10), a);
      assertThat(wait).isBetween((long) (base * 0.75), base);
      assertThat(p.backoffNanos(Math.min(attempt, 10), b)).isEqualTo(wait);
    }
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new RetryPolicy(0, Duration.ofMillis(1), Duration.ofMillis(1), 0,
        Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofMillis(2), Duration.ofMillis(1), 0,
        Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), 1.5,
        Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThat(RetryPolicy.defaults().maxAttempts()).isEqualTo(10);
    assertThat(RetryPolicy.none().maxAttempts()).isOne();
  }

  @Test
  void acceptsTheBoundsOfEveryField() {
    RetryPolicy flat = new RetryPolicy(1, Duration.ofMillis(5), Duration.ofMillis(5), 1.0,
        Duration.ZERO);
    assertThat(flat.jitter()).isEqualTo(1.0);
    assertThat(flat.baseBackoffNanos(3)).isEqualTo(Duration.ofMillis(5).toNanos());
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), -0.01,
        Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aLateAttemptWaitsTheMaximumWithoutOverflowing() {
    RetryPolicy p = new RetryPolicy(100, Duration.ofNanos(3), Duration.ofSeconds(10), 0,
        Duration.ofHours(1));
    long max = Duration.ofSeconds(10).toNanos();
    for (int attempt : new int[] {33, 34, 62, 63, 64, 1_000}) {
      assertThat(p.baseBackoffNanos(attempt)).as("attempt " + attempt).isEqualTo(max);
    }
    assertThat(p.baseBackoffNanos(31)).isEqualTo(3L << 30);
  }
}
