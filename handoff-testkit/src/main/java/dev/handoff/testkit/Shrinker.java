package dev.handoff.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Shrinks failing lists by delta debugging: it removes chunks of halving size while the list
 * still fails, then single elements, and stops at a list from which no single element can be
 * removed without the failure going away.
 *
 * <p>The predicate must be deterministic: the same list gives the same answer. It receives
 * unmodifiable snapshots, so it may keep them.
 */
public final class Shrinker {

  private Shrinker() {}

  /**
   * Returns a locally minimal sublist of {@code failing} (elements in their original order) for
   * which {@code stillFails} is true: removing any single element of it makes the predicate false.
   *
   * <p>It calls the predicate at most {@link #maxPredicateCalls(int)
   * maxPredicateCalls(failing.size())} times: quadratic in the worst case, and close to {@code
   * k·log2(n)} calls when {@code k} elements of {@code n} cause the failure.
   *
   * @param failing the list to shrink; the predicate must be true for it
   * @param stillFails whether a candidate list still fails
   * @param <E> the element type
   * @return an unmodifiable list for which the predicate was true
   * @throws IllegalArgumentException if the predicate is false for {@code failing} itself
   */
  public static <E> List<E> shrinkList(List<E> failing, Predicate<? super List<E>> stillFails) {
    return shrinkList(failing, stillFails, Long.MAX_VALUE);
  }

  /**
   * Shrinks like {@link #shrinkList(List, Predicate)} but calls the predicate at most {@code
   * maxCalls} times (the first call checks {@code failing} itself). When the budget runs out it
   * returns the smallest failing list found so far, which may not be locally minimal.
   *
   * @param failing the list to shrink; the predicate must be true for it
   * @param stillFails whether a candidate list still fails
   * @param maxCalls the most predicate calls allowed, {@code >= 1}
   * @param <E> the element type
   * @return an unmodifiable list for which the predicate was true
   * @throws IllegalArgumentException if the predicate is false for {@code failing} itself, or
   *     {@code maxCalls < 1}
   */
  public static <E> List<E> shrinkList(
      List<E> failing, Predicate<? super List<E>> stillFails, long maxCalls) {
    Objects.requireNonNull(failing, "failing");
    Objects.requireNonNull(stillFails, "stillFails");
    if (maxCalls < 1) {
      throw new IllegalArgumentException("maxCalls : " + maxCalls + " (expected: >= 1)");
    }
    List<E> current = Collections.unmodifiableList(new ArrayList<>(failing));
    if (!stillFails.test(current)) {
      throw new IllegalArgumentException(
          "the list to shrink does not fail the predicate: " + failing);
    }
    long calls = 1;
    int chunk = Math.max(1, current.size() / 2);
    while (!current.isEmpty()) {
      boolean removed = false;
      int start = 0;
      while (start < current.size()) {
        if (calls == maxCalls) {
          return current;
        }
        int end = Math.min(start + chunk, current.size());
        List<E> candidate = without(current, start, end);
        calls++;
        if (stillFails.test(candidate)) {
          // The next chunk has moved down to start; try it before moving on.
          current = candidate;
          removed = true;
        } else {
          start = end;
        }
      }
      if (!removed) {
        if (chunk == 1) {
          break; // no single element can go: locally minimal
        }
        chunk /= 2;
      }
      // After a removal the same chunk size gets another round, since removing one chunk can
      // make a chunk that was needed before removable now.
    }
    return current;
  }

  /**
   * Returns the most predicate calls {@link #shrinkList(List, Predicate)} makes for a list of
   * {@code size} elements: {@code 1 + n + n·(n + ⌊log2 n⌋ + 1)}.
   *
   * <p>The first call checks the input. Every later call either succeeds and removes at least one
   * element (at most {@code n} of those) or fails and moves past at least one element of the
   * current round (at most {@code n} per round). A round either removes something (at most {@code
   * n} such rounds) or halves the chunk size or ends the search (at most {@code ⌊log2 n⌋ + 1}).
   */
  public static long maxPredicateCalls(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("size : " + size + " (expected: >= 0)");
    }
    long n = size;
    long log2 = size == 0 ? 0 : 63 - Long.numberOfLeadingZeros(n);
    return 1 + n + n * (n + log2 + 1);
  }

  private static <E> List<E> without(List<E> list, int start, int end) {
    List<E> out = new ArrayList<>(list.size() - (end - start));
    out.addAll(list.subList(0, start));
    out.addAll(list.subList(end, list.size()));
    return Collections.unmodifiableList(out);
  }
}
