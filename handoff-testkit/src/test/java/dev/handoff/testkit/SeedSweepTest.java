package dev.handoff.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

final class SeedSweepTest {

  /* Case of seed s: the numbers 0..s; it fails once it holds both 3 and 7, i.e. from seed 7. */
  private static final LongFunction<List<Long>> UP_TO_SEED =
      seed -> LongStream.rangeClosed(0, seed).boxed().collect(Collectors.toList());

  private static boolean lacksThreeOrSeven(List<Long> list) {
    return !(list.contains(3L) && list.contains(7L));
  }

  @Test
  void run_passesWhenThePropertyHoldsForEverySeed() {
    List<Long> seen = new ArrayList<>();
    SeedSweep.run("always", 10, 5, seed -> seed, seed -> seen.add(seed), Shrink.none(), null);
    assertThat(seen).containsExactly(10L, 11L, 12L, 13L, 14L);
  }

  @Test
  void run_reportsTheFirstFailingSeedTheOriginalAndTheShrunkCase() {
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 0, 100, UP_TO_SEED, SeedSweepTest::lacksThreeOrSeven, Shrink.list(),
        null));

    assertThat(error).isNotNull();
    assertThat(error.getMessage())
        .contains("no 3 with 7")
        .contains("seed 7 ")
        .contains("after 7 passing seed(s)")
        .contains("original:  [0, 1, 2, 3, 4, 5, 6, 7]")
        .contains("shrunk:    [3, 7]")
        .contains("the property returned false")
        .contains("rerun with -Dhandoff.seed=7");
    assertThat(error).hasNoCause();
  }

  @Test
  void run_stopsAtTheFirstFailingSeed() {
    List<Long> seen = new ArrayList<>();
    assertThatThrownBy(() -> SeedSweep.run("below 3", 0, 100, seed -> seed, seed -> {
      seen.add(seed);
      return seed < 3;
    }, Shrink.none(), null)).isInstanceOf(AssertionError.class);
    assertThat(seen).containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void run_treatsAThrownErrorAsFailureAndChainsItAsCause() {
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 5, 10, UP_TO_SEED, list -> {
          if (!lacksThreeOrSeven(list)) {
            throw new IllegalStateException("saw 3 and 7 in " + list);
          }
          return true;
        }, Shrink.list(), null));

    assertThat(error.getMessage())
        .contains("seed 7 ")
        .contains("shrunk:    [3, 7]")
        .contains("saw 3 and 7 in [3, 7]");
    // The cause is the failure of the shrunk case, the one worth debugging.
    assertThat(error.getCause())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("saw 3 and 7 in [3, 7]");
  }

  @Test
  void run_treatsAFailedAssertionInsideThePropertyAsFailure() {
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "small", 0, 10, seed -> seed, seed -> {
          assertThat(seed).isLessThan(4L);
          return true;
        }, Shrink.none(), null));
    assertThat(error.getMessage()).contains("seed 4 ");
    assertThat(error.getCause()).isInstanceOf(AssertionError.class);
  }

  @Test
  void run_withSeedOverride_checksOnlyThatSeed() {
    List<Long> seen = new ArrayList<>();
    SeedSweep.run("any", 0, 1_000, seed -> seed, seed -> seen.add(seed), Shrink.none(), " 42 ");
    assertThat(seen).containsExactly(42L);

    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 0, 3, UP_TO_SEED, SeedSweepTest::lacksThreeOrSeven, Shrink.list(),
        "9"));
    assertThat(error.getMessage())
        .contains("seed 9 (the only seed, from -Dhandoff.seed)")
        .contains("shrunk:    [3, 7]")
        .contains("rerun with -Dhandoff.seed=9");
  }

  @Test
  void run_withBlankSeedOverride_sweepsTheWholeRange() {
    List<Long> seen = new ArrayList<>();
    SeedSweep.run("any", 0, 3, seed -> seed, seed -> seen.add(seed), Shrink.none(), "  ");
    assertThat(seen).containsExactly(0L, 1L, 2L);
  }

  @Test
  void run_withNegativeSeedOverride_usesIt() {
    List<Long> seen = new ArrayList<>();
    SeedSweep.run("any", 0, 3, seed -> seed, seed -> seen.add(seed), Shrink.none(), "-5");
    assertThat(seen).containsExactly(-5L);
  }

  @Test
  void run_rejectsAMalformedSeedOverride() {
    assertThatThrownBy(() -> SeedSweep.run(
        "any", 0, 3, seed -> seed, seed -> true, Shrink.none(), "abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("handoff.seed")
        .hasMessageContaining("abc");
  }

  @Test
  void run_rejectsANonPositiveCount() {
    assertThatThrownBy(() -> SeedSweep.run("any", 0, 0, seed -> seed, seed -> true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("count");
  }

  @Test
  void run_withoutShrinker_reportsTheOriginalAsShrunk() {
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 0, 100, UP_TO_SEED, SeedSweepTest::lacksThreeOrSeven, Shrink.none(),
        null));
    assertThat(error.getMessage()).contains("shrunk:    [0, 1, 2, 3, 4, 5, 6, 7]");
  }

  @Test
  void run_neverReportsAShrunkCaseThatPasses() {
    Shrink<List<Long>> broken = (failing, stillFails) -> List.of();
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 0, 100, UP_TO_SEED, SeedSweepTest::lacksThreeOrSeven, broken, null));
    assertThat(error.getMessage())
        .contains("shrunk:    [0, 1, 2, 3, 4, 5, 6, 7]")
        .contains("the shrinker returned a passing case");
  }

  @Test
  void run_reportsTheOriginalWhenTheShrinkerThrows() {
    Shrink<List<Long>> throwing = (failing, stillFails) -> {
      throw new UnsupportedOperationException("cannot shrink");
    };
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 0, 100, UP_TO_SEED, SeedSweepTest::lacksThreeOrSeven, throwing, null));
    assertThat(error.getMessage())
        .contains("shrunk:    [0, 1, 2, 3, 4, 5, 6, 7]")
        .contains("cannot shrink");
    assertThat(error.getSuppressed()).hasSize(1);
  }

  @Test
  void run_cutsVeryLongCaseDescriptions() {
    String huge = "x".repeat(SeedSweep.MAX_CASE_CHARS + 10);
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "short", 0, 1, seed -> huge, s -> false, Shrink.none(), null));
    assertThat(error.getMessage())
        .contains("(10 more chars)")
        .doesNotContain(huge);
  }

  @Test
  void run_withGenSample_reproducesTheSameCaseForTheSameSeed() {
    Gen<List<Integer>> gen = Gen.listOf(Gen.ints(0, 10), 30);
    AssertionError first = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 100, 1_000, gen::sample,
        list -> !(list.contains(3) && list.contains(7)), Shrink.list(), null));
    String seed = first.getMessage().replaceAll("(?s).*-Dhandoff\\.seed=(-?\\d+).*", "$1");

    AssertionError again = catchThrowableOfType(AssertionError.class, () -> SeedSweep.run(
        "no 3 with 7", 0, 1, gen::sample,
        list -> !(list.contains(3) && list.contains(7)), Shrink.list(), seed));

    assertThat(again.getMessage()).contains("seed " + seed + " ");
    assertThat(again.getMessage().replaceAll("(?s).*original: +([^\\n]*).*", "$1"))
        .isEqualTo(first.getMessage().replaceAll("(?s).*original: +([^\\n]*).*", "$1"));
    assertThat(again.getMessage()).satisfiesAnyOf(
            m -> assertThat(m).contains("shrunk:    [3, 7]"),
            m -> assertThat(m).contains("shrunk:    [7, 3]"));
  }
}
