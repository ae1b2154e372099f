package dev.interlock.properties.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class ShrinkerTest {

  @Test
  void deletesSpansAroundWhatMatters() {
    Predicate<int[]> twoSevens = c -> Arrays.stream(c).filter(v -> v == 7).count() >= 2;
    ShrinkResult r = new Shrinker().shrink(new int[] {3, 7, 1, 2, 3, 4, 5, 6, 7, 9}, twoSevens);
    assertThat(r.choices()).containsExactly(7, 7);
    assertThat(r.steps()).isPositive();
  }

  @Test
  void lowersValuesToTheBoundary() {
    ShrinkResult r = new Shrinker().shrink(new int[] {900_000, 5}, c -> c.length == 2 && c[0] >= 1234);
    assertThat(r.choices()).containsExactly(1234, 0);
  }

  @Test
  void alwaysFailingShrinksToEmpty() {
    ShrinkResult r = new Shrinker().shrink(new int[] {5, 4, 3, 2, 1, 9, 9, 9, 9, 9, 9, 9}, c -> true);
    assertThat(r.choices()).isEmpty();
  }

  @Test
  void resultIsNeverWorseAndStillFails() {
    Predicate<int[]> sumAtLeast = c -> Arrays.stream(c).asLongStream().sum() >= 1_000;
    int[] start = {400, 300, 200, 100, 50, 25};
    ShrinkResult r = new Shrinker().shrink(start, sumAtLeast);
    assertThat(sumAtLeast.test(r.choices())).isTrue();
    assertThat(Shortlex.less(r.choices(), start)).isTrue();
    assertThat(r.choices()).containsExactly(1_000);
  }

  @Test
  void normalizesCandidatesToWhatWasConsumed() {
    // the "generator" reads a length n, then n values; the rest of a candidate is not consumed
    Shrinker.Replayer replayer = c -> {
      Source s = Source.replay(c);
      int n = s.choose(10);
      int sum = 0;
      for (int i = 0; i < n; i++) {
        sum += s.choose(100);
      }
      return sum >= 10 ? Optional.of(s.recorded()) : Optional.empty();
    };
    ShrinkResult r = new Shrinker().shrinkReplaying(new int[] {5, 3, 4, 5, 6, 7}, replayer);
    assertThat(r.choices()).containsExactly(1, 10);
  }

  @Test
  void respectsTheAttemptBudget() {
    AtomicInteger calls = new AtomicInteger();
    int[] start = new int[200];
    Arrays.fill(start, 1_000_000);
    ShrinkResult r = new Shrinker(50).shrink(start, c -> {
      calls.incrementAndGet();
      return Arrays.stream(c).asLongStream().sum() >= 150_000_000L;
    });
    assertThat(calls.get()).isLessThanOrEqualTo(50);
    assertThat(r.attempts()).isEqualTo(calls.get());
    assertThat(Arrays.stream(r.choices()).asLongStream().sum()).isGreaterThanOrEqualTo(150_000_000L);
  }

  @Test
  void zeroBudgetReturnsTheInput() {
    ShrinkResult r = new Shrinker(0).shrink(new int[] {3, 2, 1}, c -> true);
    assertThat(r.choices()).containsExactly(3, 2, 1);
    assertThat(r.attempts()).isZero();
  }

  @Test
  void shortlexOrdersByLengthThenLexicographically() {
    assertThat(Shortlex.less(new int[] {9}, new int[] {0, 0})).isTrue();
    assertThat(Shortlex.less(new int[] {1, 9}, new int[] {2, 0})).isTrue();
    assertThat(Shortlex.less(new int[] {2, 0}, new int[] {2, 0})).isFalse();
    assertThat(Shortlex.compare(new int[0], new int[0])).isZero();
  }

  @Test
  void rejectsNegativeChoicesAndBudgets() {
    assertThatThrownBy(() -> new Shrinker().shrink(new int[] {-1}, c -> true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Shrinker(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
