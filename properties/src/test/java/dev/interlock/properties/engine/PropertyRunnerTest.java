package dev.interlock.properties.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PropertyRunnerTest {

  private static final Gen<List<Integer>> LISTS = Gen.lists(Gen.ints(0, 100), 0, 50);

  private static int sum(List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).sum();
  }

  /** True when every element below 10 comes before every element of 10 or more. */
  private static boolean smallBeforeLarge(List<Integer> xs) {
    boolean seenLarge = false;
    for (int x : xs) {
      if (x >= 10) {
        seenLarge = true;
      } else if (seenLarge) {
        return false;
      }
    }
    return true;
  }

  @Test
  void intsShrinkToTheExactBoundary() {
    for (long seed = 0; seed < 5; seed++) {
      PropertyResult<Integer> r =
          PropertyRunner.check("below 500", Gen.ints(0, 1000), x -> x < 500, Config.ofSeed(seed));
      assertThat(r).isInstanceOf(PropertyResult.Failed.class);
      PropertyResult.Failed<Integer> f = (PropertyResult.Failed<Integer>) r;
      assertThat(f.shrunk()).isEqualTo(500);
      assertThat(f.original()).isGreaterThanOrEqualTo(500);
      assertThat(f.shrunkChoices()).containsExactly(500);
      assertThat(f.failure()).isNull();
    }
  }

  @Test
  void listSumShrinksToASingleElement() {
    for (long seed = 0; seed < 10; seed++) {
      PropertyResult.Failed<List<Integer>> f =
          PropertyRunner.assertFails("sum below 100", LISTS, xs -> sum(xs) < 100, Config.ofSeed(seed));
      assertThat(sum(f.shrunk())).isEqualTo(100);
      assertThat(f.shrunk()).containsExactly(100);
      assertThat(f.shrunkChoices()).containsExactly(1, 100, 0);
    }
  }

  @Test
  void orderingShrinkDeletesTheElementsInBetween() {
    for (long seed = 0; seed < 10; seed++) {
      PropertyResult.Failed<List<Integer>> f = PropertyRunner.assertFails(
          "small before large", LISTS, PropertyRunnerTest::smallBeforeLarge, Config.ofSeed(seed));
      assertThat(f.shrunk()).containsExactly(10, 0);
      assertThat(f.original().size()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void alwaysFailingShrinksToTheSimplestValueWithinBudget() {
    PropertyResult.Failed<List<Integer>> f = PropertyRunner.assertFails(
        "always fails", LISTS, xs -> false, Config.ofSeed(3).withMaxShrinks(200));
    assertThat(f.shrunk()).isEmpty();
    assertThat(f.shrunkChoices()).containsExactly(0);
    assertThat(f.shrinkSteps()).isBetween(1, 200);
  }

  @Test
  void aThrowingPropertyFailsAndKeepsTheException() {
    PropertyResult.Failed<Integer> f = PropertyRunner.assertFails("throws", Gen.ints(0, 1000), x -> {
      if (x > 10) {
        throw new IllegalStateException("boom " + x);
      }
      return true;
    }, Config.ofSeed(1));
    assertThat(f.shrunk()).isEqualTo(11);
    assertThat(f.failure()).isInstanceOf(IllegalStateException.class).hasMessage("boom 11");
    assertThat(f.report()).contains("boom 11");
  }

  @Test
  void anAssertionErrorCountsAsFailure() {
    PropertyResult.Failed<Boolean> f = PropertyRunner.assertFails("asserts", Gen.booleans(), b -> {
      if (b) {
        throw new AssertionError("was true");
      }
      return true;
    }, Config.ofSeed(1));
    assertThat(f.shrunk()).isTrue();
    assertThat(f.failure()).isInstanceOf(AssertionError.class).hasMessage("was true");
  }

  @Test
  void runsAreReproducibleFromTheSeed() {
    Config config = Config.ofSeed(99);
    PropertyResult<List<Integer>> a = PropertyRunner.check("sum", LISTS, xs -> sum(xs) < 150, config);
    PropertyResult<List<Integer>> b = PropertyRunner.check("sum", LISTS, xs -> sum(xs) < 150, config);
    assertThat(a).isEqualTo(b).isInstanceOf(PropertyResult.Failed.class);
    PropertyResult.Failed<List<Integer>> f = (PropertyResult.Failed<List<Integer>>) a;
    assertThat(LISTS.generate(Source.replay(f.shrunkChoices()))).isEqualTo(f.shrunk());
  }

  @Test
  void passingPropertyRunsAllTries() {
    PropertyResult<Integer> r =
        PropertyRunner.check("in range", Gen.ints(3, 7), x -> x >= 3 && x <= 7, Config.ofSeed(5).withTries(37));
    assertThat(r).isEqualTo(new PropertyResult.Passed<Integer>("in range", 5, 37));
    assertThat(r.passed()).isTrue();
    assertThat(r.report()).contains("37 tries", "-Dinterlock.seed=5");
  }

  @Test
  void assertHoldsPassesQuietlyAndThrowsTheReportOnFailure() {
    PropertyRunner.assertHolds("holds", Gen.ints(0, 10), x -> x <= 10, Config.ofSeed(1));
    IllegalStateException boom = new IllegalStateException("boom");
    assertThatThrownBy(() -> PropertyRunner.assertHolds("breaks", Gen.ints(0, 10), x -> {
      throw boom;
    }, Config.ofSeed(8)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("'breaks'")
        .hasMessageContaining("-Dinterlock.seed=8")
        .hasCause(boom);
  }

  @Test
  void assertFailsThrowsWhenThePropertyHolds() {
    assertThatThrownBy(() -> PropertyRunner.assertFails("holds", Gen.ints(0, 10), x -> true, Config.ofSeed(1)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected property 'holds' to fail");
  }

  @Test
  void endlessGeneratorIsInvalidNotAHang() {
    Gen<Integer> endless = s -> {
      while (true) {
        s.choose(1);
      }
    };
    assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
        assertThatThrownBy(() -> PropertyRunner.check("endless", endless, x -> true, Config.ofSeed(1).withTries(5)))
            .isInstanceOf(Unsatisfiable.class)
            .hasCauseInstanceOf(Overrun.class));
  }

  @Test
  void sometimesEndlessGeneratorStillShrinks() {
    Gen<Integer> sometimes = s -> {
      if (s.choose(1) == 1) {
        while (true) {
          s.choose(1);
        }
      }
      return s.choose(100);
    };
    PropertyResult.Failed<Integer> f = assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
        PropertyRunner.assertFails("sometimes endless", sometimes, x -> x < 50, Config.ofSeed(2).withTries(30)));
    assertThat(f.shrunk()).isEqualTo(50);
    assertThat(f.shrunkChoices()).containsExactly(0, 50);
  }

  @Test
  void filteredCasesAreSkippedAndAllFilteredIsUnsatisfiable() {
    Gen<Integer> even = Gen.ints(0, 1000).filter(x -> x % 2 == 0);
    PropertyResult.Failed<Integer> f =
        PropertyRunner.assertFails("even below 300", even, x -> x < 300, Config.ofSeed(4));
    assertThat(f.shrunk()).isEqualTo(300);
    Gen<Integer> none = Gen.ints(0, 10).filter(x -> x > 10);
    assertThatThrownBy(() -> PropertyRunner.check("none", none, x -> true, Config.ofSeed(4).withTries(3)))
        .isInstanceOf(Unsatisfiable.class)
        .hasMessageContaining("'none'");
  }

  @Test
  void aThrowingGeneratorIsAnErrorNotACounterexample() {
    Gen<Integer> broken = Gen.ints(0, 10).map(x -> {
      throw new UnsupportedOperationException("bug");
    });
    assertThatThrownBy(() -> PropertyRunner.check("broken", broken, x -> true, Config.ofSeed(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("generator of 'broken'")
        .hasCauseInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void eachTryUsesItsOwnSeed() {
    List<Integer> seen = new java.util.ArrayList<>();
    PropertyRunner.check("records", Gen.ints(0, 1_000_000), x -> seen.add(x), Config.ofSeed(6).withTries(20));
    assertThat(seen).hasSize(20).doesNotHaveDuplicates();
  }
}
