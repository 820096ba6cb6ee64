package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event queue pops by virtual time, and events of equal time in scheduling order. */
final class SchedulerTest {

  @Test
  void pop_ordersByTimeThenBySchedulingOrder() {
    Scheduler s = new Scheduler();
    Rng r = new Rng(3);
    List<long[]> scheduled = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      long t = r.nextInt(20);
      s.schedule(t, 0, i, 0);
      scheduled.add(new long[] {t, i});
    }
    scheduled.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));

    for (long[] expected : scheduled) {
      s.pop();
      assertThat(new long[] {s.popTime, s.popArg}).containsExactly(expected);
    }
    assertThat(s.isEmpty()).isTrue();
  }

  @Test
  void rng_derivedStreamsAreIndependentAndRepeatable() {
    assertThat(Rng.derive(1, 2).nextLong()).isEqualTo(Rng.derive(1, 2).nextLong());
    assertThat(Rng.derive(1, 2).nextLong()).isNotEqualTo(Rng.derive(1, 3).nextLong());
    Rng r = new Rng(9);
    for (int i = 0; i < 1000; i++) {
      assertThat(r.nextInt(7)).isBetween(0, 6);
      assertThat(r.between(-3, 3)).isBetween(-3L, 3L);
    }
    assertThat(new Rng(5).chance(0)).isFalse();
  }
}
