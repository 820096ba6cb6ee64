package dev.handoff.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class GenTest {

  @Test
  void sample_isDeterministicPerSeed() {
    Gen<List<String>> gen = Gen.listOf(Gen.text(20), 10);
    for (long seed = 0; seed < 50; seed++) {
      assertThat(gen.sample(seed)).isEqualTo(gen.sample(seed));
    }
    Set<List<String>> distinct = new HashSet<>();
    for (long seed = 0; seed < 50; seed++) {
      distinct.add(gen.sample(seed));
    }
    assertThat(distinct).hasSizeGreaterThan(40);
  }

  @Test
  void ints_staysInItsRangeAndReachesBothEnds() {
    Gen<Integer> gen = Gen.ints(-2, 3);
    Set<Integer> seen = new HashSet<>();
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 1_000; i++) {
      seen.add(gen.next(random));
    }
    assertThat(seen).containsExactlyInAnyOrder(-2, -1, 0, 1, 2);
    assertThatThrownBy(() -> Gen.ints(3, 3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void longs_includeEdgeValuesOften() {
    Gen<Long> gen = Gen.longs();
    SplittableRandom random = new SplittableRandom(2);
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      seen.add(gen.next(random));
    }
    assertThat(seen).contains(0L, -1L, 127L, 128L, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  @Test
  void listOf_sizesStayWithinZeroAndMaxSize() {
    Gen<List<Integer>> gen = Gen.listOf(Gen.ints(0, 5), 4);
    SplittableRandom random = new SplittableRandom(3);
    Set<Integer> sizes = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      List<Integer> list = gen.next(random);
      sizes.add(list.size());
      assertThatThrownBy(() -> list.add(1)).isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(sizes).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    assertThatThrownBy(() -> Gen.listOf(Gen.ints(0, 1), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void text_mixesEveryUtf8WidthAndUnpairedSurrogatesWithinMaxLength() {
    Gen<String> gen = Gen.text(30);
    SplittableRandom random = new SplittableRandom(4);
    boolean ascii = false;
    boolean twoByte = false;
    boolean threeByte = false;
    boolean pair = false;
    boolean unpaired = false;
    for (int i = 0; i < 500; i++) {
      String s = gen.next(random);
      assertThat(s.length()).isBetween(0, 30);
      for (int j = 0; j < s.length(); j++) {
        char c = s.charAt(j);
        ascii |= c < 0x80;
        twoByte |= c >= 0x80 && c < 0x800;
        threeByte |= c >= 0x800 && !Character.isSurrogate(c);
        if (Character.isHighSurrogate(c) && j + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(j + 1))) {
          pair = true;
          j++;
        } else if (Character.isSurrogate(c)) {
          unpaired = true;
        }
      }
      // Whatever it holds, Java can encode it (unpaired surrogates become '?').
      assertThat(s.getBytes(StandardCharsets.UTF_8)).isNotNull();
    }
    assertThat(List.of(ascii, twoByte, threeByte, pair, unpaired)).containsOnly(true);
  }

  @Test
  void mapAndElementOf_compose() {
    Gen<String> gen = Gen.elementOf(List.of("a", "b")).map(s -> s + "!");
    SplittableRandom random = new SplittableRandom(5);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      seen.add(gen.next(random));
    }
    assertThat(seen).containsExactlyInAnyOrder("a!", "b!");
    assertThatThrownBy(() -> Gen.elementOf(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void booleans_produceBothValues() {
    SplittableRandom random = new SplittableRandom(6);
    Set<Boolean> seen = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      seen.add(Gen.booleans().next(random));
    }
    assertThat(seen).containsExactlyInAnyOrder(true, false);
  }
}
