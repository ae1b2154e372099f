package dev.interlock.properties.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SourceTest {

  private static final Gen<List<Long>> LISTS = Gen.lists(Gen.longs(0, Long.MAX_VALUE), 5, 20);

  @Test
  void sameSeedGivesSameValuesAndChoices() {
    Source a = Source.random(42);
    Source b = Source.random(42);
    assertThat(LISTS.generate(a)).isEqualTo(LISTS.generate(b));
    assertThat(a.recorded()).isEqualTo(b.recorded()).isNotEmpty();
  }

  @Test
  void differentSeedGivesDifferentValues() {
    assertThat(LISTS.generate(Source.random(1))).isNotEqualTo(LISTS.generate(Source.random(2)));
  }

  @Test
  void replayOfRecordedChoicesReproducesTheValue() {
    for (long seed = 0; seed < 50; seed++) {
      Source random = Source.random(seed);
      List<Long> value = LISTS.generate(random);
      Source replay = Source.replay(random.recorded());
      assertThat(LISTS.generate(replay)).isEqualTo(value);
      assertThat(replay.recorded()).isEqualTo(random.recorded());
    }
  }

  @Test
  void randomChoicesStayInBounds() {
    Source s = Source.random(7);
    for (int i = 0; i < 1_000; i++) {
      assertThat(s.choose(3)).isBetween(0, 3);
      assertThat(s.choose(0)).isZero();
      assertThat(s.choose(Integer.MAX_VALUE)).isNotNegative();
    }
  }

  @Test
  void replayClampsToTheBoundThenAnswersZero() {
    Source s = Source.replay(new int[] {9, 2});
    assertThat(s.choose(5)).isEqualTo(5);
    assertThat(s.choose(5)).isEqualTo(2);
    assertThat(s.choose(5)).isZero();
    assertThat(s.recorded()).containsExactly(5, 2, 0);
    assertThat(s.isReplay()).isTrue();
  }

  @Test
  void recordedIsACopy() {
    Source s = Source.replay(new int[] {3});
    s.choose(9);
    s.recorded()[0] = 99;
    assertThat(s.recorded()).containsExactly(3);
  }

  @Test
  void tooManyChoicesOverrun() {
    Source s = Source.random(1, 10);
    for (int i = 0; i < 10; i++) {
      s.choose(1);
    }
    assertThatThrownBy(() -> s.choose(1)).isInstanceOf(Overrun.class).hasMessageContaining("10");
    assertThat(s.size()).isEqualTo(10);
  }

  @Test
  void defaultLimitStopsAnEndlessGenerator() {
    Source s = Source.replay(new int[0]);
    assertThatThrownBy(() -> {
      while (true) {
        s.choose(1);
      }
    }).isInstanceOf(Overrun.class);
    assertThat(s.size()).isEqualTo(Source.DEFAULT_MAX_CHOICES);
  }

  @Test
  void chanceIsFalseOnTheSimplestChoiceAndRespectsExtremes() {
    assertThat(Source.replay(new int[] {0}).chance(1, 2)).isFalse();
    assertThat(Source.replay(new int[] {1}).chance(1, 2)).isTrue();
    Source s = Source.random(3);
    assertThat(s.chance(0, 5)).isFalse();
    assertThat(s.chance(5, 5)).isTrue();
    assertThat(s.size()).isZero();
    long hits = 0;
    for (int i = 0; i < 4_000; i++) {
      hits += s.chance(1, 4) ? 1 : 0;
    }
    assertThat(hits).isBetween(800L, 1_200L);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> Source.random(1).choose(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Source.replay(new int[] {-1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Source.random(1).chance(3, 2))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
