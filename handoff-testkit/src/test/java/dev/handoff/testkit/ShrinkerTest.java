package dev.handoff.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class ShrinkerTest {

  @Test
  void shrinkList_keepsExactlyTheTwoElementsThatTogetherCauseTheFailure() {
    List<Integer> failing = range(0, 20);
    List<Integer> shrunk =
        Shrinker.shrinkList(failing, list -> list.contains(3) && list.contains(7));
    assertThat(shrunk).containsExactly(3, 7);
  }

  @Test
  void shrinkList_keepsTheOriginalOrderAndDuplicatesThatMatter() {
    // Fails when some 5 comes before some 1, and there are at least two 9s.
    Predicate<List<Integer>> fails = list -> {
      int five = list.indexOf(5);
      return five >= 0 && list.subList(five, list.size()).contains(1)
          && list.stream().filter(x -> x == 9).count() >= 2;
    };
    List<Integer> failing = List.of(9, 1, 2, 5, 9, 3, 1, 9, 4);
    // Every locally minimal answer is a subsequence of 5, 1 and two of the three 9s.
    assertThat(Shrinker.shrinkList(failing, fails))
        .isIn(List.of(9, 5, 9, 1), List.of(9, 5, 1, 9), List.of(5, 9, 1, 9));
  }

  @Test
  void shrinkList_returnsTheEmptyListWhenEverythingFails() {
    assertThat(Shrinker.shrinkList(range(0, 9), list -> true)).isEmpty();
  }

  @Test
  void shrinkList_returnsASingleElementCause() {
    assertThat(Shrinker.shrinkList(range(0, 100), list -> list.contains(42)))
        .containsExactly(42);
  }

  @Test
  void shrinkList_handlesNullElements() {
    List<String> failing = Arrays.asList("a", null, "b", null);
    assertThat(Shrinker.shrinkList(failing, list -> list.contains(null)))
        .containsExactly((String) null);
  }

  @Test
  void shrinkList_rejectsAListThatDoesNotFail() {
    assertThatThrownBy(() -> Shrinker.shrinkList(List.of(1, 2), list -> false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[1, 2]");
  }

  @Test
  void shrinkList_neverMutatesTheInputAndReturnsAnUnmodifiableList() {
    List<Integer> failing = new ArrayList<>(range(0, 10));
    List<Integer> shrunk = Shrinker.shrinkList(failing, list -> list.contains(4));
    assertThat(failing).isEqualTo(range(0, 10));
    assertThatThrownBy(() -> shrunk.add(1)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shrinkList_passesUnmodifiableCandidatesToThePredicate() {
    List<Integer> shrunk = Shrinker.shrinkList(range(0, 4), list -> {
      assertThatThrownBy(list::clear).isInstanceOf(UnsupportedOperationException.class);
      return list.contains(2);
    });
    assertThat(shrunk).containsExactly(2);
  }

  @Test
  void shrinkList_forArbitraryPredicates_returnsAFailingLocallyMinimalListWithinTheCallBound() {
    // Non-monotone predicates (a hash of the contents) are the hardest case for the bound.
    SplittableRandom random = new SplittableRandom(2026L);
    for (int round = 0; round < 300; round++) {
      int size = random.nextInt(0, 40);
      List<Integer> failing = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        failing.add(random.nextInt(10));
      }
      int salt = random.nextInt();
      int modulus = 2 + random.nextInt(4);
      Predicate<List<Integer>> hashFails = list -> Math.floorMod(list.hashCode() ^ salt, modulus)
          != 0 || list.equals(failing);
      Set<List<Integer>> answeredFalse = new HashSet<>();
      AtomicLong calls = new AtomicLong();
      Predicate<List<Integer>> counting = list -> {
        calls.incrementAndGet();
        boolean result = hashFails.test(list);
        if (!result) {
          answeredFalse.add(List.copyOf(list));
        }
        return result;
      };

      List<Integer> shrunk = Shrinker.shrinkList(failing, counting);

      assertThat(hashFails.test(shrunk)).as("round %d: result fails", round).isTrue();
      assertThat(answeredFalse).as("round %d: result never answered false", round)
          .doesNotContain(shrunk);
      assertThat(calls.get()).as("round %d: calls for size %d", round, size)
          .isLessThanOrEqualTo(Shrinker.maxPredicateCalls(size));
      for (int i = 0; i < shrunk.size(); i++) {
        List<Integer> smaller = new ArrayList<>(shrunk);
        smaller.remove(i);
        assertThat(hashFails.test(smaller)).as("round %d: removing index %d", round, i).isFalse();
      }
    }
  }

  @Test
  void shrinkList_findsAFewCausesInFarFewerCallsThanTheWorstCase() {
    AtomicLong calls = new AtomicLong();
    List<Integer> shrunk = Shrinker.shrinkList(range(0, 1_000), list -> {
      calls.incrementAndGet();
      return list.contains(123) && list.contains(877);
    });
    assertThat(shrunk).containsExactly(123, 877);
    assertThat(calls.get()).isLessThan(200);
  }

  @Test
  void shrinkList_withBudget_stopsAfterMaxCallsAndStillReturnsAFailingList() {
    Predicate<List<Integer>> fails = list -> list.contains(3) && list.contains(7);
    for (long budget = 1; budget <= 40; budget++) {
      AtomicLong calls = new AtomicLong();
      List<Integer> shrunk = Shrinker.shrinkList(range(0, 20), list -> {
        calls.incrementAndGet();
        return fails.test(list);
      }, budget);
      assertThat(calls.get()).as("budget %d", budget).isLessThanOrEqualTo(budget);
      assertThat(fails.test(shrunk)).as("budget %d", budget).isTrue();
    }
    assertThat(Shrinker.shrinkList(range(0, 20), fails, 1)).isEqualTo(range(0, 20));
  }

  @Test
  void shrinkList_withBudget_rejectsBudgetsBelowOne() {
    assertThatThrownBy(() -> Shrinker.shrinkList(List.of(1), list -> true, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void maxPredicateCalls_growsQuadraticallyFromOneForTheEmptyList() {
    assertThat(Shrinker.maxPredicateCalls(0)).isEqualTo(1);
    assertThat(Shrinker.maxPredicateCalls(1)).isEqualTo(1 + 1 + 1 * (1 + 0 + 1));
    assertThat(Shrinker.maxPredicateCalls(8)).isEqualTo(1 + 8 + 8 * (8 + 3 + 1));
    assertThatThrownBy(() -> Shrinker.maxPredicateCalls(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shrinkList_isUsableAsAShrinkStrategy() {
    Shrink<List<Integer>> shrink = Shrink.list();
    assertThat(shrink.shrink(range(0, 10), list -> list.contains(5))).containsExactly(5);
    assertThat(Shrink.<List<Integer>>none().shrink(range(0, 3), list -> true))
        .isEqualTo(range(0, 3));
  }

  private static List<Integer> range(int from, int to) {
    return IntStream.range(from, to).boxed().collect(Collectors.toUnmodifiableList());
  }
}
