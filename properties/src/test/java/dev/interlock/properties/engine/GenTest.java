package dev.interlock.properties.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GenTest {

  private static <T> T random(Gen<T> gen, long seed) {
    return gen.generate(Source.random(seed));
  }

  private static <T> T replay(Gen<T> gen, int... choices) {
    return gen.generate(Source.replay(choices));
  }

  @Test
  void intsStayInRangeAndTheSimplestIsLo() {
    Gen<Integer> gen = Gen.ints(-5, 5);
    Set<Integer> seen = new HashSet<>();
    for (long seed = 0; seed < 500; seed++) {
      seen.add(random(gen, seed));
    }
    assertThat(seen).hasSize(11).allMatch(x -> x >= -5 && x <= 5);
    assertThat(replay(gen)).isEqualTo(-5);
    assertThat(replay(gen, 100)).isEqualTo(5);
  }

  @Test
  void fullRangeIntsAndLongsStayInRangeAndReplay() {
    Gen<Integer> ints = Gen.ints(Integer.MIN_VALUE, Integer.MAX_VALUE);
    Gen<Long> longs = Gen.longs(Long.MIN_VALUE, Long.MAX_VALUE);
    Gen<Long> mid = Gen.longs(-3, (1L << 40));
    boolean negative = false;
    boolean positive = false;
    for (long seed = 0; seed < 200; seed++) {
      Source s = Source.random(seed);
      long a = longs.generate(s);
      long b = mid.generate(s);
      int c = ints.generate(s);
      assertThat(b).isBetween(-3L, 1L << 40);
      negative |= a < 0 && c < 0;
      positive |= a > 0 && c > 0;
      Source r = Source.replay(s.recorded());
      assertThat(longs.generate(r)).isEqualTo(a);
      assertThat(mid.generate(r)).isEqualTo(b);
      assertThat(ints.generate(r)).isEqualTo(c);
    }
    assertThat(negative).isTrue();
    assertThat(positive).isTrue();
    assertThat(replay(longs)).isEqualTo(Long.MIN_VALUE);
    assertThat(replay(ints)).isEqualTo(Integer.MIN_VALUE);
    assertThat(replay(longs, 9, Integer.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void lowerLongChoicesGiveLowerValues() {
    Gen<Long> gen = Gen.longs(0, Long.MAX_VALUE);
    assertThat(replay(gen, 1, 0, 0)).isLessThan(replay(gen, 1, 0, 1));
    assertThat(replay(gen, 0, 5, 5)).isLessThan(replay(gen, 1, 0, 0));
  }

  @Test
  void listsRespectSizeBoundsAndVary() {
    Gen<List<Integer>> gen = Gen.lists(Gen.ints(0, 9), 2, 6);
    Set<Integer> sizes = new HashSet<>();
    for (long seed = 0; seed < 300; seed++) {
      List<Integer> list = random(gen, seed);
      assertThat(list).hasSizeBetween(2, 6);
      sizes.add(list.size());
    }
    assertThat(sizes).containsExactlyInAnyOrder(2, 3, 4, 5, 6);
    assertThat(replay(gen)).containsExactly(0, 0);
    assertThatThrownBy(() -> random(gen, 1).add(1))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void listElementsFollowAMoreChoice() {
    Gen<List<Integer>> gen = Gen.lists(Gen.ints(0, 100), 0, 50);
    assertThat(replay(gen, 1, 7, 1, 8, 0, 99)).containsExactly(7, 8);
    assertThat(replay(gen, 0, 7)).isEmpty();
  }

  @Test
  void booleansOneOfAndConstant() {
    assertThat(replay(Gen.booleans())).isFalse();
    assertThat(replay(Gen.booleans(), 1)).isTrue();
    assertThat(replay(Gen.elements("a", "b", "c"))).isEqualTo("a");
    assertThat(replay(Gen.oneOf(List.of("a", "b", "c")), 2)).isEqualTo("c");
    Source s = Source.random(1);
    assertThat(Gen.constant("x").generate(s)).isEqualTo("x");
    assertThat(s.size()).isZero();
    Gen<Object> either = Gen.oneOfGens(Gen.constant("none"), Gen.ints(10, 20));
    assertThat(replay(either)).isEqualTo("none");
    assertThat(replay(either, 1, 3)).isEqualTo(13);
  }

  @Test
  void mapAndFlatMap() {
    Gen<Integer> tens = Gen.ints(0, 9).map(x -> x * 10);
    assertThat(replay(tens, 4)).isEqualTo(40);
    Gen<List<Integer>> sized =
        Gen.ints(1, 3).flatMap(n -> Gen.lists(Gen.ints(0, 9), n, n));
    assertThat(replay(sized, 1, 5, 6)).containsExactly(5, 6);
  }

  @Test
  void filterRedrawsAndGivesUp() {
    Gen<Integer> even = Gen.ints(0, 100).filter(x -> x % 2 == 0);
    for (long seed = 0; seed < 50; seed++) {
      assertThat(random(even, seed) % 2).isZero();
    }
    assertThat(replay(even, 3, 5, 8)).isEqualTo(8);
    Gen<Integer> never = Gen.ints(0, 100).filter(x -> false);
    assertThatThrownBy(() -> random(never, 1))
        .isInstanceOf(Unsatisfiable.class)
        .hasMessageContaining("filter");
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> Gen.ints(2, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Gen.longs(2, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Gen.lists(Gen.booleans(), 3, 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Gen.oneOf(List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Gen.oneOfGens()).isInstanceOf(IllegalArgumentException.class);
  }
}
