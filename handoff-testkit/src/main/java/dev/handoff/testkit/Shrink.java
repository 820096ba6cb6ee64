package dev.handoff.testkit;

import java.util.List;
import java.util.function.Predicate;

/**
 * A strategy that makes a failing test case smaller while keeping it failing.
 *
 * <p>{@link Shrinker#shrinkList} is one for lists; a case that holds a list (say a record of a
 * configuration and a list of operations) shrinks that list and rebuilds itself around it:
 *
 * <pre>{@code
 * Shrink<Scenario> shrink = (failing, stillFails) -> failing.withOps(
 *     Shrinker.shrinkList(failing.ops(), ops -> stillFails.test(failing.withOps(ops))));
 * }</pre>
 *
 * @param <C> the case type
 */
@FunctionalInterface
public interface Shrink<C> {

  /**
   * Returns a case no larger than {@code failing} for which {@code stillFails} is true, ideally a
   * smaller one.
   *
   * @param failing a case for which {@code stillFails} is true
   * @param stillFails whether a candidate still fails; may be called many times
   * @return a failing case, {@code failing} itself when nothing smaller fails
   */
  C shrink(C failing, Predicate<C> stillFails);

  /** Returns the strategy that keeps every case as it is. */
  static <C> Shrink<C> none() {
    return (failing, stillFails) -> failing;
  }

  /** Returns {@link Shrinker#shrinkList} as a strategy. */
  static <E> Shrink<List<E>> list() {
    return Shrinker::shrinkList;
  }
}
