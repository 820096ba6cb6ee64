package dev.handoff.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A deterministic generator of test values: the same random state gives the same value, so a
 * seed reproduces a whole case.
 *
 * <p>Generators draw from a {@link SplittableRandom} and nothing else (no clock, no global
 * state). Compose them with {@link #map} and the factories here, and turn a seed into a case with
 * {@link #sample}, which fits {@link SeedSweep#run}:
 *
 * <pre>{@code
 * Gen<List<String>> keys = Gen.listOf(Gen.text(12), 50);
 * SeedSweep.run("keys route stably", 1, 500, keys::sample, RouterTest::routesStably,
 *     Shrink.list());
 * }</pre>
 *
 * @param <T> the value type
 */
@FunctionalInterface
public interface Gen<T> {

  /** Returns the next value, drawing from {@code random}. */
  T next(SplittableRandom random);

  /** Returns the value this generator makes from a fresh random state seeded with {@code seed}. */
  default T sample(long seed) {
    return next(new SplittableRandom(seed));
  }

  /** Returns a generator of {@code f} applied to this generator's values. */
  default <R> Gen<R> map(Function<? super T, ? extends R> f) {
    Objects.requireNonNull(f, "f");
    return random -> f.apply(next(random));
  }

  /** Returns a generator of ints in {@code [origin, bound)}, uniformly. */
  static Gen<Integer> ints(int origin, int bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "ints(" + origin + ", " + bound + ") (expected: origin < bound)");
    }
    return random -> random.nextInt(origin, bound);
  }

  /**
   * Returns a generator of any long, with one value in eight taken from the edge cases that break
   * encoders: {@code 0}, {@code ±1}, the {@code byte}, {@code short}, {@code int} and {@code long}
   * limits and the varint length boundaries {@code 127}, {@code 128}, {@code 16383}, {@code 16384}.
   */
  static Gen<Long> longs() {
    return random -> random.nextInt(8) == 0
        ? EdgeValues.LONGS[random.nextInt(EdgeValues.LONGS.length)]
        : random.nextLong();
  }

  /** Returns a generator of fair booleans. */
  static Gen<Boolean> booleans() {
    return SplittableRandom::nextBoolean;
  }

  /** Returns a generator of one of {@code values}, uniformly. */
  static <T> Gen<T> elementOf(List<? extends T> values) {
    List<? extends T> copy = List.copyOf(values);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("elementOf needs at least one value");
    }
    return random -> copy.get(random.nextInt(copy.size()));
  }

  /**
   * Returns a generator of lists of {@code element} values, their size uniform in {@code [0,
   * maxSize]}. The lists are unmodifiable and may hold nulls if {@code element} makes them.
   */
  static <E> Gen<List<E>> listOf(Gen<? extends E> element, int maxSize) {
    Objects.requireNonNull(element, "element");
    if (maxSize < 0) {
      throw new IllegalArgumentException("maxSize : " + maxSize + " (expected: >= 0)");
    }
    return random -> {
      int size = random.nextInt(maxSize + 1);
      List<E> out = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        out.add(element.next(random));
      }
      return Collections.unmodifiableList(out);
    };
  }

  /**
   * Returns a generator of strings of {@code [0, maxLength]} chars that mix every UTF-8 width:
   * ASCII, 2- and 3-byte characters, supplementary characters (surrogate pairs) and unpaired
   * surrogates, which UTF-8 encoders must replace with {@code '?'}.
   */
  static Gen<String> text(int maxLength) {
    if (maxLength < 0) {
      throw new IllegalArgumentException("maxLength : " + maxLength + " (expected: >= 0)");
    }
    return random -> {
      int length = random.nextInt(maxLength + 1);
      StringBuilder sb = new StringBuilder(length);
      while (sb.length() < length) {
        switch (random.nextInt(6)) {
          case 0, 1 -> sb.append((char) random.nextInt(0x20, 0x7F));
          case 2 -> sb.append((char) random.nextInt(0x80, 0x800));
          case 3 -> sb.append((char) random.nextInt(0x800, 0xD800));
          case 4 -> {
            if (sb.length() + 2 <= length) {
              sb.appendCodePoint(random.nextInt(0x10000, 0x110000));
            }
          }
          default -> sb.append((char) random.nextInt(0xD800, 0xE000)); // usually unpaired
        }
      }
      return sb.toString();
    };
  }
}

/** The edge values {@link Gen#longs()} favours. */
final class EdgeValues {
  static final long[] LONGS = {
    0L, 1L, -1L,
    Byte.MIN_VALUE, Byte.MAX_VALUE, 0xFFL,
    Short.MIN_VALUE, Short.MAX_VALUE, 0xFFFFL,
    Integer.MIN_VALUE, Integer.MAX_VALUE, 0xFFFF_FFFFL,
    Long.MIN_VALUE, Long.MAX_VALUE,
    127L, 128L, 16_383L, 16_384L,
  };

  private EdgeValues() {}
}
