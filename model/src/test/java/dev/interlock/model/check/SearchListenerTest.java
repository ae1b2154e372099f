package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.state.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a search tells its listener: each configuration it searches, and its depth and counts as it goes. */
class SearchListenerTest {
  private record Point(int depth, long states, long transitions, long queue) {}

  private static final class Recorder implements SearchListener {
    final List<String> configurations = new ArrayList<>();
    final List<Point> points = new ArrayList<>();

    @Override
    public void configuration(Map<String, Integer> threads, boolean checked) {
      configurations.add(threads + (checked ? " checked" : " smaller"));
    }

    @Override
    public void progress(int depth, long states, long transitions, long queue) {
      points.add(new Point(depth, states, transitions, queue));
    }
  }

  @Test
  void theExplorerReportsEveryLevelWithGrowingCountsAndAQueueWithinTheStates() {
    Recorder r = new Recorder();
    Exploration e;
    System.setProperty(Explorer.PARALLEL_LEVEL_PROPERTY, "64"); // levels expanded in slices: calls within a level too
    try {
      e = Explorer.explore(new Model(TestDesigns.shipped("single-lock").withThreadCounts(new int[] {5})), "<test>",
          new Explorer.Options(10_000_000, true, true, Optional.empty()).withSearch(false, 2, Long.MAX_VALUE), r);
    } finally {
      System.clearProperty(Explorer.PARALLEL_LEVEL_PROPERTY);
    }
    assertThat(e.exhaustive()).isTrue();
    assertThat(r.points.get(0)).isEqualTo(new Point(0, 1, 0, 1));
    int deepest = r.points.stream().mapToInt(Point::depth).max().getAsInt();
    assertThat(r.points.stream().map(Point::depth).distinct().count()).isEqualTo(deepest + 1L);
    assertThat(r.points.size()).isGreaterThan(deepest + 1);
    for (int i = 1; i < r.points.size(); i++) {
      Point a = r.points.get(i - 1);
      Point b = r.points.get(i);
      assertThat(b.depth()).isGreaterThanOrEqualTo(a.depth());
      assertThat(b.states()).isGreaterThanOrEqualTo(a.states()).isLessThanOrEqualTo(e.states());
      assertThat(b.transitions()).isGreaterThanOrEqualTo(a.transitions()).isLessThanOrEqualTo(e.transitions());
      assertThat(b.queue()).isBetween(1L, b.states());
    }
  }

  @Test
  void theCheckerNamesTheCheckedCountsThenEachSmallerConfigurationItSearches() {
    Recorder r = new Recorder();
    CheckReport report = Checker.check(TestDesigns.shipped("two-lock"), "<test>", Checker.Options.defaults(10_000_000), r);
    assertThat(report.smallerConfigs()).isEqualTo(2);
    assertThat(r.configurations).startsWith("{gpu_worker=3} checked").contains("{gpu_worker=1} smaller", "{gpu_worker=2} smaller");
    assertThat(r.points).isNotEmpty();
  }
}
