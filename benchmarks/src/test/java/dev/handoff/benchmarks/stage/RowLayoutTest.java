package dev.handoff.benchmarks.stage;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@link RowLayout#tenure} refuses to run in a JVM that has already collected: the rows may have
 * been copied and scattered, so the benchmark would measure their layout. (Its success needs a
 * fresh JVM with the fork's heap flags, which is the benchmark's own setup.)
 */
class RowLayoutTest {

  @Test
  void refusesAfterACollection() {
    System.gc(); // this test JVM may not have collected yet
    assertThatThrownBy(RowLayout::tenure)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("collections ran while the rows were generated")
        .hasMessageContaining(RowLayout.YOUNG);
  }
}
