package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SearchSizeTest {
  /** The deepest level and the states stored at the end of each, as the search reports them. */
  private static TreeMap<Integer, Long> levels(Design d) {
    TreeMap<Integer, Long> at = new TreeMap<>();
    SearchListener l = new SearchListener() {
      @Override
      public synchronized void progress(int depth, long states, long transitions, long queue) {
        at.merge(depth, states, Math::max);
      }
    };
    Explorer.explore(new Model(d), "<test>", new Explorer.Options(5_000_000, true, false, Optional.empty(),
        EnumSet.noneOf(ViolationKind.class), false, 1, Long.MAX_VALUE), l);
    return at;
  }

  @Test
  void theDepthToComeIsTheDepthTheSearchReaches() {
    for (String name : new String[] {"single-lock", "reservation", "cuzk/phase8", "cuzk/head"}) {
      Design d = TestDesigns.shipped(name).withThreads("gpu_worker", 2);
      assertThat(SearchSize.of(new Model(d)).totalDepth()).as(name).isEqualTo(levels(d).lastKey());
    }
  }

  @Test
  void fromAThirdOfTheDepthTheEstimateIsWithinAFactorOfTwoOnSingleLockAtSixWorkers() {
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 6);
    TreeMap<Integer, Long> at = levels(d);
    long total = at.lastEntry().getValue();
    SearchSize size = SearchSize.of(new Model(d));
    OptionalLong estimate = OptionalLong.empty();
    for (var e : at.entrySet()) {
      OptionalLong x = size.level(e.getKey(), e.getValue());
      if (e.getKey() < size.totalDepth() / 5) {
        assertThat(x).as("no estimate before a fifth of the depth").isEmpty();
      }
      if (e.getKey() == size.totalDepth() / 3) {
        estimate = x;
      }
    }
    assertThat(estimate).isPresent();
    assertThat((double) estimate.getAsLong() / total).as("estimate %d of %d states", estimate.getAsLong(), total)
        .isBetween(0.5, 2.0);
  }

  @Test
  void aRoleWhoseJobsNeverEndHasNoDepthAndNoEstimate() {
    Design d = TestDesigns.shipped("single-lock").withJobs("gpu_worker", Role.FOREVER);
    SearchSize size = SearchSize.of(new Model(d));
    assertThat(size.totalDepth()).isEqualTo(-1);
    assertThat(size.level(100, 1000)).isEmpty();
  }
}
