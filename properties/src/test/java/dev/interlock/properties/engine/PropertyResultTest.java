package dev.interlock.properties.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PropertyResultTest {

  private static PropertyResult.Failed<List<Integer>> failed(int[] choices, Throwable failure) {
    return new PropertyResult.Failed<>(
        "sorted", 42L, 3, List.of(5, 1, 4), List.of(1, 0), choices, failure, 9);
  }

  @Test
  void failedCopiesItsChoicesInAndOut() {
    int[] choices = {1, 1, 1, 0, 0};
    PropertyResult.Failed<List<Integer>> f = failed(choices, null);
    choices[0] = 7;
    f.shrunkChoices()[1] = 7;
    assertThat(f.shrunkChoices()).containsExactly(1, 1, 1, 0, 0);
  }

  @Test
  void failedComparesChoicesByContent() {
    PropertyResult.Failed<List<Integer>> a = failed(new int[] {1, 0}, null);
    PropertyResult.Failed<List<Integer>> b = failed(new int[] {1, 0}, null);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(failed(new int[] {1, 1}, null));
    assertThat(a.toString()).contains("[1, 0]");
  }

  @Test
  void failedReportHasSeedValuesAndReproduction() {
    String report = failed(new int[] {1, 0}, new IllegalStateException("bad order")).report();
    assertThat(report)
        .contains("'sorted'", "try 4", "seed 42", "9 steps")
        .contains("original: [5, 1, 4]", "shrunk:   [1, 0]")
        .contains("IllegalStateException: bad order")
        .contains("-Dinterlock.seed=42");
    assertThat(failed(new int[0], null).report()).contains("predicate returned false");
  }

  @Test
  void resultsValidateTheirComponents() {
    assertThatThrownBy(() -> new PropertyResult.Passed<Integer>(" ", 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PropertyResult.Passed<Integer>("p", 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PropertyResult.Failed<Integer>("p", 1, -1, 1, 1, new int[0], null, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PropertyResult.Failed<Integer>("p", 1, 0, 1, 1, null, null, 0))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void arraysAreShownByContent() {
    PropertyResult.Failed<int[]> f =
        new PropertyResult.Failed<>("arr", 1, 0, new int[] {3, 4}, new int[] {0}, new int[] {0}, null, 0);
    assertThat(f.report()).contains("original: [3, 4]", "shrunk:   [0]");
  }
}
